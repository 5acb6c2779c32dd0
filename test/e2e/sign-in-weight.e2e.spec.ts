// The login page's JavaScript budget (docs/console.md, Quality bar: 100 kB gzipped), on the build the server
// serves: what index.html loads before it runs (its entry and every chunk that imports statically), gzip level 9
// as bench/web counts it. The second step and the console load their own chunks, never with the login page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] };

const dist = join(process.cwd(), 'dist/web');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

function loadedBy(key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key] as ManifestChunk;
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) loadedBy(imported, files);
  return files;
}

describe('the login page', () => {
  const files = loadedBy('index.html');

  it('loads at most 100 kB of JavaScript, gzipped', () => {
    const gzipped = [...files].reduce(
      (total, file) => total + gzipSync(readFileSync(join(dist, file)), { level: constants.Z_BEST_COMPRESSION }).length,
      0,
    );
    expect(gzipped).toBeLessThanOrEqual(100_000);
  });

  it('loads the second step and the console only when they are opened', () => {
    for (const lazy of ['src/app/routes/second-step-route.tsx', 'src/app/console/console-app.tsx']) {
      expect(manifest['index.html']?.dynamicImports).toContain(lazy);
      expect(files.has((manifest[lazy] as ManifestChunk).file)).toBe(false);
    }
  });
});
