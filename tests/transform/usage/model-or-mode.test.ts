import { describe, expect, it } from 'vitest';
import { modelOrMode } from '../../../src/transform/usage/model-or-mode.js';

describe('modelOrMode', () => {
  it('keeps a model name as stored', () => {
    expect(modelOrMode('claude-4.6-sonnet')).toEqual({ model: 'claude-4.6-sonnet', mode: null });
  });

  it('turns the Auto sentinels into mode auto, never a model', () => {
    for (const sentinel of ['auto', 'default', 'Default', 'cursor-auto'])
      expect(modelOrMode(sentinel)).toEqual({ model: null, mode: 'auto' });
  });

  it('no model for non-strings and blank names', () => {
    for (const value of [null, undefined, 7, '', '  '])
      expect(modelOrMode(value)).toEqual({ model: null, mode: null });
  });
});
