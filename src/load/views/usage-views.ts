/**
 * Analyst views over `usage` and the imported `model_prices` (docs/usage.md). Measured, estimated
 * and derived facts are never summed together: every aggregate groups by `measurement`. An unknown
 * time is NULL (no 1970 day) and gets no price.
 */
import type { AnalystView } from './analyst-views.js';

export const USAGE_VIEWS: readonly AnalystView[] = [
  {
    name: 'v_usage',
    description:
      'One row per usage fact: UTC day (NULL when unknown), workspace, model, mode, measurement, tokens.',
    select: `SELECT u.session_id, u.message_id, u.usage_ordinal, u.request_id,
  CASE WHEN u.timestamp_source = 'unknown' THEN NULL ELSE u.timestamp END AS timestamp,
  CASE WHEN u.timestamp_source = 'unknown' THEN NULL ELSE CAST(timezone('UTC', u.timestamp) AS DATE) END AS day,
  coalesce(s.workspace_path, '(no workspace)') AS workspace, u.model, u.mode, u.measurement, u.representation,
  u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens, u.reasoning_tokens
FROM usage u JOIN sessions s USING (session_id)`,
  },
  {
    name: 'v_usage_daily',
    description: 'Per UTC day, model, mode, workspace and measurement: usage rows and known token sums.',
    select: `SELECT day, model, mode, workspace, measurement, count(*) AS usage_rows,
  count(DISTINCT session_id) AS sessions, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  sum(cache_read_tokens) AS cache_read_tokens, sum(cache_write_tokens) AS cache_write_tokens,
  sum(reasoning_tokens) AS reasoning_tokens
FROM v_usage GROUP BY ALL`,
  },
  {
    name: 'v_usage_cost',
    description:
      'v_usage with the imported price valid at its time (latest valid_from not after it); cost NULL without a price.',
    // `cost` is NULL without a price row or without any priced count (a `derived` model row); with
    // both, a bucket the row does not price adds nothing.
    select: `SELECT u.*, p.currency, p.valid_from AS price_valid_from,
  u.input_tokens * p.input_per_million / 1e6 AS input_cost,
  u.output_tokens * p.output_per_million / 1e6 AS output_cost,
  u.cache_read_tokens * p.cache_read_per_million / 1e6 AS cache_read_cost,
  u.cache_write_tokens * p.cache_write_per_million / 1e6 AS cache_write_cost,
  CASE WHEN p.model IS NOT NULL
    AND coalesce(u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) IS NOT NULL THEN
    coalesce(u.input_tokens * p.input_per_million, 0) + coalesce(u.output_tokens * p.output_per_million, 0)
    + coalesce(u.cache_read_tokens * p.cache_read_per_million, 0)
    + coalesce(u.cache_write_tokens * p.cache_write_per_million, 0) END / 1e6 AS cost
FROM v_usage u
LEFT JOIN LATERAL (
  SELECT * FROM model_prices mp
  WHERE mp.model = u.model AND u.timestamp IS NOT NULL AND mp.valid_from <= u.timestamp
  ORDER BY mp.valid_from DESC LIMIT 1
) p ON true`,
  },
];
