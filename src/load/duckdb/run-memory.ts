import { memoryLimitSetting } from './value-memory.js';

/**
 * DuckDB settings of a writing run. Without a limit DuckDB's buffer pool keeps every block
 * checkpointed so far (up to 80 % of RAM), so peak RSS grew with the warehouse; with one, clean
 * table blocks are evicted and only the working set stays. Spills go to a private directory.
 *
 * The warehouse writer only appends and checkpoints, so it evicts to its spill dir with a 64 MB
 * pool: peak RSS at 2,000 sessions ~435 MB instead of ~500 MB at 128 MB, for the same CPU.
 */
export const WRITER_MEMORY_BYTES = 64_000_000;

/**
 * The Parquet build reads the staged tables back and writes each partition in session ranges of
 * 8 MB sorted alone (ordered-partition.ts), so its pool no longer has to hold a bucket's sort: at
 * 10,000 sessions 96 MB peaked at 348 MB standalone (128 MB: 432 MB), 64 MB could not allocate.
 */
export const BUILD_MEMORY_BYTES = 96_000_000;

/**
 * DuckDB's bundled jemalloc keeps the pages a query freed dirty until later allocations in the same
 * arena reuse or decay them, so RSS kept every page each COPY had touched (the Parquet build's
 * messages partitions peaked at 315 MB instead of 248 MB on a busy machine, and RSS stayed there
 * after the instance closed). Its background threads purge them after the 1 s decay instead.
 * The allocator is per process, so every instance gets the same setting.
 */
const ALLOCATOR_OPTIONS = { allocator_background_threads: 'true' };

/**
 * Rows per row group of the tables a run writes (DuckDB's default is 122,880). A transaction that
 * appends at least a row group's rows to a table has DuckDB compress them straight into the file at
 * COMMIT (an "optimistic write": the WAL only points at the blocks). Below that, committed rows go to
 * the WAL and wait uncompressed in the buffer pool, spilled to the temp dir past the pool and read back,
 * until a checkpoint compresses them: at 2,000 sessions the messages table's 122,880-row groups made
 * that round trip ~6 CPU s and a ~2.5 s stall per checkpoint. A load batch holds ~3,400 messages (8 MB
 * of payload), so with 2,048 every batch's messages reach the file at its own COMMIT, off the main
 * thread while it reads the next batch; the smaller tables' rows still use the WAL, and a
 * checkpoint recompresses at most one 2,048-row tail per table. The file is ~9 % larger (the last row
 * group of each batch is partly filled).
 */
export const WRITER_ROW_GROUP_ROWS = 2_048;

/**
 * DuckDB compresses a transaction's completed row groups once this many are buffered (default 5) or
 * they pass this size (default 20 % of the pool divided by the threads), inside the appender's
 * synchronous close on the main thread. A batch's rows (bounded by the run's batch limits) stay
 * buffered up to the size bound, so its COMMIT compresses them off the main thread.
 */
const WRITE_BUFFER_OPTIONS = {
  write_buffer_row_group_count: '64',
  write_buffer_row_group_memory_limit: '32MB',
};

/**
 * One DuckDB thread for a writing run: the main thread and the resolve worker already keep both cores
 * busy, and with a second DuckDB thread the thread running a statement mostly spun polling for the
 * other's tasks (DuckDB's pending-query loop): full 1x loads 31.4 instead of 38.8 CPU s (medians of 4
 * alternating runs), 19.9 instead of 23.8 s wall. The COMMIT's compression still runs off the main
 * thread, on the binding's worker thread.
 */
const WRITER_THREADS = '1';

/**
 * Instance options for a writing run; `spillDir` must be private (0700) and removed by the caller.
 * The WAL checkpoint threshold is DuckDB's (16 MiB): only the small tables' rows go through the WAL.
 */
export function runInstanceOptions(spillDir: string): Record<string, string> {
  return {
    memory_limit: memoryLimitSetting(WRITER_MEMORY_BYTES),
    temp_directory: spillDir,
    threads: WRITER_THREADS,
    ...WRITE_BUFFER_OPTIONS,
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
    memory_limit: memoryLimitSetting(BUILD_MEMORY_BYTES),
    threads: BUILD_THREADS,
    ...ALLOCATOR_OPTIONS,
    allocator_bulk_deallocation_flush_threshold: BUILD_FLUSH_THRESHOLD,
  };
}
