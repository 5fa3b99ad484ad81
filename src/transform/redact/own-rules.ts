/**
 * The rules secretlint's preset lacks: private-key armor, JWTs, authorization headers, assignments
 * to secret-named names, e-mail addresses and (opt-in) home-directory user names. Each returns the
 * spans of the secrets alone, never a name, quote or bracket around them.
 */
import { MARKER_START, type Span } from './ruleset.js';
import { minimumValueLength, nameWords, secretWordOf } from './secret-name.js';

const BASE64_RUN = /[A-Za-z0-9+/]{16,}/;
const ARMOR_BEGIN = /-{4,5} ?BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?) ?-{4,5}/g;
const ARMOR_END = /-{4,5} ?END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}/g;
/** A line of an armored body: blank, a header (`Proc-Type: …`, `Version: …`) or base64 words. */
const BODY_LINE = /^(?:|[A-Za-z][A-Za-z0-9-]*: [^\n]*|[A-Za-z0-9+/=]+(?: [A-Za-z0-9+/=]+)*)$/;
/** An unterminated body: optional header lines, then base64 words up to the last one. */
const OPEN_BODY =
  /(?:(?:[ \t]*(?:\r?\n|\\r\\n|\\n))+[A-Za-z][A-Za-z0-9-]*: [^\n\\]*)*(?:(?:[ \t]*(?:\r?\n|\\r\\n|\\n)[ \t]*|[ \t]+)+(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2}|=[A-Za-z0-9+/]{4}))+/y;
const MAX_ARMOR_BODY = 256 * 1024;

function privateKeys(text: string, out: Span[]): void {
  ARMOR_BEGIN.lastIndex = 0;
  for (let begin = ARMOR_BEGIN.exec(text); begin !== null; begin = ARMOR_BEGIN.exec(text)) {
    const bodyStart = begin.index + begin[0].length;
    ARMOR_END.lastIndex = bodyStart;
    const end = ARMOR_END.exec(text);
    if (end !== null && end.index - bodyStart <= MAX_ARMOR_BODY) {
      const body = text.slice(bodyStart, end.index);
      const lines = body.split(/\r?\n|\\r\\n|\\n/).map((line) => line.trim());
      if (BASE64_RUN.test(body) && lines.every((line) => BODY_LINE.test(line))) {
        out.push({ start: begin.index, end: end.index + end[0].length, rule: 'private-key' });
        ARMOR_BEGIN.lastIndex = end.index + end[0].length;
        continue;
      }
    }
    OPEN_BODY.lastIndex = bodyStart;
    const open = OPEN_BODY.exec(text);
    if (open !== null && BASE64_RUN.test(open[0])) {
      out.push({ start: begin.index, end: bodyStart + open[0].length, rule: 'private-key' });
      ARMOR_BEGIN.lastIndex = bodyStart + open[0].length;
    }
  }
}

const JWT =
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.(?:[A-Za-z0-9_-]{8,})?(?![A-Za-z0-9_-])/g;

function jwts(text: string, out: Span[]): void {
  for (const match of text.matchAll(JWT))
    out.push({ start: match.index, end: match.index + match[0].length, rule: 'jwt' });
}

const AUTH_SCHEMES = 'bearer|basic|token|bot|apikey|api-key|negotiate|ntlm|hawk|dpop|sso-key';
const AUTH_HEADER = new RegExp(
  `(?<![A-Za-z0-9_-])(?:proxy-)?authorization\\\\*["']?[ \\t]*[:=][ \\t]*\\\\*["']?[ \\t]*(?:(?:${AUTH_SCHEMES})[ \\t]+)?([A-Za-z0-9._~+/=:-]+)`,
  'gi',
);
const BEARER = /(?<![A-Za-z0-9_-])bearer[ \t]+([A-Za-z0-9._~+/-]{8,}=*)(?![A-Za-z0-9._~+/=-])/gi;
const SCHEME_WORD = new RegExp(`^(?:${AUTH_SCHEMES})$`, 'i');
/** Constant-like placeholders: `YOUR_TOKEN`, `API_KEY`. */
const CONSTANT = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** A credential in a header or after `bearer`: long enough and not a word of prose or a placeholder. */
function credentialLike(value: string, standalone: boolean): boolean {
  if (SCHEME_WORD.test(value) || CONSTANT.test(value)) return false;
  if (!standalone) return value.length >= 6;
  return value.length >= 8 && (/[0-9._~+/-]/.test(value) || (value.length >= 20 && /[A-Z]/.test(value)));
}

function authHeaders(text: string, out: Span[]): void {
  for (const [pattern, standalone] of [
    [AUTH_HEADER, false],
    [BEARER, true],
  ] as const) {
    for (const match of text.matchAll(pattern)) {
      const value = match[1]!;
      if (!credentialLike(value, standalone)) continue;
      const start = match.index + match[0].length - value.length;
      out.push({ start, end: start + value.length, rule: 'auth-header' });
    }
  }
}

/**
 * A secret word, where an assignment's name is looked for: found first (they are rare in text),
 * then widened to the whole name, so the separator pattern runs only there.
 */
const SECRET_WORD = /pass|pwd|pswd|secret|token|key|pin|credential|creds|auth/gi;
const NAME_CHAR = /[A-Za-z0-9_.-]/;
/** After a name: an optional closing quote (escaped or not), `=`, `:`, `:=` or `=>`, an optional opening quote. */
const SEPARATOR = /(\\*["'`]?)[ \t]*(=>|:=|=|:)(?![=:>])[ \t]*(\\*["'`]?)/y;
const UNQUOTED_VALUE = /[^\s"'`<>,;&|(){}[\]\\]+/y;
const KEYWORDS = new Set(
  (
    'null none nil undefined nan true false yes no on off required optional string str number int integer ' +
    'float bool boolean object any env secret password passwd token key hidden redacted empty na n/a tbd todo ' +
    'await new function async typeof require import return this self var let const static public private ' +
    'protected readonly void default value'
  ).split(' '),
);
const CODE_ROOTS = new Set(
  'this self process os config settings env req request res response options opts params props ctx context args'.split(
    ' ',
  ),
);
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const PATH_LIKE = /^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/;
const PLACEHOLDER = /^(?:\$|%[sd({]|\{\{|<[^>]*>$|\*{3,}|x{4,}$|\.{3}|…|\?$)/i;

function placeholderLike(value: string): boolean {
  return PLACEHOLDER.test(value) || CONSTANT.test(value) || KEYWORDS.has(value.toLowerCase());
}

/** An unquoted value that is code (`config.apiKey`, `userPassword`, `getToken()`, `Option<…>`), not a secret. */
function codeLike(value: string, after: string): boolean {
  if (after.startsWith('(') || PATH_LIKE.test(value) || /^https?:\/\//i.test(value)) return true;
  if (!IDENTIFIER_PATH.test(value)) return false;
  // A generic type (`Option<String>`), not HTML after a value (`pw=Abc1</summary>`).
  if (/^[A-Z]/.test(value) && /^<[A-Za-z]/.test(after)) return true;
  const segments = value.split('.');
  if (segments.length > 1 && CODE_ROOTS.has(segments[0]!)) return true;
  return !/[0-9]/.test(value) && segments.some((segment) => secretWordOf(segment) !== null);
}

/** The closing quote of a quoted value on the same line, or -1. */
function closingQuote(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') return -1;
    if (quote.length === 1) {
      if (c === '\\') i++;
      else if (c === quote) return i;
    } else if (text.startsWith(quote, i)) return i;
  }
  return -1;
}

const MAX_CONTAINER = 4096;
/** In a container: a quoted string (a key when `:` follows) or a bare value. */
const CONTAINER_ITEM = /\\*(["'])((?:\\.|(?!\1)[^\\\n])*)\\*\1([ \t]*:)?|([^\s,:"'{}[\]\\]+)([ \t]*:)?/g;

/** The end of the `[…]` / `{…}` starting at `start` (quoted text skipped), or -1. */
function containerEnd(text: string, start: number): number {
  let depth = 0;
  let quote: string | null = null;
  const limit = Math.min(text.length, start + MAX_CONTAINER);
  for (let i = start; i < limit; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\n') return -1;
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** `"apiKey": {"value": "…"}` or `tokens: ["a", 123]` in text that is not JSON: every value inside is secret. */
function containerValues(text: string, start: number, name: string, out: Span[]): void {
  const end = containerEnd(text, start);
  if (end < 0) return;
  const body = text.slice(start, end);
  for (const item of body.matchAll(CONTAINER_ITEM)) {
    if (item[3] !== undefined || item[5] !== undefined) continue;
    const quoted = item[2];
    const value = quoted ?? item[4]!;
    if (value.length < minimumValueLength(name) || placeholderLike(value) || value.startsWith(MARKER_START))
      continue;
    const at = start + item.index + (quoted === undefined ? 0 : item[0].indexOf(value, 1));
    out.push({ start: at, end: at + value.length, rule: 'secret-assignment' });
  }
}

function assignments(text: string, out: Span[]): void {
  let scannedTo = 0;
  SECRET_WORD.lastIndex = 0;
  for (let word = SECRET_WORD.exec(text); word !== null; word = SECRET_WORD.exec(text)) {
    if (word.index < scannedTo) continue;
    let start = word.index;
    while (start > 0 && NAME_CHAR.test(text[start - 1]!)) start--;
    while (start < word.index && !/[A-Za-z_]/.test(text[start]!)) start++;
    let end = word.index + word[0].length;
    while (end < text.length && NAME_CHAR.test(text[end]!)) end++;
    scannedTo = end;
    if (end - start > 64) continue;
    SEPARATOR.lastIndex = end;
    const match = SEPARATOR.exec(text);
    if (match === null) continue;
    const name = text.slice(start, end);
    const separator = match[2]!;
    const quote = match[3]!;
    const valueStart = end + match[0].length;
    if (secretWordOf(name) === null || nameWords(name).includes('authorization')) continue;
    let valueEnd: number;
    if (text.startsWith(MARKER_START, valueStart)) continue;
    if (quote.length === 0 && (text[valueStart] === '[' || text[valueStart] === '{')) {
      containerValues(text, valueStart, name, out);
      continue;
    }
    if (quote.length > 0) {
      valueEnd = closingQuote(text, valueStart, quote);
      if (valueEnd < 0) continue;
      const value = text.slice(valueStart, valueEnd);
      if (value.trim().length === 0 || placeholderLike(value.trim())) continue;
    } else {
      UNQUOTED_VALUE.lastIndex = valueStart;
      const token = UNQUOTED_VALUE.exec(text);
      if (token === null) continue;
      const value = token[0];
      valueEnd = valueStart + value.length;
      if (value.length < minimumValueLength(name) || placeholderLike(value)) continue;
      if (codeLike(value, text.slice(valueEnd, valueEnd + 2))) continue;
      // `Token: the token is sent…`: a lower-case word that prose goes on after.
      if (
        separator === ':' &&
        /^[a-z]{1,15}$/.test(value) &&
        /^[ \t]+[a-z]/.test(text.slice(valueEnd, valueEnd + 3))
      )
        continue;
    }
    out.push({ start: valueStart, end: valueEnd, rule: 'secret-assignment' });
    scannedTo = Math.max(scannedTo, valueEnd);
  }
}

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const DOMAIN = /[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/y;

/** Found from each `@` (widened to the local part, then the domain), not by a pattern tried everywhere. */
function emails(text: string, out: Span[]): void {
  let from = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > from && LOCAL_CHAR.test(text[start - 1]!)) start--;
    if (start === at) continue;
    DOMAIN.lastIndex = at + 1;
    const domain = DOMAIN.exec(text);
    if (domain === null) continue;
    out.push({ start, end: DOMAIN.lastIndex, rule: 'email' });
    from = DOMAIN.lastIndex;
  }
}

/** `/home/<user>`, `/Users/<user>`, `/var/home/<user>`, `C:\Users\<user>` (any slash, escaped or not). */
const HOME =
  /(?:(?<![A-Za-z0-9_.-])(?:\/var)?\/home\/|(?<![A-Za-z0-9_.-])\/Users\/|\b[A-Za-z]:(?:\\{1,2}|\/)Users(?:\\{1,2}|\/))([^/\\\s"'`:*?<>|]+)/g;
const NOT_USERS = new Set(['Shared', 'Public', 'Default', 'All Users', 'Default User', 'Guest']);

function homePaths(text: string, out: Span[]): void {
  for (const match of text.matchAll(HOME)) {
    const user = match[1]!;
    if (NOT_USERS.has(user) || user.startsWith(MARKER_START)) continue;
    const start = match.index + match[0].length - user.length;
    out.push({ start, end: start + user.length, rule: 'home-path' });
  }
}

export interface OwnRuleOptions {
  homePaths: boolean;
}

/** Every own rule's spans in `text`, unsorted and possibly overlapping. */
export function ownRuleSpans(text: string, options: OwnRuleOptions, out: Span[] = []): Span[] {
  if (text.includes('PRIVATE KEY')) privateKeys(text, out);
  if (text.includes('eyJ')) jwts(text, out);
  if (/authorization|bearer/i.test(text)) authHeaders(text, out);
  assignments(text, out);
  if (text.includes('@')) emails(text, out);
  if (options.homePaths) homePaths(text, out);
  return out;
}
