/**
 * DuckDB memory settings of a writing run. Without a limit DuckDB's buffer pool keeps every block
 * checkpointed so far (up to 80 % of RAM), so peak RSS grew with the warehouse; with one, clean
 * table blocks are evicted and only the working set stays. Spills go to a private directory.
 */
export const RUN_MEMORY_LIMIT = '128MB';

/** Instance options for a writing run; `spillDir` must be private (0700) and removed by the caller. */
export function runInstanceOptions(spillDir: string): Record<string, string> {
  return { memory_limit: RUN_MEMORY_LIMIT, temp_directory: spillDir };
}
