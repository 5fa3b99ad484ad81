import { describe, expect, it } from 'vitest';
import { redactionCliCapture } from '../../../fixtures/capture/redaction-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { RunRedaction, redactCounted } from '../../../src/transform/redact/redact-session.js';
import { computeViewDigest } from '../../../src/transform/view-digest.js';
import { onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('redactSession (pure transform over finalized rows)', () => {
  it('applied after identities: IDs, keys and order are unchanged, the digest is recomputed from the rows', async () => {
    const before = onlySession(
      await readCaptures([writeCapture(tempDir(), 'r.ndjson', redactionCliCapture())]),
    );
    const run = new RunRedaction();
    const { session: after, counts } = redactCounted(before);
    run.record(counts);
    const keys = (s: typeof before) => [
      s.session.session_id,
      ...s.messages.map((m) => `${m.message_id}|${m.archive_key}|${m.ordinal}`),
      ...s.toolCalls.map((t) => `${t.tool_id}|${t.archive_key}`),
    ];
    expect(keys(after)).toEqual(keys(before));
    expect(after.messages[0]!.content).not.toBe(before.messages[0]!.content);
    expect(after.session.view_digest).not.toBe(before.session.view_digest);
    const { view_digest, ...session } = after.session;
    expect(view_digest).toBe(
      computeViewDigest({
        session,
        messages: after.messages,
        toolCalls: after.toolCalls,
        sourceInstances: after.sourceInstances,
      }),
    );
    const report = run.diagnostic();
    expect(report.details).toEqual({
      redactions: 5,
      sessionsAffected: 1,
      byKind: { 'private-key': 1, bearer: 1, 'secret-assignment': 2, email: 1 },
    });
    expect(JSON.stringify(report)).not.toMatch(/Canary|canary/);
  });
});
