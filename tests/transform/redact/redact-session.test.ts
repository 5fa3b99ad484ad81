import { describe, expect, it } from 'vitest';
import {
  CANARY_SECRETS,
  redactionCliCapture,
  redactionEditCapture,
} from '../../../fixtures/capture/redaction-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { IdentitySeal } from '../../../src/transform/redact/identity-seal.js';
import { RunRedaction, redactCounted } from '../../../src/transform/redact/redact-session.js';
import { computeViewDigest } from '../../../src/transform/view-digest.js';
import { onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

const SEAL = new IdentitySeal('5e'.repeat(32));

describe('redactSession (over finalized rows)', () => {
  it('content-hashed IDs are sealed consistently, native IDs and order kept, the digest is recomputed from the rows', async () => {
    const before = onlySession(
      await readCaptures([writeCapture(tempDir(), 'r.ndjson', redactionCliCapture())]),
    );
    const run = new RunRedaction();
    const { session: after, counts } = await redactCounted(before, { homePaths: false, seal: SEAL });
    run.record(counts);
    expect(after.session.session_id).toBe(before.session.session_id);
    expect(after.messages.map((m) => m.ordinal)).toEqual(before.messages.map((m) => m.ordinal));
    expect(after.messages.map((m) => m.message_id)).toEqual(
      before.messages.map((m) => SEAL.sealId(m.message_id)),
    );
    for (const m of after.messages) {
      expect(m.message_id).toMatch(/^capture:v1k:[0-9a-f]{64}:\d+$/);
      expect(m.archive_key).toBe(`cursor:${after.session.session_id}:${m.message_id}`);
    }
    const plainHashes = before.messages.map((m) => m.message_id.split(':')[2]!);
    const dump = JSON.stringify(after);
    for (const hash of plainHashes) expect(dump).not.toContain(hash);
    expect(after.messages[0]!.content).not.toBe(before.messages[0]!.content);
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
    expect(report.details).toMatchObject({ sessionsAffected: 1, ruleset: 1 });
    expect(report.details.byRule).toMatchObject({ 'private-key': 1, 'auth-header': 1, email: 1 });
    expect(JSON.stringify(report)).not.toMatch(/Canary|canary/);
  });

  it('without a seal (a scan of archived rows) no ID changes', async () => {
    const before = onlySession(
      await readCaptures([writeCapture(tempDir(), 'r.ndjson', redactionCliCapture())]),
    );
    const { session: after } = await redactCounted(before, { homePaths: false, seal: null });
    expect(after.messages.map((m) => m.message_id)).toEqual(before.messages.map((m) => m.message_id));
  });

  it('file_edits texts are redacted and their message IDs sealed like the messages', async () => {
    const before = onlySession(
      await readCaptures([writeCapture(tempDir(), 'e.ndjson', redactionEditCapture())]),
    );
    const plain = JSON.stringify(before.fileEdits);
    expect(CANARY_SECRETS.filter((s) => plain.includes(s)).length).toBe(2);
    const { session: after } = await redactCounted(before, { homePaths: false, seal: SEAL });
    const redacted = JSON.stringify(after.fileEdits);
    expect(CANARY_SECRETS.filter((s) => redacted.includes(s))).toEqual([]);
    expect(after.fileEdits.map((e) => e.message_id)).toEqual(
      before.fileEdits.map((e) => SEAL.sealId(e.message_id)),
    );
    const ids = new Set(after.messages.map((m) => m.message_id));
    expect(after.fileEdits.every((e) => ids.has(e.message_id))).toBe(true);
  });
});
