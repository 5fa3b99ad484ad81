/**
 * The edits one tool call proposed, read from its stored row by the tool's shape: fields are taken
 * only where the shape names them; a field of the wrong type is dropped and named in `problems`. An
 * edit tool of an unrecognized shape keeps its params raw and no field is guessed.
 */
import { countTextChange, countUnifiedDiff, type LineCounts } from './line-diff-count.js';

/** Lines added and removed; either is null when the source does not say and it cannot be derived. */
export interface EditCounts {
  added: number | null;
  removed: number | null;
}

/** One proposed file change before path normalization. */
export interface EditCandidate {
  /** The path as stored; null when the shape names none (or it is not a string). */
  path: string | null;
  counts: EditCounts | null;
  diff: string | null;
  oldText: string | null;
  newText: string | null;
  extensions: Record<string, unknown> | null;
  /** Fields whose stored value was of the wrong type or out of range (dropped, never guessed). */
  problems: string[];
}

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const PATH_FIELDS = ['file_path', 'path', 'target_file', 'targetFile', 'relativeWorkspacePath', 'filePath'];
const CONTENT_FIELDS = ['fileText', 'contents', 'content', 'code'];

/** A count the source stored: a non-negative safe integer, else a problem. */
function storedCount(value: unknown, field: string, problems: string[]): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  problems.push(field);
  return null;
}

/** The first of `fields` present in `from`: its string, or null (a non-string is a problem). */
function textField(from: Json | null, fields: readonly string[], problems: string[]): string | null {
  if (from === null) return null;
  for (const field of fields) {
    const value = from[field];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') return value;
    problems.push(field);
    return null;
  }
  return null;
}

/** Counts the tool's result states (`linesAdded`/`linesRemoved`, or `linesCreated` of a write). */
function resultCounts(result: Json | null, problems: string[]): LineCounts | null {
  if (result === null) return null;
  const added = storedCount(result.linesAdded, 'result.linesAdded', problems);
  const removed = storedCount(result.linesRemoved, 'result.linesRemoved', problems);
  return added !== null && removed !== null ? { added, removed } : null;
}

/** A result's diff text: `diffString`, or the `diff.chunks[].diffString` of `edit_file`. */
function resultDiff(result: Json | null, problems: string[]): string | null {
  if (result === null) return null;
  const direct = textField(result, ['diffString'], problems);
  if (direct !== null) return direct;
  const chunks = object(result.diff)?.chunks;
  if (chunks === undefined) return null;
  if (!Array.isArray(chunks)) {
    problems.push('result.diff.chunks');
    return null;
  }
  const texts: string[] = [];
  for (const chunk of chunks) {
    const text = object(chunk)?.diffString;
    if (typeof text === 'string') texts.push(text);
    else problems.push('result.diff.chunks');
  }
  return texts.length === 0 ? null : texts.join('\n');
}

/** The success value of a result: CLI rows store it unwrapped, SDK-style ones under `value`. */
function resultObject(result: string | null): Json | null {
  const value = object(parsed(result));
  return object(value?.value) ?? object(value?.success) ?? value;
}

function replacement(
  path: string | null,
  edit: Json,
  result: Json | null,
  problems: string[],
): EditCandidate {
  const oldText = textField(edit, ['old_string', 'oldString'], problems);
  const newText = textField(edit, ['new_string', 'newString'], problems);
  const diff = resultDiff(result, problems);
  const replaceAll = edit.replace_all === true || edit.replaceAll === true;
  // Every occurrence replaced: how many there were is not stored, so neither are the counts.
  const counts =
    resultCounts(result, problems) ??
    (diff !== null ? countUnifiedDiff(diff) : null) ??
    (oldText !== null && newText !== null && !replaceAll ? countTextChange(oldText, newText) : null);
  return {
    path,
    counts,
    diff,
    oldText,
    newText,
    extensions: replaceAll ? { replaceAll: true } : null,
    problems,
  };
}

/** Lower-cased tool names by shape (Composer, Store/transcript, CLI `<kind>ToolCall`, SDK). */
const REPLACE = new Set(['search_replace', 'strreplace', 'str_replace', 'edit']);
const WRITE = new Set(['write', 'write_file']);
const MULTI = new Set(['multiedit', 'multi_edit']);
/** Edit tools whose shape is not read here: each call is one row with its params raw. */
const RAW_ONLY = new Set(['edit_file_v2', 'apply_patch', 'applypatch', 'delete_file', 'delete']);

export function isEditTool(name: string): boolean {
  const key = name.toLowerCase();
  return key === 'edit_file' || REPLACE.has(key) || WRITE.has(key) || MULTI.has(key) || RAW_ONLY.has(key);
}

function unknownShape(params: unknown, problems: string[] = []): EditCandidate[] {
  return [
    {
      path: null,
      counts: null,
      diff: null,
      oldText: null,
      newText: null,
      extensions: { shape: 'unknown', params },
      problems,
    },
  ];
}

/** The edits of one tool call of an edit tool (`isEditTool`), in the order the call lists them. */
export function toolCallEdits(
  name: string,
  paramsJson: string | null,
  resultText: string | null,
): EditCandidate[] {
  const key = name.toLowerCase();
  const params = parsed(paramsJson);
  const args = object(params);
  if (RAW_ONLY.has(key) || args === null || '_raw' in args) return unknownShape(params);
  const result = resultObject(resultText);
  const problems: string[] = [];
  const path = textField(args, PATH_FIELDS, problems) ?? textField(result, ['path'], problems);
  if (REPLACE.has(key)) return [replacement(path, args, result, problems)];
  if (WRITE.has(key)) {
    const newText = textField(args, CONTENT_FIELDS, problems);
    const created = storedCount(result?.linesCreated, 'result.linesCreated', problems);
    return [
      {
        path,
        // A write replaces what the file held, which is not stored: only a stated count is kept.
        counts:
          resultCounts(result, problems) ?? (created === null ? null : { added: created, removed: null }),
        diff: resultDiff(result, problems),
        oldText: null,
        newText,
        extensions: null,
        problems,
      },
    ];
  }
  if (MULTI.has(key)) {
    if (!Array.isArray(args.edits)) return unknownShape(params, ['edits']);
    return args.edits.map((edit) => {
      const fields = object(edit);
      if (fields === null) return { ...unknownShape(edit, ['edits[]'])[0]!, path };
      return replacement(path, fields, null, [...problems]);
    });
  }
  // `edit_file`: the model's `code_edit` sketch as new text, counts from the applied diff chunks.
  const diff = resultDiff(result, problems);
  return [
    {
      path,
      counts: resultCounts(result, problems) ?? (diff === null ? null : countUnifiedDiff(diff)),
      diff,
      oldText: null,
      newText: textField(args, ['code_edit'], problems),
      extensions: null,
      problems,
    },
  ];
}
