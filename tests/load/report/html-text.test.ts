import { describe, expect, it } from 'vitest';
import { escapeHtml, formatCompact, formatCount, scriptJson } from '../../../src/load/report/html-text.js';

describe('report text', () => {
  it('escapes markup and quotes for content and attributes', () => {
    expect(escapeHtml(`<script>alert("x") & 'y'</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;',
    );
  });

  it('JSON for a script block cannot close it, and parses back to the same value', () => {
    const value = { text: '</script><script>x()</script><!-- & \u2028\u2029 end' };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json.toLowerCase()).not.toContain('</script');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('formats counts without the machine locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1000)).toBe('-1,000');
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect([950, 1000, 1250, 3_400_000, 5.6e9, 2.5].map(formatCompact)).toEqual([
      '950',
      '1k',
      '1.3k',
      '3.4M',
      '5.6G',
      '2.5',
    ]);
  });
});
