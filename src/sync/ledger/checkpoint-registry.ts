/**
 * Hands adapters the prefix checkpoints the ledger holds and collects the ones they take during
 * the run; the pipeline stores them with the source rows in the run's last batch transaction.
 */
import {
  type CheckpointRegistry,
  isPrefixCheckpoint,
  type PrefixCheckpoint,
} from '../../extract/fs/prefix-checkpoint.js';
import type { LedgerSource } from '../../load/sync-ledger.js';

export class RunCheckpoints implements CheckpointRegistry {
  private readonly taken = new Map<string, PrefixCheckpoint>();

  constructor(private readonly prior: ReadonlyMap<string, LedgerSource>) {}

  previous(sourceKey: string): PrefixCheckpoint | null {
    const stored = this.prior.get(sourceKey)?.checkpoint;
    return isPrefixCheckpoint(stored) ? stored : null;
  }

  record(sourceKey: string, checkpoint: PrefixCheckpoint): void {
    this.taken.set(sourceKey, checkpoint);
  }

  /** What the ledger keeps for a source: a new checkpoint, else the old one if the source is unchanged. */
  forLedger(sourceKey: string, unchanged: boolean): PrefixCheckpoint | null {
    return this.taken.get(sourceKey) ?? (unchanged ? this.previous(sourceKey) : null);
  }
}
