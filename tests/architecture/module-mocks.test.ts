/**
 * The fast lane shares a module cache between the files of a worker, where `vi.mock` cannot replace a
 * module another file already loaded: every fast file that mocks a module must run isolated.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_MOCKING } from '../../vitest.config.js';

const ROOT = join(import.meta.dirname, '..', '..');

function fastTestFiles(): string[] {
  return readdirSync(join(ROOT, 'tests'), { recursive: true, encoding: 'utf8' })
    .map((name) => `tests/${name.split('\\').join('/')}`)
    .filter((name) => name.endsWith('.test.ts'))
    .filter((name) => !name.startsWith('tests/reliability/') && !name.endsWith('.e2e.test.ts'));
}

const mocksModules = (file: string): boolean => /\bvi\.mock\(/.test(readFileSync(join(ROOT, file), 'utf8'));

describe('module mocks in the fast lane', () => {
  it('every fast file that calls vi.mock runs in the isolated project, and only those', () => {
    const mocking = fastTestFiles().filter(mocksModules).sort();
    expect([...MODULE_MOCKING].sort()).toEqual(mocking);
  });
});
