/** Export progress on an interactive stderr only; pipes, CI logs and --json stay clean. */
export interface ExportProgress {
  rows(label: string, count: number): void;
  done(label: string, count: number): void;
}

export function createExportProgress(enabled: boolean): ExportProgress {
  const write = (text: string): void => {
    if (enabled) process.stderr.write(text);
  };
  return {
    rows: (label, count) => write(`\r${label}: ${count} rows`),
    done: (label, count) => write(`\r${label}: ${count} rows, done\n`),
  };
}
