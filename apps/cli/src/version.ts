// `chorus --version`: the version of the package this command line was built from.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The root package.json's version, found upwards from this file (apps/cli/src in the sources, dist/apps/cli/src once
 * built).
 */
export function chorusVersion(from: string = import.meta.dirname): string {
  for (let directory = from; ; directory = dirname(directory)) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === 'chorus' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // No package.json here (or not ours): look further up.
    }
    if (dirname(directory) === directory) return 'unknown';
  }
}
