import { describe, expect, it } from 'vitest';
import { bucketActivity, bucketSize, type DayActivity } from '../../../src/load/report/activity-buckets.js';

const day = (d: string, messages = 1): DayActivity => ({ day: d, sessions: 1, messages, toolCalls: 0 });

describe('activity buckets', () => {
  it('keeps days for three months, weeks up to two years, months beyond', () => {
    expect(bucketSize([])).toBe('day');
    expect(bucketSize([day('2025-01-01'), day('2025-04-02')])).toBe('day');
    expect(bucketSize([day('2025-01-01'), day('2025-06-01')])).toBe('week');
    expect(bucketSize([day('2022-01-01'), day('2025-06-01')])).toBe('month');
  });

  it('fills the days between active ones with zero columns', () => {
    const buckets = bucketActivity([day('2025-02-27', 2), day('2025-03-02', 5)], 'day');
    expect(buckets.map((b) => [b.label, b.messages])).toEqual([
      ['2025-02-27', 2],
      ['2025-02-28', 0],
      ['2025-03-01', 0],
      ['2025-03-02', 5],
    ]);
  });

  it('groups by the Monday of the ISO week and by month, across a year end', () => {
    const weeks = bucketActivity(
      [day('2025-12-28'), day('2025-12-29'), day('2026-01-04'), day('2026-01-05')],
      'week',
    );
    expect(weeks.map((b) => [b.label, b.messages])).toEqual([
      ['2025-12-22', 1],
      ['2025-12-29', 2],
      ['2026-01-05', 1],
    ]);
    const months = bucketActivity([day('2025-11-30', 3), day('2026-02-01', 4)], 'month');
    expect(months.map((b) => [b.label, b.messages])).toEqual([
      ['2025-11', 3],
      ['2025-12', 0],
      ['2026-01', 0],
      ['2026-02', 4],
    ]);
  });
});
