/**
 * secretlint's recommended preset run in-process (nothing resolved or fetched at run time), without
 * its comment filter: a chat saying `secretlint-disable` must not switch detection off. Texts are
 * scanned in one call and each hit is narrowed to the secret itself.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig, SecretLintCoreResultMessage } from '@secretlint/types';
import { MARKER_START, type Span } from './ruleset.js';

// The profiler records a performance mark per rule per call unless disabled: unbounded growth.
secretLintProfiler.setEnabled(false);

const RULE_PREFIX = '@secretlint/secretlint-rule-';
const LEFT_OUT = new Set([`${RULE_PREFIX}filter-comments`]);

const CONFIG: SecretLintCoreConfig = {
  rules: presetRules
    .filter((rule) => !LEFT_OUT.has(rule.meta.id))
    .map((rule) => ({ id: rule.meta.id, rule, options: {} })),
};

/**
 * A literal every hit of a rule starts with or contains (gitleaks' keyword prefilter): a text with
 * none of them cannot hold a hit, so the library never scans it. A preset upgrade adding a rule
 * fails a test until its keywords are listed here.
 */
export const RULE_KEYWORDS: Readonly<Record<string, string>> = {
  aws: 'AKIA|A3T|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|[Ss]ecret_?[Aa]ccess|SECRET_?ACCESS|(?:[Aa]ccount|ACCOUNT)_?(?:ID|[Ii]d)?["\']?\\s*(?::|=>|=)\\s*["\']?\\d',
  gcp: 'private_key',
  npm: 'npm_',
  slack: 'xox[bpaor]-|xapp-',
  basicauth: '://[^\\s/@:]*:[^\\s@]*@',
  'database-connection-string': '://[^\\s/@:]*:[^\\s@]*@',
  openai: '(?<![A-Za-z0-9])sk-',
  anthropic: 'sk-ant-',
  groq: 'gsk_',
  huggingface: '(?<![A-Za-z0-9])hf_',
  linear: 'lin_api_',
  notion: 'ntn_',
  privatekey: 'PRIVATE KEY',
  sendgrid: 'SG\\.',
  shopify: 'shp(?:pa|ca|at|ss)_',
  stripe: '[sr]k_(?:live|test)_',
  github: 'gh[pousr]_|github_pat_',
  gitlab: 'glpat-',
  grafana: 'glc_|glsa_',
  '1password': '(?<![A-Za-z0-9])ops_',
  'hashicorp-vault': 'hv[sbr]\\.',
  vercel: 'vc[pciark]_',
  databricks: '(?<![A-Za-z0-9])dapi[0-9a-fA-F]',
  docker: 'dckr_pat_',
  figma: 'figd_',
  cloudflare: 'cf(?:k|ut|at)_',
  tailscale: 'tskey-',
};
export const LIBRARY_KEYWORDS = new RegExp([...new Set(Object.values(RULE_KEYWORDS))].join('|'));

/**
 * For each rule, literals (compared without case) of which every match of its keywords contains
 * one: the one-pass prefilter of `candidate-text.ts` is built from them, so a keyword change must
 * keep them true.
 */
export const RULE_ANCHORS: Readonly<Record<string, readonly string[]>> = {
  aws: ['aki', 'a3t', 'agp', 'aid', 'aro', 'aip', 'anp', 'anv', 'asi', 'ecr', 'cco'],
  gcp: ['_ke'],
  npm: ['pm_'],
  slack: ['xox', 'xap'],
  basicauth: ['://'],
  'database-connection-string': ['://'],
  openai: ['sk-'],
  anthropic: ['sk-'],
  groq: ['sk_'],
  huggingface: ['hf_'],
  linear: ['in_'],
  notion: ['tn_'],
  privatekey: ['key'],
  sendgrid: ['sg.'],
  shopify: ['shp'],
  stripe: ['k_l', 'k_t'],
  github: ['ghp', 'gho', 'ghu', 'ghs', 'ghr', 'ub_'],
  gitlab: ['glp'],
  grafana: ['glc', 'gls'],
  '1password': ['ps_'],
  'hashicorp-vault': ['vs.', 'vb.', 'vr.'],
  vercel: ['vcp', 'vcc', 'vci', 'vca', 'vcr', 'vck'],
  databricks: ['dap'],
  docker: ['dck'],
  figma: ['gd_'],
  cloudflare: ['cfk', 'cfu', 'cfa'],
  tailscale: ['key'],
};

/** The short names of the library rules used (`github`, `database-connection-string`, …). */
export const LIBRARY_RULES: readonly string[] = CONFIG.rules.map((rule) => rule.id.replace(RULE_PREFIX, ''));

/** Texts are joined with a blank line, which no library pattern crosses as part of a secret. */
const SEPARATOR = '\n\n';
const CHUNK_CHARS = 4 * 1024 * 1024;
const CREDENTIAL_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/@\s]*:([^@\s]*)@/;
const EDGE = /["'`()[\]{}<>\\,;]/;

/** The secret inside a hit: the reported value where the rule names one, a URL's password only. */
function narrow(text: string, message: SecretLintCoreResultMessage): [number, number] | null {
  let [start, end] = message.range;
  const values = Object.values(message.data ?? {}).filter((v): v is string => typeof v === 'string');
  const value = values.filter((v) => v.length >= 4).sort((a, b) => b.length - a.length)[0];
  if (value !== undefined) {
    const at = text.indexOf(value, start);
    if (at >= 0 && at <= end) [start, end] = [at, Math.min(text.length, at + value.length)];
  }
  const credential = CREDENTIAL_URL.exec(text.slice(start, end));
  if (credential !== null) {
    const password = credential[1]!;
    end = start + credential[0].length - 1;
    start = end - password.length;
  }
  // An already redacted value (a marker where the password was) is not a secret.
  if (text.slice(start, end).includes(MARKER_START)) return null;
  while (end > start && EDGE.test(text[end - 1]!)) end--;
  while (start < end && EDGE.test(text[start]!)) start++;
  if (end <= start) return null;
  return [start, end];
}

async function scanJoined(texts: readonly string[]): Promise<Span[][]> {
  const out: Span[][] = texts.map(() => []);
  const offsets: number[] = [];
  let length = 0;
  for (const text of texts) {
    offsets.push(length);
    length += text.length + SEPARATOR.length;
  }
  const content = texts.join(SEPARATOR);
  const result = await lintSource({
    source: { content, filePath: 'session.txt', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  for (const message of result.messages) {
    const span = narrow(content, message);
    if (span === null) continue;
    // The text holding the span's start; a span running into the next text is cut at its end.
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid]! <= span[0]) lo = mid;
      else hi = mid - 1;
    }
    const base = offsets[lo]!;
    const textEnd = base + texts[lo]!.length;
    if (span[0] >= textEnd) continue;
    out[lo]!.push({
      start: span[0] - base,
      end: Math.min(span[1], textEnd) - base,
      rule: message.ruleId.replace(RULE_PREFIX, ''),
    });
  }
  return out;
}

/** The library's spans for each text, in as few calls as the texts' size allows. */
export async function libraryRuleSpans(texts: readonly string[]): Promise<Span[][]> {
  const out: Span[][] = texts.map(() => []);
  const candidates = texts.map((text, i) => (LIBRARY_KEYWORDS.test(text) ? i : -1)).filter((i) => i >= 0);
  let chunk: number[] = [];
  let chars = 0;
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    const spans = await scanJoined(chunk.map((i) => texts[i]!));
    chunk.forEach((i, j) => {
      out[i] = spans[j]!;
    });
    chunk = [];
    chars = 0;
  };
  for (const i of candidates) {
    chunk.push(i);
    chars += texts[i]!.length + SEPARATOR.length;
    if (chars >= CHUNK_CHARS) await flush();
  }
  await flush();
  return out;
}
