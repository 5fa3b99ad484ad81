/**
 * The text a user typed, out of an agentKv user message: the `<user_query>` body when present, else
 * the text without the injected context blocks Cursor wraps around it (cursor-formats §1.3).
 */
const QUERY = /<user_query>\n?([\s\S]*?)\n?<\/user_query>/g;
const INJECTED = [
  'timestamp',
  'user_info',
  'open_and_recently_viewed_files',
  'system_reminder',
  'rules',
  'git_status',
  'agent_transcripts',
];
const BLOCK = new RegExp(`<(${INJECTED.join('|')})>[\\s\\S]*?</\\1>`, 'g');

export function visibleUserText(text: string): string {
  const queries = [...text.matchAll(QUERY)].map((m) => m[1]!);
  if (queries.length > 0) return queries.join('\n\n').trim();
  return text.replace(BLOCK, '').trim();
}
