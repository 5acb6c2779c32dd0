// scripts/code-shape.mjs over a throw-away repository with planted citations, then over this one: no source file
// cites an issue number (history lives in git, not in the code).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(import.meta.dirname, 'code-shape.mjs');
type Shape = {
  productionLines: number;
  commentLines: number;
  citingIssues: string[];
  citingBenchFigures: string[];
  longFiles: string[];
};

function shapeOf(root: string): Shape {
  return JSON.parse(execFileSync(process.execPath, [script, '--json'], { cwd: root, encoding: 'utf8' })) as Shape;
}

describe('code-shape.mjs', () => {
  let project: string;
  const files: Record<string, string> = {
    'libs/a/src/cites.ts': `// Refused twice (${['issue', 19].join(' ')}): the second answer is the first one.\nexport const a = 1;\n`,
    'test/e2e/cites-hash.e2e.spec.ts': '// The owner rule, see #31.\n',
    'apps/api/src/upstream.ts':
      '// A wrong version is read again (kurrent-io/KurrentDB issues 1898 and 2274).\nexport const b = 2;\n',
    'apps/api/src/colours.ts': "export const css = '.get { background: #1d4ed8; } .x { color: #333 }';\n",
    'apps/api/src/fast.ts':
      '// Cached: the router was ~8% of the CPU of GET /health (bench/http).\nexport const c = 3;\n',
    'libs/b/src/long.ts': 'export const d = 4;\n'.repeat(501),
    'libs/b/src/long-in-words.ts': `${'// why\n\n'.repeat(100)}${'export const e = 5;\n'.repeat(500)}`,
  };

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'code-shape-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), text);
    }
    execFileSync('git', ['init', '-q'], { cwd: project });
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('names the files that cite our issue numbers, not an upstream tracker or a colour', () => {
    expect(shapeOf(project).citingIssues.sort()).toEqual(['libs/a/src/cites.ts', 'test/e2e/cites-hash.e2e.spec.ts']);
  });

  it('names the files that cite bench figures and the files over 500 lines of code', () => {
    const shape = shapeOf(project);
    expect(shape.citingBenchFigures).toEqual(['apps/api/src/fast.ts']);
    expect(shape.longFiles).toEqual(['libs/b/src/long.ts (501)']);
  });

  it('counts comment lines of production files only', () => {
    expect(shapeOf(project)).toMatchObject({ commentLines: 3 + 100, productionLines: 2 + 2 + 1 + 2 + 501 + 700 });
  });

  it('finds no issue number cited in this repository', () => {
    expect(shapeOf(join(import.meta.dirname, '..')).citingIssues).toEqual([]);
  });
});
