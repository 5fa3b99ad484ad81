import { hostileGroups } from '../../../fixtures/hostile/hostile-corpus.js';
import { describeHostileSuite } from '../harness/hostile-suite.js';

describeHostileSuite('live-and-permission', hostileGroups['live-and-permission']());
