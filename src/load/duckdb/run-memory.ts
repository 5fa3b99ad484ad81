/**
 * DuckDB settings of a writing run. Without a limit DuckDB's buffer pool keeps every block
 * checkpointed so far (up to 80 % of RAM), so peak RSS grew with the warehouse; with one, clean
 * table blocks are evicted and only the working set stays. Spills go to a private directory.
 */
export const RUN_MEMORY_LIMIT = '128MB';

/**
 * The warehouse writer only appends and checkpoints, so it evicts to its spill dir with half the
 * pool: peak RSS at 2,000 sessions ~435 MB instead of ~500 MB for the same CPU (the Parquet build,
 * which reads the staged tables back, keeps RUN_MEMORY_LIMIT: it lost CPU at 64 MB).
 */
const WRITER_MEMORY_LIMIT = '64MB';

/**
 * Every checkpoint recompresses the table's last, partly filled row group (122,880 rows) whole, so
 * the default 16 MB WAL threshold rewrote the messages table's tail once per two load batches:
 * 13.4 of 37.9 CPU s at 2,000 sessions. At 256 MiB a full load checkpoints a few times (and once at
 * close), for the same peak RSS; the WAL file grows to that size in between.
 */
const RUN_CHECKPOINT_THRESHOLD = '256MiB';

/** Instance options for a writing run; `spillDir` must be private (0700) and removed by the caller. */
export function runInstanceOptions(spillDir: string): Record<string, string> {
  return {
    memory_limit: WRITER_MEMORY_LIMIT,
    temp_directory: spillDir,
    checkpoint_threshold: RUN_CHECKPOINT_THRESHOLD,
  };
}
