/**
 * A parsed Markdown chat export: what the file states and nothing more. Markdown is a complete but
 * lossy snapshot: no per-message times (except SpecStory's user stamps), no native message IDs, no
 * tool results.
 */
import type { TimeProblem } from '../../../shared/time/read-instant.js';

export type MarkdownSurface = 'export-chat' | 'specstory';

export interface MarkdownTool {
  name: string;
  toolType: string | null;
  summary: string | null;
}

export interface MarkdownTurn {
  role: 'user' | 'assistant';
  /** Zero-based section ordinal in the file (the position model for Markdown). */
  section: number;
  /** Zero-based physical line of the turn's role marker. */
  line: number;
  text: string;
  /** Thinking the file renders for this turn (SpecStory `<think>` blocks), split out of `text`. */
  thinking: string | null;
  /** Thinking blocks that open but never close, left in `text` as written. */
  unterminatedThinking: number;
  /**
   * The turn as written (thinking markup included): the capture message identity v1 input, so
   * splitting thinking out of `text` changes no message ID.
   */
  writtenText: string;
  /** The role marker's annotation verbatim, e.g. `2026-02-10 08:30Z` or `model m, mode Agent`. */
  annotation: string | null;
  /** A UTC minute stamp the file states for this turn (SpecStory v1.5+ user markers). */
  stampedAtMs: number | null;
  /** The stamp's text when present but not a time (SpecStory user markers). */
  timeProblems: TimeProblem[];
  model: string | null;
  mode: string | null;
  tools: MarkdownTool[];
  /** Export Chat 2.x: runs of blank lines where tool activity was elided. */
  elisions: number;
}

export interface MarkdownDocument {
  surface: MarkdownSurface;
  /** `export-chat`, `specstory-v1-oldest`, `specstory-v1`, `specstory-v1.5`, `specstory-v2`. */
  generation: string;
  sessionId: string;
  sessionIdOrigin: 'specstory-uuid' | 'content-v1';
  title: string | null;
  /** Locale-dependent date strings kept opaque (never parsed into a time). */
  opaqueDates: string[];
  /** A UTC stamp the file states for the session (SpecStory session comment). */
  declaredAtMs: number | null;
  /** The session comment's stamp when present but not a time. */
  timeProblems: TimeProblem[];
  appVersion: string | null;
  formatVersion: string | null;
  harness: string | null;
  turns: MarkdownTurn[];
  emptyUserTurns: number;
}
