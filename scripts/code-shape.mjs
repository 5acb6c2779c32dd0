// Prints how the code reads: the comment share of production lines, lines over 120 characters, files citing issue
// numbers or bench figures, files over the bound of lines of code. `node scripts/code-shape.mjs [--list | --json]`; the check is
// its test.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const TEST = /(\.spec\.tsx?$|(^|\/)(testing|test|bench)\/)/;
// Our own tracker, never another project's ("kurrent-io/KurrentDB issues 1898" names an upstream bug).
const ISSUE = /(?<![\w.-]\/[\w.-]+ )\bissues? #?\d+|\bissue's \(#\d+\)/i;
// '#31' only in a comment: in code it is a colour or a selector.
const HASH_NUMBER = /^\s*(\/\/|\/?\*|\{\/\*).*(^|[\s(])#\d{1,4}\b/;
const FIGURE =
  /\d\s*(%|us\b|µs|ms\b|kB\b|MB\b|\/s\b)|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth) round\b/i;
export const MAX_LINE = 120;
/** Lines of code, blank and comment lines aside, as ESLint's max-lines counts them here. */
export const MAX_FILE_LINES = 500;

/** The tracked source files, split into production and tests (specs, testing/ folders, test/ and bench/). */
export function sourceFiles(root) {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  const files = tracked.split('\n').filter((path) => SOURCE.test(path) && !path.startsWith('node_modules/'));
  return { production: files.filter((path) => !TEST.test(path)), tests: files.filter((path) => TEST.test(path)) };
}

/** How many of a file's lines are comments only (a line of code with a trailing comment is code). */
export function commentLines(text) {
  let inBlock = false;
  let count = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (inBlock) {
      count += 1;
      inBlock = !trimmed.includes('*/');
    } else if (trimmed.startsWith('//') || trimmed.startsWith('/*') || trimmed.startsWith('{/*')) {
      count += 1;
      inBlock = trimmed.includes('/*') && !trimmed.includes('*/');
    }
  }
  return count;
}

const blankLines = (text) =>
  text.split('\n').filter((line, index, all) => line.trim() === '' && index < all.length - 1).length;

export const citesIssue = (text) => text.split('\n').some((line) => ISSUE.test(line) || HASH_NUMBER.test(line));
export const citesBenchFigure = (text) => text.split('\n').some((line) => /\bbench\//.test(line) && FIGURE.test(line));
const longLines = (text) => text.split('\n').filter((line) => line.length > MAX_LINE).length;

export function codeShape(root) {
  const { production, tests } = sourceFiles(root);
  const read = (path) => readFileSync(`${root}/${path}`, 'utf8');
  const shape = {
    productionLines: 0,
    commentLines: 0,
    longProductionLines: 0,
    longTestLines: 0,
    citingIssues: [],
    citingBenchFigures: [],
    longFiles: [],
  };
  for (const path of production) {
    const text = read(path);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const comments = commentLines(text);
    shape.productionLines += lines;
    shape.commentLines += comments;
    shape.longProductionLines += longLines(text);
    const code = lines - comments - blankLines(text);
    if (code > MAX_FILE_LINES) shape.longFiles.push(`${path} (${code})`);
  }
  for (const path of tests) shape.longTestLines += longLines(read(path));
  for (const path of [...production, ...tests]) {
    const text = read(path);
    if (citesIssue(text)) shape.citingIssues.push(path);
    if (citesBenchFigure(text)) shape.citingBenchFigures.push(path);
  }
  return shape;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const list = process.argv.includes('--list');
  const shape = codeShape(root);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(shape));
    process.exit(0);
  }
  const share = ((100 * shape.commentLines) / shape.productionLines).toFixed(1);
  const paths = (files) => (list && files.length > 0 ? `\n  ${files.join('\n  ')}` : '');
  console.log(`production lines: ${shape.productionLines}, of which comments: ${shape.commentLines} (${share}%)`);
  console.log(
    `lines over ${MAX_LINE} characters: ${shape.longProductionLines} in production, ${shape.longTestLines} in tests`,
  );
  console.log(`files citing issue numbers: ${shape.citingIssues.length}${paths(shape.citingIssues)}`);
  console.log(`files citing bench figures: ${shape.citingBenchFigures.length}${paths(shape.citingBenchFigures)}`);
  console.log(
    `production files over ${MAX_FILE_LINES} lines of code: ${shape.longFiles.length}${paths(shape.longFiles)}`,
  );
}
