/** Daily activity grouped into days, ISO weeks or months, so a long history still draws as readable columns. */

export interface DayActivity {
  day: string;
  sessions: number;
  messages: number;
  toolCalls: number;
}

export interface ActivityBucket {
  label: string;
  /** Sessions summed over the bucket's days (a session active on two days counts twice). */
  sessionDays: number;
  messages: number;
  toolCalls: number;
}

export type BucketSize = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;
const dayMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** Days for up to about three months of history, weeks up to two years, months beyond. */
export function bucketSize(days: readonly DayActivity[]): BucketSize {
  if (days.length === 0) return 'day';
  const span = (dayMs(days[days.length - 1]!.day) - dayMs(days[0]!.day)) / DAY_MS;
  if (span <= 92) return 'day';
  return span <= 731 ? 'week' : 'month';
}

/** The bucket a UTC day falls in: the day, the Monday starting its week, or `YYYY-MM`. */
function bucketOf(day: string, size: BucketSize): string {
  if (size === 'day') return day;
  if (size === 'month') return day.slice(0, 7);
  const ms = dayMs(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return new Date(ms - weekday * DAY_MS).toISOString().slice(0, 10);
}

/** Ordered buckets from ordered days; empty buckets between active ones are kept, as zero columns. */
export function bucketActivity(days: readonly DayActivity[], size: BucketSize): ActivityBucket[] {
  const buckets = new Map<string, ActivityBucket>();
  for (const d of days) {
    const label = bucketOf(d.day, size);
    const b = buckets.get(label) ?? { label, sessionDays: 0, messages: 0, toolCalls: 0 };
    b.sessionDays += d.sessions;
    b.messages += d.messages;
    b.toolCalls += d.toolCalls;
    buckets.set(label, b);
  }
  const labels = [...buckets.keys()];
  if (labels.length === 0) return [];
  const out: ActivityBucket[] = [];
  let cursor = labels[0]!;
  const last = labels[labels.length - 1]!;
  for (let guard = 0; guard < 100_000; guard += 1) {
    out.push(buckets.get(cursor) ?? { label: cursor, sessionDays: 0, messages: 0, toolCalls: 0 });
    if (cursor === last) break;
    cursor = nextBucket(cursor, size);
  }
  return out;
}

function nextBucket(label: string, size: BucketSize): string {
  if (size === 'month') {
    const [y, m] = label.split('-').map(Number) as [number, number];
    return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  }
  const step = size === 'day' ? 1 : 7;
  return new Date(dayMs(label) + step * DAY_MS).toISOString().slice(0, 10);
}
