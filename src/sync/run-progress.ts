/** What a run reports while it works, for the CLI's progress bar. */
export interface RunProgress {
  phase: 'catalog' | 'load';
  sourcesTotal: number;
  sourcesDone: number;
  sessionsTotal: number;
  sessionsDone: number;
  payloadBytes: number;
}
