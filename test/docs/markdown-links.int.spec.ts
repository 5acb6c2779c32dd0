// Every relative link of every Markdown file in the repository reaches something: a file with content, or a
// folder. A page emptied by accident (docs/api.md once was) or renamed without its links fails here, naming
// the file, its line and the link. Links to other sites, mail addresses and anchors of the same page are not
// followed; nor is anything inside code (fenced blocks, `inline code`), which is text, not a link.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '../..');

/** The Markdown files git tracks (none of node_modules), relative to the root. */
function trackedMarkdown(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: root, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file !== '' && !file.split('/').includes('node_modules'));
}

/** The text with fenced code blocks and inline code blanked out, keeping every line where it is. */
function withoutCode(text: string): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  const kept = lines.map((line) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      return '';
    }
    if (opening !== undefined) {
      fence = opening;
      return '';
    }
    return line;
  });
  // A code span is a run of backticks closed by a run of the same length (CommonMark), within one paragraph.
  return kept.join('\n').replace(/(`+)(?:(?!\n[ \t]*\n)[^])*?[^`]\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
}

type Link = { line: number; target: string };

/**
 * Inline links and images, `[text](target)` or `[text](<target> "title")`, and reference definitions `[label]: target`.
 */
function linksOf(text: string): Link[] {
  const prose = withoutCode(text);
  const lineOf = (index: number) => prose.slice(0, index).split('\n').length;
  const links: Link[] = [];
  for (const match of prose.matchAll(
    /\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
  )) {
    links.push({ line: lineOf(match.index), target: (match[1] ?? '').replace(/^<|>$/g, '') });
  }
  for (const match of prose.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm)) {
    links.push({ line: lineOf(match.index), target: (match[1] ?? '').replace(/^<|>$/g, '') });
  }
  return links;
}

/** Another site, a mail address, or somewhere on the same page: not a file of the repository. */
const notAFile = (target: string) =>
  target === '' || target.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** Why the link's file is no good, or undefined when it is (a file with more than whitespace in it, or a folder). */
function problemOf(file: string, target: string): string | undefined {
  const pathPart = target.replace(/[?#].*$/, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    return 'is not a valid URL';
  }
  const resolved = decoded.startsWith('/') ? join(root, decoded) : join(root, dirname(file), decoded);
  if (relative(root, resolved).startsWith('..')) return 'points outside the repository';
  let stats;
  try {
    stats = statSync(resolved);
  } catch {
    return 'does not exist';
  }
  if (stats.isDirectory()) return undefined;
  return readFileSync(resolved, 'utf8').trim() === '' ? 'is empty' : undefined;
}

describe('links between Markdown files', () => {
  const files = trackedMarkdown();

  it('finds the Markdown files git tracks', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/api.md']));
  });

  it('reads links the way Markdown does', () => {
    const text = [
      'See [the API](api.md#errors) and ![a picture](img/a.png "A title").',
      '[a site](https://example.com), [mail](mailto:a@example.com), [here](#top), [angle](<with space.md>)',
      '`[not a link](code.md)` and ``[nor](this.md)``',
      '```',
      '[inside a fence](fenced.md)',
      '```',
      '[label]: ../README.md',
      '[wrapped',
      'text](wrapped.md)',
    ].join('\n');
    const found = linksOf(text).map(({ line, target }) => `${line} ${target}`);
    expect(found).toEqual([
      '1 api.md#errors',
      '1 img/a.png',
      '2 https://example.com',
      '2 mailto:a@example.com',
      '2 #top',
      '2 with space.md',
      '9 wrapped.md',
      '7 ../README.md',
    ]);
    expect(found.map((entry) => entry.slice(entry.indexOf(' ') + 1)).filter((target) => !notAFile(target))).toEqual([
      'api.md#errors',
      'img/a.png',
      'with space.md',
      'wrapped.md',
      '../README.md',
    ]);
  });

  it('reaches a file with content (or a folder) from every relative link', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const { line, target } of linksOf(readFileSync(join(root, file), 'utf8'))) {
        if (notAFile(target)) continue;
        const problem = problemOf(file, target);
        if (problem !== undefined) broken.push(`${file}:${line}: (${target}) ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
