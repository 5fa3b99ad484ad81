/**
 * ZIP entry names a backup may contain: strict UTF-8, forward-slash relative paths whose segments
 * are safe on every platform. Anything else makes the archive invalid before any extraction.
 */
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';

export type UnsafeNameReason =
  | 'invalid-utf8'
  | 'empty'
  | 'absolute'
  | 'drive-letter'
  | 'backslash'
  | 'control-character'
  | 'colon'
  | 'dot-segment'
  | 'empty-segment'
  | 'trailing-dot-or-space'
  | 'device-name';

const DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

export type NameCheck = { ok: true; name: string } | { ok: false; reason: UnsafeNameReason };

/** Checks one entry name; a trailing `/` (a directory record) is reported by the caller as non-regular. */
export function checkEntryName(raw: Uint8Array, allowTrailingSlash: boolean): NameCheck {
  let name: string;
  try {
    name = decodeStrictUtf8(raw, 'zip', false);
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) return { ok: false, reason: 'invalid-utf8' };
    throw error;
  }
  if (name.length === 0) return { ok: false, reason: 'empty' };
  if (name.includes('\\')) return { ok: false, reason: 'backslash' };
  if (name.startsWith('/')) return { ok: false, reason: 'absolute' };
  if (/^[A-Za-z]:/.test(name)) return { ok: false, reason: 'drive-letter' };
  if (CONTROL.test(name)) return { ok: false, reason: 'control-character' };
  if (name.includes(':')) return { ok: false, reason: 'colon' };
  const body = allowTrailingSlash && name.endsWith('/') ? name.slice(0, -1) : name;
  for (const segment of body.split('/')) {
    if (segment === '') return { ok: false, reason: 'empty-segment' };
    if (segment === '.' || segment === '..') return { ok: false, reason: 'dot-segment' };
    if (/[. ]$/.test(segment)) return { ok: false, reason: 'trailing-dot-or-space' };
    if (DEVICE.test(segment)) return { ok: false, reason: 'device-name' };
  }
  return { ok: true, name };
}

/** The collision key of a name: NFC, then lowercase. */
export function foldedName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
