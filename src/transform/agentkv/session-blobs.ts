/**
 * Decodes a session's agentKv blobs, keeping the links the decoded sources confirm: the state the
 * read followed is the doc's `conversationState`; a request blob's ID is a bubble's `requestId`.
 * A blob whose hash differs from its key is counted and named, never used.
 */
import { type BlobKind, decodeBlob } from '../../extract/agentkv/agentkv-blob.js';
import type { AgentKvSessionBytes } from '../../extract/agentkv/agentkv-contribution.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { type AiSdkMessage, parseAiSdkMessage } from './ai-sdk-message.js';

export interface LinkedMessage {
  blobId: string;
  message: AiSdkMessage;
}

export interface AgentKvSummary {
  blobs: number;
  kinds: Partial<Record<BlobKind, number>>;
  conversationStateLinks: number;
  requestIdLinks: number;
  turns: number;
  hashMismatchBlobIds: string[];
  possiblyEncrypted: number;
  /** Turn user/step blobs whose (protobuf) content is not decoded. */
  turnContentUnread: number;
  systemPrompt: boolean;
}

export interface SessionBlobs {
  /** State-linked prompt messages, in the root's order. */
  prompt: LinkedMessage[];
  /** User messages reached through a bubble's request ID. */
  requests: LinkedMessage[];
  summary: AgentKvSummary;
  diagnostics: Diagnostic[];
}

function linkProblem(
  reason: 'state-unreadable' | 'blob-missing' | 'blob-changed',
  count: number,
  scope: { sessionId: string; sourceRef: string },
): Diagnostic {
  return diagnostic(
    'AGENTKV_LINK_UNREADABLE',
    'Some agentKv blobs of the session could not be followed; its bubbles are loaded',
    { reason, count },
    scope,
  );
}

export function decodeSessionBlobs(
  read: AgentKvSessionBytes,
  composerData: Record<string, unknown> | null,
  bubbleRequestIds: ReadonlySet<string>,
  scope: { sessionId: string; sourceRef: string },
): SessionBlobs {
  const stateConfirmed = read.state !== null && composerData?.conversationState === read.state;
  const summary: AgentKvSummary = {
    blobs: 0,
    kinds: {},
    conversationStateLinks: 0,
    requestIdLinks: 0,
    turns: stateConfirmed ? read.turns : 0,
    hashMismatchBlobIds: [],
    possiblyEncrypted: 0,
    turnContentUnread: 0,
    systemPrompt: false,
  };
  const out: SessionBlobs = { prompt: [], requests: [], summary, diagnostics: [] };
  let changed = 0;
  const prompt: { index: number; linked: LinkedMessage }[] = [];
  const seen = new Set<string>();
  for (const blob of read.blobs) {
    if (blob.link === 'conversation-state' && !stateConfirmed) continue;
    if (blob.bytes === 'changed' || blob.bytes === null) {
      changed++;
      continue;
    }
    const decoded = decodeBlob(blob.blobId, blob.bytes);
    const message = decoded.kind === 'json' ? parseAiSdkMessage(decoded.json) : null;
    if (
      blob.link === 'request-id' &&
      (message?.requestId == null || !bubbleRequestIds.has(message.requestId))
    )
      continue;
    if (!seen.has(blob.blobId)) {
      seen.add(blob.blobId);
      summary.blobs++;
      summary.kinds[decoded.kind] = (summary.kinds[decoded.kind] ?? 0) + 1;
      if (decoded.kind === 'opaque') summary.possiblyEncrypted++;
      if (blob.turnPart && decoded.kind !== 'empty' && decoded.kind !== 'opaque') summary.turnContentUnread++;
      if (!decoded.hashMatches) summary.hashMismatchBlobIds.push(blob.blobId);
    }
    if (blob.link === 'conversation-state') summary.conversationStateLinks++;
    else summary.requestIdLinks++;
    if (!decoded.hashMatches || message === null) continue;
    if (message.role === 'system') summary.systemPrompt = true;
    if (blob.link === 'request-id') out.requests.push({ blobId: blob.blobId, message });
    else if (blob.promptIndex !== null)
      prompt.push({ index: blob.promptIndex, linked: { blobId: blob.blobId, message } });
  }
  out.prompt = prompt.sort((a, b) => a.index - b.index).map((p) => p.linked);
  if (read.stateUnreadable || (read.state !== null && !stateConfirmed))
    out.diagnostics.push(linkProblem('state-unreadable', 1, scope));
  if (read.missing > 0) out.diagnostics.push(linkProblem('blob-missing', read.missing, scope));
  if (changed > 0) out.diagnostics.push(linkProblem('blob-changed', changed, scope));
  if (read.readFailure !== null) out.diagnostics.push(read.readFailure);
  if (summary.hashMismatchBlobIds.length > 0)
    out.diagnostics.push(
      diagnostic(
        'AGENTKV_BLOB_HASH_MISMATCH',
        'Some agentKv blobs do not match their content hash; they are kept as evidence, not used',
        { count: summary.hashMismatchBlobIds.length },
        scope,
      ),
    );
  if (summary.possiblyEncrypted > 0)
    out.diagnostics.push(
      diagnostic(
        'AGENTKV_BLOBS_POSSIBLY_ENCRYPTED',
        'Some agentKv blobs are opaque (possibly encrypted); they are counted, not decrypted',
        { count: summary.possiblyEncrypted },
        scope,
      ),
    );
  if (summary.turnContentUnread > 0)
    out.diagnostics.push(
      diagnostic(
        'AGENTKV_PROTOBUF_UNREAD',
        'Some agentKv turn user/step blobs have a layout known from one source only; counted, not decoded',
        { part: 'turn-content', count: summary.turnContentUnread },
        { ...scope, severity: 'info' },
      ),
    );
  return out;
}
