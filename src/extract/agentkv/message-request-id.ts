/** The request ID a JSON message blob opens (`providerOptions.cursor.requestId` of a user message). */
function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

export function userRequestId(message: unknown): string | null {
  if (field(message, 'role') !== 'user') return null;
  const id = field(field(field(message, 'providerOptions'), 'cursor'), 'requestId');
  return typeof id === 'string' && id.length > 0 ? id : null;
}
