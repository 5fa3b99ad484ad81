import { describe, expect, it } from 'vitest';
import { lookAlikeSamples, secretSamples } from '../../../fixtures/redaction/secret-corpus.js';
import { candidateText } from '../../../src/transform/redact/candidate-text.js';
import { LIBRARY_KEYWORDS, RULE_KEYWORDS } from '../../../src/transform/redact/library-rules.js';

/** One text per alternative of each rule's keywords, in the case the keyword asks for. */
const KEYWORD_TEXTS: Record<string, string[]> = {
  aws: [
    ...['AKIA', 'A3T', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA'],
    ...['secretAccess', 'Secret_Access', 'SECRET_ACCESS', 'account_id: 1', "ACCOUNTId => '2", 'Account=3'],
  ],
  gcp: ['private_key'],
  npm: ['npm_'],
  slack: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxr-', 'xapp-'],
  basicauth: ['https://u:p@h'],
  'database-connection-string': ['postgres://:@db'],
  openai: ['sk-'],
  anthropic: ['sk-ant-'],
  groq: ['gsk_'],
  huggingface: ['hf_'],
  linear: ['lin_api_'],
  notion: ['ntn_'],
  privatekey: ['PRIVATE KEY'],
  sendgrid: ['SG.'],
  shopify: ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  stripe: ['sk_live_', 'rk_test_'],
  github: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  gitlab: ['glpat-'],
  grafana: ['glc_', 'glsa_'],
  '1password': ['ops_'],
  'hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  vercel: ['vcp_', 'vcc_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  databricks: ['dapi0', 'dapiF'],
  docker: ['dckr_pat_'],
  figma: ['figd_'],
  cloudflare: ['cfk_', 'cfut_', 'cfat_'],
  tailscale: ['tskey-'],
};

const OWN_TEXTS = [
  ...['PASS', 'Pwd', 'pswd', 'Secret', 'TOKEN', 'kEy', 'pin', 'Cred', 'AUTH', 'Bearer'],
  ...['a@b', '@', 'eyJ', '{"\\u0070":1}'],
];

/** Each text alone, amid prose and amid characters outside ASCII. */
const contexts = (text: string): string[] => [text, `so ${text} then`, `é€${text}😀ü`];

describe('the candidate-text prefilter', () => {
  it('admits every text a library keyword matches, for every rule of the preset', () => {
    expect(Object.keys(KEYWORD_TEXTS).sort()).toEqual(Object.keys(RULE_KEYWORDS).sort());
    for (const [rule, texts] of Object.entries(KEYWORD_TEXTS))
      for (const text of texts.flatMap(contexts)) {
        expect(new RegExp(RULE_KEYWORDS[rule]!).test(text), `${rule}: ${text}`).toBe(true);
        expect(candidateText(text), `${rule}: ${text}`).toBe(true);
      }
  });

  it('admits secret words in any case, `@`, `eyJ` and JSON escapes', () => {
    for (const text of OWN_TEXTS.flatMap(contexts)) expect(candidateText(text), text).toBe(true);
  });

  it('admits every labelled secret and every look-alike holding a keyword', () => {
    for (const sample of secretSamples(5, 30)) expect(candidateText(sample.text), sample.family).toBe(true);
    for (const sample of lookAlikeSamples(5, 30))
      if (LIBRARY_KEYWORDS.test(sample.text)) expect(candidateText(sample.text), sample.text).toBe(true);
  });

  it('passes over ordinary text, code and non-ASCII prose', () => {
    for (const text of [
      '',
      'a',
      'Refactor the parser to stream lines.',
      'const x = foo(bar, 42);',
      'ÄÖÜ 東京 🚀',
    ])
      expect(candidateText(text), text).toBe(false);
  });
});
