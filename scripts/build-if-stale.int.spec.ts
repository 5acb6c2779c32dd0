// scripts/build-if-stale.mjs in a throw-away project of the same layout, whose build:server and
// build:web are stand-ins that record each build: what `npm start` rebuilds, and what it leaves.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(import.meta.dirname, 'build-if-stale.mjs');
let project: string;

// A build that records itself, fails when FAIL names it, and otherwise writes its output and marks it built.
const fakeBuild = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
const [target, output] = process.argv.slice(2);
appendFileSync('builds.log', target + '\\n');
if (process.env.FAIL === target) process.exit(1);
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, 'built');
`;

function write(path: string, content = '') {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

/** Runs the script as `npm start` does; answers its exit code, output and the builds it ran. */
function start(environment: Record<string, string> = {}) {
  rmSync(join(project, 'builds.log'), { force: true });
  const run = spawnSync(process.execPath, [script], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, ...environment },
  });
  const log = join(project, 'builds.log');
  return {
    code: run.status,
    output: run.stdout + run.stderr,
    builds: existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [],
  };
}

/** A source saved now, after the last build. */
function edit(path: string) {
  const now = new Date();
  utimesSync(join(project, path), now, now);
}

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'chorus-build-if-stale-'));
  write('fake-build.mjs', fakeBuild);
  write(
    'package.json',
    JSON.stringify({
      name: 'fixture',
      private: true,
      scripts: {
        'build:server': `node fake-build.mjs server dist/apps/api/src/main.js && node ${JSON.stringify(script)} --mark server`,
        'build:web': `node fake-build.mjs web dist/web/index.html && node ${JSON.stringify(script)} --mark web`,
      },
    }),
  );
  for (const source of [
    'apps/api/src/main.ts',
    'libs/identity/src/index.ts',
    'libs/identity/src/mail/mailer.int.spec.ts',
    'libs/identity/src/testing/fixture.ts',
    'web/src/main.tsx',
    'web/src/app/router.int.spec.tsx',
    'web/index.html',
    'tsconfig.base.json',
    'tsconfig.build.json',
    'package-lock.json',
  ]) {
    write(source);
    // Written an hour ago: only edits in a test are newer than a build.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(project, source), anHourAgo, anHourAgo);
  }
});

afterEach(() => {
  rmSync(project, { recursive: true, force: true });
});

describe('npm start (scripts/build-if-stale.mjs)', () => {
  it('builds the server and the page when nothing was built yet', () => {
    expect(start()).toMatchObject({ code: 0, builds: ['server', 'web'] });
  });

  it('builds nothing when no source changed since the last build', () => {
    start();
    const again = start();
    expect(again).toMatchObject({ code: 0, builds: [] });
    expect(again.output).toContain('server is up to date');
    expect(again.output).toContain('web is up to date');
  });

  it.each([
    ['apps/api/src/main.ts', ['server']],
    ['libs/identity/src/index.ts', ['server']],
    ['tsconfig.build.json', ['server']],
    ['web/src/main.tsx', ['web']],
    ['web/index.html', ['web']],
    ['package-lock.json', ['server', 'web']],
  ])('after an edit of %s rebuilds %j only', (source, builds) => {
    start();
    edit(source);
    const run = start();
    expect(run).toMatchObject({ code: 0, builds });
    expect(run.output).toContain(`(${source} changed)`);
    expect(start().builds).toEqual([]);
  });

  it.each([
    'libs/identity/src/mail/mailer.int.spec.ts',
    'libs/identity/src/testing/fixture.ts',
    'web/src/app/router.int.spec.tsx',
  ])('does not rebuild for %s, which is not part of the build', (source) => {
    start();
    edit(source);
    expect(start().builds).toEqual([]);
  });

  it('rebuilds a target whose output is gone', () => {
    start();
    rmSync(join(project, 'dist', 'web'), { recursive: true });
    expect(start()).toMatchObject({ code: 0, builds: ['web'] });
  });

  it('stops with the build failure, and builds that target again at the next start', () => {
    start();
    edit('web/src/main.tsx');
    const failed = start({ FAIL: 'web' });
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain('npm run build:web failed');

    // The stand-in wrote nothing, but a half-written output must not count as a build either.
    write('dist/web/index.html', 'half');
    expect(start()).toMatchObject({ code: 0, builds: ['web'] });
  });
});
