/**
 * Capture kind detection by content: the first bytes decide, the file extension only breaks a tie
 * when the first record is longer than the sniff window. Undetectable content returns null.
 */
import { closeSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { openRegularFileSync } from '../fs/open-regular-file.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';

export type CaptureSurface =
  | 'cli-stream'
  | 'cloud-capture'
  | 'cloud-sse'
  | 'cloud-v0'
  | 'export-chat'
  | 'specstory';

/** A legacy v0 conversation message type (`user_message` / `assistant_message`) in the text. */
const V0_MESSAGE_TYPE = /"type"\s*:\s*"(?:user|assistant)_message"/;
/** A `messages` list that is empty or opens with a message object keyed like v0's `{id, type, text}`. */
const V0_MESSAGES = /"messages"\s*:\s*\[\s*(?:\]|\{\s*"(?:id|type|text)"\s*:)/;
/** A document opening with the saved `{agent: {id…}, conversation}` form. */
const V0_WRAPPED_START = /^\s*\{\s*"agent"\s*:\s*\{\s*"id"\s*:/;

const SNIFF_BYTES = 16 * 1024;
/** How many leading bytes are inspected for the NULs of BOM-less UTF-16 text. */
const UTF16_PROBE_BYTES = 64;

/**
 * UTF-16 text (a BOM, or a NUL in every other byte of the first ones): what a Windows PowerShell
 * `>` redirect of `cursor-agent --output-format stream-json` writes. UTF-8 captures never hold NULs.
 */
function looksUtf16(bytes: Buffer): boolean {
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  )
    return true;
  const probe = bytes.subarray(0, UTF16_PROBE_BYTES);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < probe.length; i++) if (probe[i] === 0) i % 2 === 0 ? even++ : odd++;
  const pairs = Math.floor(probe.length / 2);
  return pairs >= 2 && (even * 2 >= pairs || odd * 2 >= pairs);
}

interface Prefix {
  text: string;
  /** The file goes on past the sniff window, so the window may end inside the first record. */
  truncated: boolean;
}

/** ASCII whitespace, LF included: leading blank lines hold no record. */
const isBlankByte = (byte: number): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0b || byte === 0x0c;

/** The offset of the first byte from `from` on that is not blank, or the file's end. */
function firstNonBlank(fd: number, from: number, buffer: Buffer): number {
  for (let position = from; ; ) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    let i = 0;
    while (i < read && isBlankByte(buffer[i] as number)) i++;
    if (i < read || read === 0) return position + i;
    position += read;
  }
}

function readPrefix(path: string): Prefix {
  const fd = openRegularFileSync(path);
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    let bytes = buffer.subarray(0, readSync(fd, buffer, 0, SNIFF_BYTES, 0));
    // Refused by name rather than as "not a capture": it is one, in an encoding never transcoded.
    if (looksUtf16(bytes)) throw new SourceEncodingInvalid('utf16', 'capture');
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    // The window starts at the first record, however many blank lines come before it.
    const start = firstNonBlank(fd, bom, Buffer.alloc(64 * 1024));
    if (start > bom) bytes = buffer.subarray(0, readSync(fd, buffer, 0, SNIFF_BYTES, start));
    // Lenient here on purpose: sniffing only classifies; the reader decodes strictly.
    return { text: bytes.toString('utf8').replace(/^\uFEFF/, ''), truncated: bytes.length === SNIFF_BYTES };
  } finally {
    closeSync(fd);
  }
}

/**
 * A JSON document (one line or pretty-printed) holding a v0 conversation: a `messages` list with a
 * v0 message type, or empty; when a long first message or agent summary fills the window, the
 * list's shape or the saved form's opening decides.
 */
function isV0Conversation({ text, truncated }: Prefix): boolean {
  const list = V0_MESSAGES.exec(text);
  if (list !== null) return list[0].endsWith(']') || V0_MESSAGE_TYPE.test(text) || truncated;
  return truncated && V0_WRAPPED_START.test(text);
}

function sniffJsonLine(line: string, prefix: Prefix, extension: string): CaptureSurface | null {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    if (/"capture"\s*:\s*"cursor-cloud-/.test(line)) return 'cloud-capture';
    if (/"type"\s*:/.test(line) && /"session_id"\s*:/.test(line)) return 'cli-stream';
    if (isV0Conversation(prefix)) return 'cloud-v0';
    return extension === '.ndjson' ? 'cli-stream' : null;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return null;
  const object = record as Record<string, unknown>;
  if (typeof object.capture === 'string' && object.capture.startsWith('cursor-cloud-'))
    return 'cloud-capture';
  if (typeof object.type === 'string' && 'session_id' in object) return 'cli-stream';
  return isV0Conversation({ text: line, truncated: false }) ? 'cloud-v0' : null;
}

function sniffMarkdown(lines: readonly string[]): CaptureSurface | null {
  const nonBlank = lines.filter((line) => line.trim().length > 0);
  const [first, second] = nonBlank;
  if (first === undefined) return null;
  if (first.startsWith('<!-- Generated by SpecStory') || first.trim() === '## SpecStory') return 'specstory';
  if (first.startsWith('# ') && second?.startsWith('_Exported on ')) return 'export-chat';
  if (nonBlank.some((line) => /^_\*\*(User|Assistant|Agent)\b.*\*\*_\s*$/.test(line))) return 'specstory';
  return null;
}

export function sniffSurface(path: string): CaptureSurface | null {
  const prefix = readPrefix(path);
  const lines = prefix.text.split('\n').map((line) => line.replace(/\r$/, ''));
  const first = lines.find((line) => line.trim().length > 0);
  if (first === undefined) return null;
  if (first.trimStart().startsWith('{'))
    return sniffJsonLine(first.trim(), prefix, extname(path).toLowerCase());
  if (/^(event|id|data|retry):/.test(first) || first.startsWith(':')) return 'cloud-sse';
  return sniffMarkdown(lines);
}
