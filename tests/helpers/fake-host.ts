import type { HostIdentity } from '../../src/shared/process/process-identity.js';

/** A host whose boot, namespace and processes the test decides; every pid started at tick 500. */
export const fakeHost = (over: Partial<HostIdentity> = {}): HostIdentity => ({
  bootId: 'boot-a',
  pidNamespace: 'pid:[1]',
  startTimeOf: () => '500',
  pidExists: () => true,
  ...over,
});
