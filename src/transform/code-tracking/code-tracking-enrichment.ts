/**
 * AI code tracking facts on the session they belong to (cursor-formats §4): the conversation
 * summary (title only where the session has none), AI line attribution per request, file, source
 * and model (`human` lines are not AI attribution), and deleted files, in `extensions.aiCodeTracking`.
 */
import { isDeepStrictEqual } from 'node:util';
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

function instance(
  c: CodeTrackingContribution,
  state: ViewSourceInstance['state'],
  reasonCode: string | null,
): ViewSourceInstance {
  return {
    sourceRole: 'composer',
    representation: 'ai-code-tracking',
    state,
    occurrenceRef: c.occurrence.occurrenceRef,
    carrier: c.occurrence.carrier,
    workspacePath: null,
    reasonCode,
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
  // Several data roots may each carry a tracking DB: one backs the facts, the others are replicas.
  const ordered = [...contributions].sort((a, b) =>
    a.occurrence.occurrenceRef < b.occurrence.occurrenceRef ? -1 : 1,
  );
  const chosen = ordered.find((c) => c.data.status === 'read');
  const chosenFacts = chosen === undefined ? null : facts(chosen);
  const state = (c: CodeTrackingContribution): ViewSourceInstance => {
    if (c.data.status !== 'read') return instance(c, 'failed', 'source-unavailable');
    if (c === chosen) return instance(c, 'contributed', null);
    return isDeepStrictEqual(facts(c), chosenFacts)
      ? instance(c, 'equivalent-replica', null)
      : instance(c, 'superseded', 'tracking-replica');
  };
  return {
    ...view,
    title: view.title ?? text(chosen?.data.summary ?? null, 'title'),
    instances: [...view.instances, ...ordered.map(state)],
    diagnostics: [...view.diagnostics, ...ordered.flatMap((c) => c.diagnostics)],
    sourceKeys: [...view.sourceKeys, ...ordered.map((c) => c.occurrence.sourceKey)],
    extensions:
      chosenFacts === null ? view.extensions : { ...(view.extensions ?? {}), aiCodeTracking: chosenFacts },
  };
}
