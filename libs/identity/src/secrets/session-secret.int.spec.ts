import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSessionSecret } from './session-secret.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-secret-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the session secret', () => {
  it('is generated once into DATA_DIR/session-secret, readable by the owner only, and reused', () => {
    const first = loadSessionSecret({ configured: undefined, dataDir, production: false });
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = join(dataDir, 'session-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    chmodSync(file, 0o644);
    expect(loadSessionSecret({ configured: undefined, dataDir, production: false })).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is SESSION_SECRET when set, and never generated in production', () => {
    const configured = 'x'.repeat(40);
    expect(loadSessionSecret({ configured, dataDir, production: true })).toBe(configured);
    expect(() => loadSessionSecret({ configured: undefined, dataDir, production: true })).toThrow(/SESSION_SECRET/);
  });
});
