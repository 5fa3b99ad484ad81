/** The `etl doctor --json` envelope (before the CLI's `diagnostics` array); rendered to JSON Schema. */
import { z } from 'zod';

const count = z.number().int().nonnegative();

export const DOCTOR_LAYOUT = z.object({
  sourceKind: z.string(),
  generation: z.string(),
  sources: count,
  sessions: count,
  messages: count.nullable(),
  blobs: count.nullable(),
  /** agentKv JSON message blobs no `conversationState` prompt list or bubble `requestId` links. */
  unlinkedBlobs: count.nullable(),
  /** SDK agent store `runs` rows (turns). */
  runs: count.nullable(),
  unreadable: count,
});

export const DOCTOR_ROOT = z.object({
  kind: z.enum(['ide-user', 'agent-home', 'remote-server', 'input']),
  origin: z.string(),
  build: z.enum(['stable', 'insiders']).nullable(),
  /** Where it looked: the user's own data root, never a source file inside it. */
  path: z.string(),
  found: z.boolean(),
  read: z.boolean(),
  sessions: count,
  layouts: z.array(DOCTOR_LAYOUT),
  extras: z.object({ sdkAgentStores: count, codeTrackingDb: z.boolean() }).nullable(),
});

export const DOCTOR_REPORT = z.object({
  roots: z.array(DOCTOR_ROOT),
  /** Distinct session IDs over every read root: replicas in two roots count once. */
  sessions: count,
  layouts: z.array(DOCTOR_LAYOUT),
  problems: z.array(z.object({ code: z.string(), count })),
  versions: z.object({
    composerData: z.object({ min: z.number().int(), max: z.number().int() }).nullable(),
    composerHeadersTables: z.array(z.object({ columns: count, rows: count, subagentRows: count })),
    composerHeadersFlags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    /** `agentKv:` pointer keys per global DB; their values (encoding or payload unknown) are not read. */
    agentKvPointers: z.array(z.object({ checkpoint: count, bubbleCheckpoint: count, artifact: count })),
  }),
  warehouse: z
    .object({
      target: z.enum(['duckdb', 'parquet']),
      archived: count,
      inSourcesNotArchived: count,
      archivedButGone: count,
      /** Up to 20 session IDs of each gap, in code-point order. */
      notArchivedIds: z.array(z.string()),
      goneIds: z.array(z.string()),
      /** The last committed run's diagnostics by code: what only a payload read finds (unlinked blobs). */
      lastRunProblems: z.array(z.object({ code: z.string(), count })),
    })
    .nullable(),
  payloadBytesRead: count,
});

export type DoctorReport = z.infer<typeof DOCTOR_REPORT>;
export type DoctorRoot = z.infer<typeof DOCTOR_ROOT>;
export type DoctorLayout = z.infer<typeof DOCTOR_LAYOUT>;
