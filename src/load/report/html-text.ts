/** Text placed into the report's HTML: escaped for element content and attributes, or for a JSON data block. */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` become `\u00xx` escapes, so
 * no stored text can close the block (`</script>`) or open a comment; U+2028/2029 are escaped too.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** A count with thousands separators, independent of the machine's locale. */
export function formatCount(value: number): string {
  const sign = value < 0 ? '-' : '';
  const [whole, fraction] = Math.abs(value).toString().split('.');
  const grouped = (whole as string).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/** An amount of money to four decimals (prices are per million tokens), grouped like a count. */
export function formatCost(value: number): string {
  const [whole, fraction] = value.toFixed(4).split('.');
  return `${formatCount(Number(whole))}.${fraction}`;
}

/** A short axis figure: 950, 1.2k, 3.4M, 5.6G. */
export function formatCompact(value: number): string {
  const units: [number, string][] = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, unit] of units) {
    if (Math.abs(value) >= size) {
      const scaled = value / size;
      return `${Number.isInteger(scaled) ? scaled : scaled.toFixed(1).replace(/\.0$/, '')}${unit}`;
    }
  }
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
