/**
 * When a writing run checkpoints: as the messages table's row group fills. Committed rows wait for a
 * checkpoint uncompressed in DuckDB's buffer pool (spilled to its temp files past the pool), and
 * rows appended after a checkpoint start a new row group. A checkpoint that leaves a row group
 * partly filled makes a later checkpoint merge it with the next and recompress it whole: at 10,000
 * sessions the 256 MiB WAL threshold checkpointed every ~116,000 message rows, so almost every
 * row group was compressed twice. Checkpointing when the next batch would no longer fit leaves
 * every row group nearly full, so each is compressed once.
 */

/** DuckDB's rows per row group (the storage default, not configurable per table). */
export const ROW_GROUP_ROWS = 122_880;

export class RowGroupCheckpoint {
  /** Message rows committed since the last checkpoint (they start a fresh row group). */
  private pending = 0;

  /** Records a committed batch's message rows; true when the run should checkpoint now. */
  committed(rows: number): boolean {
    if (rows === 0) return false;
    this.pending += rows;
    const fill = this.pending % ROW_GROUP_ROWS || ROW_GROUP_ROWS;
    // Due when the next batch would not fit, or this one already spilled into a new row group.
    const crossed = this.pending > rows && fill < rows;
    if (fill + rows <= ROW_GROUP_ROWS && !crossed) return false;
    this.pending = 0;
    return true;
  }
}
