/**
 * Deterministic text decoding: strict UTF-8, at most one leading BOM, never a replacement
 * character. Anything else is SOURCE_ENCODING_INVALID (the caller decides partial vs fatal).
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { IoError } from '../../shared/errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = '\uFEFF';

/**
 * `utf16`: the bytes are UTF-16 (a BOM, or NULs between ASCII bytes), e.g. a Windows PowerShell redirect.
 * `unpaired-surrogate`: JSON text escapes a surrogate without its pair (strict-json.ts).
 */
export type EncodingProblem = 'invalid-utf8' | 'misplaced-bom' | 'utf16' | 'unpaired-surrogate';

export class SourceEncodingInvalid extends IoError<'SOURCE_ENCODING_INVALID'> {
  constructor(
    readonly problem: EncodingProblem,
    readonly sourceKind: string,
  ) {
    super('SOURCE_ENCODING_INVALID', `Source text is not valid UTF-8 (${problem})`, {
      problem,
      sourceKind,
      remedy:
        problem === 'utf16'
          ? 'Save the source as UTF-8 (Windows PowerShell 5 redirects write UTF-16); it is not transcoded.'
          : 'The source is not deterministic UTF-8; it is not guessed or transcoded.',
    });
  }

  asDiagnostic(scope: { sessionId?: string; sourceRef?: string } = {}): Diagnostic {
    return diagnostic(
      'SOURCE_ENCODING_INVALID',
      `Source text is not valid UTF-8 (${this.problem}); the result is partial`,
      { ...this.details, outcome: 'partial' },
      scope,
    );
  }
}

/**
 * Decodes bytes (or checks a string already decoded by a driver) strictly. `allowLeadingBom` is
 * true only at byte 0 of a file, the first JSONL record, or a SQLite value.
 */
export function decodeStrictUtf8(
  input: Uint8Array | string,
  sourceKind: string,
  allowLeadingBom = true,
): string {
  let text: string;
  if (typeof input === 'string') {
    if (!input.isWellFormed()) throw new SourceEncodingInvalid('invalid-utf8', sourceKind);
    text = input;
  } else {
    try {
      text = decoder.decode(input);
    } catch {
      throw new SourceEncodingInvalid('invalid-utf8', sourceKind);
    }
  }
  let start = 0;
  if (allowLeadingBom && text.startsWith(BOM)) start = 1;
  if (text.indexOf(BOM, start) !== -1) throw new SourceEncodingInvalid('misplaced-bom', sourceKind);
  return start === 0 ? text : text.slice(start);
}
