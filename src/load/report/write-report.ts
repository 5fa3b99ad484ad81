/**
 * Writes the report file in one pass: the overview and sessions list, then one JSON block per listed
 * session, read a bounded batch at a time, then the script. Returns what it wrote.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { outputModes } from '../../shared/output-permissions.js';
import { scriptJson } from './html-text.js';
import { readFigures } from './report-data.js';
import { overview, pageEnd, pageHead, sessionsView } from './report-page.js';
import { listSessions, readSessions, sessionBatches } from './report-sessions.js';

export interface ReportOptions {
  out: string;
  maxSessions: number;
  redacted: boolean;
}

export interface ReportSummary {
  sessions: number;
  listedSessions: number;
  messages: number;
  bytes: number;
}

async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
}

async function close(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(resolve);
  });
}

export async function writeReport(
  connection: DuckDBConnection,
  options: ReportOptions,
): Promise<ReportSummary> {
  const figures = await readFigures(connection);
  const list = await listSessions(connection, options.maxSessions, figures.tables.usage);
  const stream = createWriteStream(options.out, { flags: 'wx', mode: outputModes().file });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  const body = async (): Promise<number> => {
    await write(stream, pageHead());
    await write(
      stream,
      overview(figures, {
        redacted: options.redacted,
        listedSessions: list.rows.length,
        totalSessions: list.total,
        maxSessions: options.maxSessions,
      }),
    );
    await write(stream, sessionsView(list.rows));
    let messages = 0;
    let index = 0;
    for (const batch of sessionBatches(list.rows)) {
      const details = await readSessions(
        connection,
        batch.map((row) => String(row.session_id)),
      );
      for (const session of batch) {
        const detail = details.get(String(session.session_id)) ?? { messages: [] };
        messages += detail.messages.length;
        await write(
          stream,
          `\n<script type="application/json" id="session-data-${index}">${scriptJson({ session, messages: detail.messages })}</script>`,
        );
        index += 1;
      }
    }
    await write(stream, pageEnd());
    await close(stream);
    return messages;
  };
  let messages: number;
  try {
    messages = await Promise.race([body(), failed]);
  } catch (error) {
    stream.destroy();
    throw error;
  }
  return {
    sessions: list.total,
    listedSessions: list.rows.length,
    messages,
    bytes: stream.bytesWritten,
  };
}
