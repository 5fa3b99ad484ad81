/**
 * A TIMESTAMPTZ value as DuckDB writes it (`2026-01-31 23:30:00+00`, `2026-02-01 05:00:00+05:30`) in
 * a named zone: `@duckdb/node-api` would use the machine's offset of the day the process started.
 */
const MAX_DATE_MS = 8.64e15;
const OFFSET_FORMATS = new Map<string, Intl.DateTimeFormat>();

function offsetMinutes(ms: number, zone: string): number {
  let format = OFFSET_FORMATS.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    OFFSET_FORMATS.set(zone, format);
  }
  const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (match === null) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const rest = abs % 60 === 0 ? '' : `:${String(abs % 60).padStart(2, '0')}`;
  return `${minutes < 0 ? '-' : '+'}${hours}${rest}`;
}

/** `null` when the instant lies outside what a JavaScript date holds (DuckDB's infinities, say). */
export function instantText(micros: bigint, zone: string): string | null {
  const fraction = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const ms = Number((micros - fraction) / 1000n);
  if (Math.abs(ms) > MAX_DATE_MS) return null;
  const offset = offsetMinutes(ms, zone);
  const wall = new Date(ms + offset * 60_000);
  if (Number.isNaN(wall.getTime()) || wall.getUTCFullYear() < 1 || wall.getUTCFullYear() > 9999) return null;
  const [date, time] = wall.toISOString().split('T') as [string, string];
  const digits = String(fraction).padStart(6, '0').replace(/0+$/, '');
  return `${date} ${time.slice(0, 8)}${digits === '' ? '' : `.${digits}`}${offsetText(offset)}`;
}
