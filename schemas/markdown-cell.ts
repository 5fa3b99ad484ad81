/** A text fit for one cell of a generated Markdown table. */
export function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}
