/** Whether a stored session's rows still agree with its session row: digest, then the counts. */
import { computeViewDigest } from '../../transform/view-digest.js';
import type { StoredSession } from '../target.js';

export type StoredSessionProblem = 'digest' | 'message-count' | 'tool-call-count';

export function storedSessionProblems(stored: StoredSession): StoredSessionProblem[] {
  const { session, messages, toolCalls } = stored;
  const problems: StoredSessionProblem[] = [];
  if (computeViewDigest(stored) !== session.view_digest) problems.push('digest');
  if (session.message_count !== messages.length) problems.push('message-count');
  if (session.tool_call_count !== toolCalls.length) problems.push('tool-call-count');
  return problems;
}
