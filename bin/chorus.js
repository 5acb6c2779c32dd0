#!/usr/bin/env node
// The `chorus` command line: runs the built dist/apps/cli/src/main.js, building the server side first when it is
// missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');

if (!existsSync(main)) {
  process.stderr.write('chorus: building the command line (tsc -p tsconfig.build.json)...\n');
  try {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root, stdio: ['ignore', 2, 2] },
    );
  } catch {
    // tsc still emits when some file has a type error; only a missing entry point stops us.
    if (!existsSync(main)) {
      process.stderr.write('chorus: the build failed; run `npm run build:server` to see why.\n');
      process.exit(4);
    }
  }
}

await import(pathToFileURL(main).href);
