/**
 * Legacy `.txt` agent transcripts: blocks start with a line `user:` or `assistant:`; assistant
 * blocks may hold `[Thinking]`, `[Tool call] <Name>` and `[Tool result]` sections. They become
 * records shaped like JSONL ones, under the JSONL source limits.
 */
import { readFile, stat } from 'node:fs/promises';
import { checkLimit } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import type { TranscriptRecord } from './store-contribution.js';

interface Block {
  line: number;
  role: 'user' | 'assistant';
  text: string[];
  tools: { name: string; input: Record<string, unknown> }[];
  section: 'text' | 'thinking' | 'tool-call' | 'tool-result';
  toolBody: string[];
}

function toolInput(body: string[]): Record<string, unknown> {
  const text = body.map((l) => l.trim()).join('\n');
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // key=value lines below
  }
  const input: Record<string, unknown> = {};
  for (const line of body) {
    const at = line.indexOf('=');
    if (at > 0) input[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return input;
}

function closeTool(block: Block): void {
  if (block.section === 'tool-call') {
    const last = block.tools[block.tools.length - 1];
    if (last) last.input = toolInput(block.toolBody);
  }
  block.toolBody = [];
}

function toRecord(block: Block): TranscriptRecord {
  closeTool(block);
  const content: Record<string, unknown>[] = [];
  const text = block.text.join('\n').trim();
  if (text !== '') content.push({ type: 'text', text });
  for (const tool of block.tools) content.push({ type: 'tool_use', name: tool.name, input: tool.input });
  return { line: block.line, record: { role: block.role, message: { content } } };
}

export async function parseLegacyTranscript(
  path: string,
  limits: ReadLimits,
): Promise<{ records: TranscriptRecord[] }> {
  checkLimit('jsonlSourceBytes', limits.jsonlSourceBytes, (await stat(path)).size);
  const lines = decodeStrictUtf8(await readFile(path), 'jsonl').split(/\r?\n/);
  const records: TranscriptRecord[] = [];
  let block: Block | null = null;
  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    if (line === 'user:' || line === 'assistant:') {
      if (block) records.push(toRecord(block));
      block = {
        line: index + 1,
        role: line === 'user:' ? 'user' : 'assistant',
        text: [],
        tools: [],
        section: 'text',
        toolBody: [],
      };
      return;
    }
    if (!block) return;
    const current: Block = block;
    const marker = line.trim();
    if (marker === '[Thinking]' || marker === '[Tool result]' || marker.startsWith('[Tool call] ')) {
      closeTool(current);
      current.section =
        marker === '[Thinking]' ? 'thinking' : marker === '[Tool result]' ? 'tool-result' : 'tool-call';
      if (current.section === 'tool-call')
        current.tools.push({ name: marker.slice('[Tool call] '.length).trim(), input: {} });
      return;
    }
    if (current.section === 'text') current.text.push(raw);
    else if (current.section === 'tool-call') current.toolBody.push(raw);
  });
  if (block) records.push(toRecord(block));
  return { records };
}
