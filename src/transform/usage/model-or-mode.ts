/**
 * A stored model name split into model and mode: Cursor's `auto`/`default` sentinels name how the
 * model was chosen, never a model, so they become mode `auto` with no model.
 */
const AUTO_SENTINELS = new Set(['auto', 'default', 'cursor-auto']);

export interface ModelAndMode {
  model: string | null;
  mode: string | null;
}

export function modelOrMode(stored: unknown): ModelAndMode {
  if (typeof stored !== 'string' || stored.trim() === '') return { model: null, mode: null };
  if (AUTO_SENTINELS.has(stored.trim().toLowerCase())) return { model: null, mode: 'auto' };
  return { model: stored, mode: null };
}
