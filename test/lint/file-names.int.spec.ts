// One name per thing: a file name is used in one layer only (libs/<lib>, apps/<app>, web), so a name found in a
// stack trace, a review or a search means one file. An app's entry (main.ts) and a lib's public module (index.ts)
// are the exceptions every layer shares by convention.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const CONVENTIONAL = new Set(['main.ts', 'index.ts']);

/** `libs/domain`, `apps/api`, `web`: where a file lives, as the architecture rules group it. */
export function layerOf(path: string): string | undefined {
  const [top, second] = path.split('/');
  if (top === 'libs' || top === 'apps') return `${top}/${second}`;
  return top === 'web' ? 'web' : undefined;
}

/** Each name used in more than one layer, with its files. */
export function namesAcrossLayers(paths: readonly string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const path of paths) {
    const name = basename(path);
    if (layerOf(path) === undefined || CONVENTIONAL.has(name)) continue;
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  const clashes: Record<string, string[]> = {};
  for (const [name, files] of byName) {
    if (new Set(files.map(layerOf)).size > 1) clashes[name] = files;
  }
  return clashes;
}

describe('file names', () => {
  it('finds a name used in two layers, and not one used twice in one layer or by convention', () => {
    expect(
      namesAcrossLayers([
        'libs/domain/src/sso/saml-sign-on.ts',
        'apps/api/src/sso/saml-sign-on.ts',
        'libs/domain/src/user/events.ts',
        'libs/domain/src/organization/events.ts',
        'apps/api/src/main.ts',
        'apps/cli/src/main.ts',
        'test/support/start-app.ts',
      ]),
    ).toEqual({ 'saml-sign-on.ts': ['libs/domain/src/sso/saml-sign-on.ts', 'apps/api/src/sso/saml-sign-on.ts'] });
  });

  it('gives no name of this repository to two layers', () => {
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    });
    const sources = tracked.split('\n').filter((path) => /\.(ts|tsx|mjs|js)$/.test(path));

    expect(namesAcrossLayers(sources)).toEqual({});
  });
});
