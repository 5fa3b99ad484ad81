/** Counts what a run actually read, so "skipped without reading payloads" is observable. */
export class ReadCounters {
  payloadBytes = 0;
  payloadReads = 0;
  metadataRows = 0;

  chargePayload(bytes: number): void {
    this.payloadBytes += bytes;
    this.payloadReads += 1;
  }
  chargeMetadata(rows: number): void {
    this.metadataRows += rows;
  }
  /** Adds what `other` counted (reads made earlier on this run's behalf). */
  absorb(other: ReadCounters): void {
    this.payloadBytes += other.payloadBytes;
    this.payloadReads += other.payloadReads;
    this.metadataRows += other.metadataRows;
  }
}
