/**
 * DuckDB settings of a writing run. Without a limit DuckDB's buffer pool keeps every block
 * checkpointed so far (up to 80 % of RAM), so peak RSS grew with the warehouse; with one, clean
 * table blocks are evicted and only the working set stays. Spills go to a private directory.
 *
 * The warehouse writer only appends and checkpoints, so it evicts to its spill dir with a 64 MB
 * pool: peak RSS at 2,000 sessions ~435 MB instead of ~500 MB at 128 MB, for the same CPU.
 */
const WRITER_MEMORY_LIMIT = '64MB';

/**
 * The Parquet build reads the staged tables back and writes each partition in session ranges of
 * 8 MB sorted alone (ordered-partition.ts), so its pool no longer has to hold a bucket's sort: at
 * 10,000 sessions 96 MB peaked at 348 MB standalone (128 MB: 432 MB), 64 MB could not allocate.
 */
const BUILD_MEMORY_LIMIT = '96MB';

/**
 * DuckDB's bundled jemalloc keeps the pages a query freed dirty until later allocations in the same
 * arena reuse or decay them, so RSS kept every page each COPY had touched (the Parquet build's
 * messages partitions peaked at 315 MB instead of 248 MB on a busy machine, and RSS stayed there
 * after the instance closed). Its background threads purge them after the 1 s decay instead.
 * The allocator is per process, so every instance gets the same setting.
 */
const ALLOCATOR_OPTIONS = { allocator_background_threads: 'true' };

/**
 * Every checkpoint recompresses the table's last, partly filled row group (122,880 rows) whole, so
 * the default 16 MB WAL threshold rewrote the messages table's tail once per two load batches:
 * 13.4 of 37.9 CPU s at 2,000 sessions. A writing run checkpoints as the messages row group fills
 * (row-group-checkpoint.ts), ~290 MB of WAL at 100-message sessions; this threshold is only the
 * backstop for fatter rows, above that so it does not cut a row group short.
 */
const RUN_CHECKPOINT_THRESHOLD = '512MiB';

/** Instance options for a writing run; `spillDir` must be private (0700) and removed by the caller. */
export function runInstanceOptions(spillDir: string): Record<string, string> {
  return {
    memory_limit: WRITER_MEMORY_LIMIT,
    temp_directory: spillDir,
    checkpoint_threshold: RUN_CHECKPOINT_THRESHOLD,
    ...ALLOCATOR_OPTIONS,
  };
}

/**
 * One build thread: with two, each thread holds its own sorted range and row-group buffers, and a
 * pool 15 times a range still ran out of memory when the machine was busy (the build's test, run
 * beside other jobs); with one it never did.
 */
const BUILD_THREADS = '1';

/**
 * DuckDB flushes its allocator (every arena's freed pages go back to the OS at once) when the buffer
 * pool serves an allocation above this size; at the default 512 MiB that never happened in the build,
 * so the pages freed by one partition's sort and writer stayed resident while the next grew elsewhere,
 * faster than the 1 s decay purges them. At 8 MB it fires on the Parquet writer's 8 MiB page buffers
 * (~120 times at 2,000 sessions; 10 MB no longer fires): the build alone over the 1x warehouse peaked
 * 255-270 MB instead of 322-341 MB, and 302 instead of 327 MB at 10,000 sessions, for the pages faulted
 * in again (0.26 -> 0.64 million): +0.7 to +2.4 CPU s at 1x (of 7-9), +8 of 50 at 10,000 sessions.
 */
const BUILD_FLUSH_THRESHOLD = '8MB';

/** Instance options for the Parquet build over a run's staging file (spills next to it). */
export function buildInstanceOptions(): Record<string, string> {
  return {
    memory_limit: BUILD_MEMORY_LIMIT,
    threads: BUILD_THREADS,
    ...ALLOCATOR_OPTIONS,
    allocator_bulk_deallocation_flush_threshold: BUILD_FLUSH_THRESHOLD,
  };
}
