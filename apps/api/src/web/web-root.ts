import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * dist/web, where `vite build` puts the SPA. This file sits four levels below the repository
 * (apps/api/src/web) when run from source, and below dist/ when built.
 */
export function webRoot(): string {
  const base = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
  const fromSource = join(base, 'dist', 'web');
  return existsSync(fromSource) ? fromSource : join(base, 'web');
}
