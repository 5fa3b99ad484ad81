/** Every source adapter a run uses. A new source slots in here and nowhere else in the pipeline. */
import { AdditionalRootsAdapter } from './additional-roots-adapter.js';
import { BackupAdapter } from './backup/backup-adapter.js';
import { CaptureAdapter } from './capture/capture-adapter.js';
import { CodeTrackingAdapter } from './code-tracking/code-tracking-adapter.js';
import { ComposerAdapter } from './composer/composer-adapter.js';
import { SdkStoreAdapter } from './sdk/sdk-adapter.js';
import type { SourceAdapter } from './source-adapter.js';
import { StoreAdapter } from './store/store-adapter.js';

export function createAdapters(): SourceAdapter[] {
  return [
    new ComposerAdapter(),
    new StoreAdapter(),
    new SdkStoreAdapter(),
    new CodeTrackingAdapter(),
    new AdditionalRootsAdapter(),
    new BackupAdapter(),
    new CaptureAdapter(),
  ];
}
