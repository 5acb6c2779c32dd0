// package.json's engines say Node 20; every installed package must agree, or `npm ci` warns
// EBADENGINE and the package may use what Node 20 lacks. @nestjs/common 12.5 asks for file-type 22
// (Node >= 22): package.json's `overrides` pins it to 21.3.4, the last release for Node 20.
import { describe, expect, it } from '@jest/globals';
import { FileTypeValidator } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const root = join(import.meta.dirname, '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, unknown>;

type LockedPackage = { version?: string; engines?: { node?: string } | string[] };

/** The Node range a locked package declares; old packages wrote engines as a list, which npm ignores. */
const nodeRange = (entry: LockedPackage): string | undefined =>
  Array.isArray(entry.engines) ? undefined : entry.engines?.node;

/** What FileTypeValidator reads of an uploaded file (multer's type is not installed: Chorus takes no uploads). */
type UploadedFile = Parameters<FileTypeValidator['isValid']>[0];

describe('Node 20 support of the dependencies', () => {
  it("every package in package-lock.json accepts every Node version of package.json's engines", () => {
    const ours = (readJson('package.json').engines as { node: string }).node;
    const packages = readJson('package-lock.json').packages as Record<string, LockedPackage>;

    const refusing = Object.entries(packages).flatMap(([path, entry]) => {
      const range = nodeRange(entry);
      return path === '' || range === undefined || semver.subset(ours, range)
        ? []
        : [`${path}@${entry.version}: node ${range}`];
    });

    expect(refusing).toEqual([]);
  });

  it('file-type, as @nestjs/common loads it (a dynamic import), detects a file by its magic number', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const validator = new FileTypeValidator({ fileType: 'image/gif' });

    // Had the import failed, Nest would answer false for both (and log a warning).
    expect(await validator.isValid({ mimetype: 'image/gif', buffer: gif } as UploadedFile)).toBe(true);
    expect(
      await validator.isValid({
        mimetype: 'image/gif',
        buffer: Buffer.from('plain text, whatever its name says'),
      } as UploadedFile),
    ).toBe(false);
  });
});
