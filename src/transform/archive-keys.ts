/** The downstream key grammar: `cursor:<session>`, `cursor:<session>:<messageId>`, `<messageKey>:tc:<i>`. */
export function sessionArchiveKey(sessionId: string): string {
  return `cursor:${sessionId}`;
}
export function messageArchiveKey(sessionId: string, messageId: string): string {
  return `cursor:${sessionId}:${messageId}`;
}
export function toolArchiveKey(messageKey: string, toolOrdinal: number): string {
  return `${messageKey}:tc:${toolOrdinal}`;
}
