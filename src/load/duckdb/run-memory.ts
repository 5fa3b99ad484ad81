import { memoryLimitSetting } from './value-memory.js';

/**
 * DuckDB settings of a writing run. An unbounded buffer pool keeps every block checkpointed so far,
 * so RSS grew with the warehouse; bounded, only the working set stays and the rest spills to a
 * private directory.
 */
export const WRITER_MEMORY_BYTES = 64_000_000;

/**
 * Appending even one row to a table pins a 256 KiB block for each column's data and one for its
 * validity until the checkpoint. A small run (under a row group's rows) gets room for every table's,
 * so its COMMIT and closing CHECKPOINT spill none of them to disk and read none back.
 */
export const TRANSIENT_COLUMN_BYTES = 2 * 256 * 1024;

/**
 * The Parquet build reads the staged tables back and writes each partition in session ranges of
 * 8 MB sorted alone (ordered-partition.ts), so its pool no longer has to hold a bucket's sort: at
 * 10,000 sessions 96 MB peaked at 348 MB standalone (128 MB: 432 MB), 64 MB could not allocate.
 */
export const BUILD_MEMORY_BYTES = 96_000_000;

/**
 * DuckDB's jemalloc keeps freed pages dirty until reused or decayed, so RSS kept every page a COPY
 * touched, even after the instance closed; its background threads purge them after the 1 s decay.
 * The allocator is per process, so every instance gets the setting.
 */
const ALLOCATOR_OPTIONS = { allocator_background_threads: 'true' };

/**
 * Rows per row group (DuckDB's default is 122,880). A transaction appending a whole row group
 * compresses it into the file at COMMIT; smaller ones go through the WAL and the pool until a
 * checkpoint. A batch's messages fill 2,048-row groups, so they reach the file at its COMMIT.
 */
export const WRITER_ROW_GROUP_ROWS = 2_048;

/**
 * DuckDB compresses a transaction's completed row groups on the main thread (in the appender's
 * close) once this many are buffered or they pass this size. A batch's rows stay buffered up to the
 * size bound, so its COMMIT compresses them off the main thread.
 */
const WRITE_BUFFER_OPTIONS = {
  write_buffer_row_group_count: '64',
  write_buffer_row_group_memory_limit: '32MB',
};

/**
 * One DuckDB thread for a writing run: the main thread and the resolve worker already fill both
 * cores, and a second DuckDB thread mostly spun polling for the other's tasks. The COMMIT's
 * compression still runs off the main thread.
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
 * DuckDB flushes its allocator when the pool serves an allocation above this size; at the default
 * 512 MiB it never did in the Parquet build, so pages freed by one partition stayed resident. At 8
 * MB it fires on the writer's page buffers.
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
