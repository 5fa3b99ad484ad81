/**
 * The `etl run` progress bar on a TTY stderr: sources, sessions, payload MB/s and an ETA, redrawn
 * in place at most a few times per second and erased when the run ends.
 */
import type { RunProgress } from '../../sync/run-progress.js';

const REDRAW_MS = 200;
const WIDTH = 24;

export interface ProgressSink {
  update(progress: RunProgress): void;
  done(): void;
}

export function formatProgress(p: RunProgress, elapsedMs: number): string {
  const fraction = p.sessionsTotal > 0 ? p.sessionsDone / p.sessionsTotal : 0;
  const filled = Math.round(fraction * WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
  const seconds = Math.max(elapsedMs / 1000, 0.001);
  const mbPerSecond = p.payloadBytes / 1_048_576 / seconds;
  const eta =
    p.phase === 'load' && p.sessionsDone > 0
      ? `${Math.ceil(((p.sessionsTotal - p.sessionsDone) * seconds) / p.sessionsDone)}s`
      : '?';
  return `[${bar}] sources ${p.sourcesDone}/${p.sourcesTotal}  sessions ${p.sessionsDone}/${p.sessionsTotal}  ${mbPerSecond.toFixed(1)} MB/s  ETA ${eta}`;
}

export function createProgressBar(stream: NodeJS.WriteStream): ProgressSink {
  const started = Date.now();
  let lastDraw = 0;
  let drawn = false;
  return {
    update(progress) {
      const now = Date.now();
      if (now - lastDraw < REDRAW_MS && progress.sessionsDone < progress.sessionsTotal) return;
      lastDraw = now;
      drawn = true;
      stream.write(
        `\r${formatProgress(progress, now - started).slice(0, (stream.columns ?? 120) - 1)}\u001b[K`,
      );
    },
    done() {
      if (drawn) stream.write('\r\u001b[K');
    },
  };
}
