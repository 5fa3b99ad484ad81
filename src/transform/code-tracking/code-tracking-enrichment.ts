/**
 * AI code tracking facts on the session they belong to (cursor-formats §4): the conversation
 * summary (title only where the session has none), AI line attribution per request, file, source
 * and model (`human` lines are not AI attribution), and deleted files, in `extensions.aiCodeTracking`.
 */
import type {
  CodeTrackingContribution,
  TrackingRow,
} from '../../extract/code-tracking/code-tracking-contribution.js';
import { instantOrNull } from '../../shared/time/read-instant.js';
import type { SessionView, ViewSourceInstance } from '../session-view.js';

const text = (row: TrackingRow | null, field: string): string | null => {
  const value = row?.[field];
  return typeof value === 'string' && value !== '' ? value : null;
};

const time = (row: TrackingRow, field: string): string | null => {
  const value = row[field];
  const ms = typeof value === 'number' || typeof value === 'string' ? instantOrNull(value) : null;
  return ms === null ? null : new Date(ms).toISOString();
};

function instance(c: CodeTrackingContribution, failed: boolean): ViewSourceInstance {
  return {
    sourceRole: 'composer',
    representation: 'ai-code-tracking',
    state: failed ? 'failed' : 'contributed',
    occurrenceRef: c.occurrence.occurrenceRef,
    carrier: c.occurrence.carrier,
    workspacePath: null,
    reasonCode: failed ? 'source-unavailable' : null,
  };
}

function facts(c: CodeTrackingContribution): Record<string, unknown> {
  const { summary, attribution, deletedFiles } = c.data;
  const lines = (row: TrackingRow) => (typeof row.lines === 'number' ? row.lines : 0);
  const ai = attribution.filter((row) => text(row, 'source') !== 'human');
  return {
    summary:
      summary === null
        ? null
        : {
            title: text(summary, 'title'),
            tldr: text(summary, 'tldr'),
            overview: text(summary, 'overview'),
            model: text(summary, 'model'),
            mode: text(summary, 'mode'),
          },
    aiLines: ai.reduce((n, row) => n + lines(row), 0),
    attribution: ai.map((row) => ({
      requestId: text(row, 'requestId'),
      file: text(row, 'fileName'),
      source: text(row, 'source'),
      model: text(row, 'model'),
      lines: lines(row),
    })),
    humanLines: attribution
      .filter((row) => text(row, 'source') === 'human')
      .reduce((n, row) => n + lines(row), 0),
    deletedFiles: deletedFiles.map((row) => ({
      path: text(row, 'gitPath'),
      model: text(row, 'model'),
      deletedAt: time(row, 'deletedAt'),
    })),
  };
}

export function withCodeTracking(
  view: SessionView,
  contributions: readonly CodeTrackingContribution[],
): SessionView {
  const read = contributions.filter((c) => c.data.status === 'read');
  const chosen = read[0];
  return {
    ...view,
    title: view.title ?? text(chosen?.data.summary ?? null, 'title'),
    instances: [...view.instances, ...contributions.map((c) => instance(c, c.data.status !== 'read'))],
    diagnostics: [...view.diagnostics, ...contributions.flatMap((c) => c.diagnostics)],
    sourceKeys: [...view.sourceKeys, ...contributions.map((c) => c.occurrence.sourceKey)],
    extensions:
      chosen === undefined ? view.extensions : { ...(view.extensions ?? {}), aiCodeTracking: facts(chosen) },
  };
}
