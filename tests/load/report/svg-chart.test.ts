import { describe, expect, it } from 'vitest';
import { barChart, columnChart, niceMax } from '../../../src/load/report/svg-chart.js';

const values = (svg: string): number[] => [...svg.matchAll(/data-value="([^"]*)"/g)].map((m) => Number(m[1]));
const heights = (svg: string): number[] =>
  [...svg.matchAll(/<rect class="bar"[^>]* height="([^"]*)"/g)].map((m) => Number(m[1]));
const widths = (svg: string): number[] =>
  [...svg.matchAll(/<rect class="bar"[^>]* width="([^"]*)"/g)].map((m) => Number(m[1]));

describe('svg charts', () => {
  it('niceMax rounds up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 10, 11, 180, 2500].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 200, 5000]);
  });

  it('columnChart draws one column per point, heights proportional to the values', () => {
    const svg = columnChart(
      [
        { label: '2025-10-01', value: 5 },
        { label: '2025-10-02', value: 0 },
        { label: '2025-10-03', value: 10 },
      ],
      { title: 'Messages per day', unit: 'messages' },
    );
    expect(svg).toMatch(/^<svg class="chart column-chart"/);
    expect(values(svg)).toEqual([5, 0, 10]);
    const [a, b, c] = heights(svg);
    expect(b).toBe(0);
    expect(c).toBeCloseTo(2 * a!, 0);
    expect(svg).toContain('<title>2025-10-03: 10 messages</title>');
  });

  it('labels at most about eight buckets on the axis', () => {
    const points = Array.from({ length: 60 }, (_, i) => ({ label: `d${i}`, value: i + 1 }));
    const svg = columnChart(points, { title: 't', unit: 'u' });
    const labels = [...svg.matchAll(/<text class="axis"[^>]*text-anchor="middle">/g)];
    expect(labels.length).toBeLessThanOrEqual(8);
    expect(values(svg)).toHaveLength(60);
  });

  it('barChart ranks with widths proportional to the values and escapes every label', () => {
    const svg = barChart(
      [
        { label: '<img src=x onerror=alert(1)>', value: 8, note: '2 failed' },
        { label: 'b & c', value: 2 },
      ],
      { title: 'Tool "calls"', unit: 'calls' },
    );
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(svg).toContain('b &amp; c');
    expect(svg).toContain('aria-label="Tool &quot;calls&quot;"');
    expect(svg).toContain(', 2 failed</title>');
    const [first, second] = widths(svg);
    expect(first).toBeCloseTo(4 * second!, 0);
  });

  it('says so when there is nothing to draw; negative or non-finite values draw as zero', () => {
    expect(columnChart([], { title: 'Messages', unit: 'm' })).toContain('no data');
    expect(barChart([{ label: 'x', value: 0 }], { title: 'Tokens', unit: 't' })).toContain('no data');
    const svg = barChart(
      [
        { label: 'a', value: Number.NaN },
        { label: 'b', value: -3 },
        { label: 'c', value: 4 },
      ],
      { title: 't', unit: 'u' },
    );
    expect(values(svg)).toEqual([0, 0, 4]);
  });
});
