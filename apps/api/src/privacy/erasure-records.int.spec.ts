import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { ERASURES_FILE, erasureRecords, erasuresFileOf, recordErasure } from './erasure-records.js';

describe('the erasure record beside the backups', () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'chorus-erasures-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reads every record in order', async () => {
    const dir = folder();
    await recordErasure(dir, { userId: 'u-1', erasedAt: '2026-11-29T10:00:00.000Z', position: '7' });
    await recordErasure(dir, { userId: 'u-2', erasedAt: '2026-11-29T10:01:00.000Z', position: null });
    expect(await erasureRecords(dir)).toEqual([
      { userId: 'u-1', erasedAt: '2026-11-29T10:00:00.000Z', position: '7' },
      { userId: 'u-2', erasedAt: '2026-11-29T10:01:00.000Z', position: null },
    ]);
    expect(await erasureRecords(folder())).toEqual([]);
  });

  it('keeps the erasure answered after a line a crash cut short: the torn line is left out, the next read whole', async () => {
    const dir = folder();
    await recordErasure(dir, { userId: 'u-1', erasedAt: '2026-11-29T10:00:00.000Z', position: '7' });
    // A process killed mid-write: its erasure was never answered.
    appendFileSync(join(dir, erasuresFileOf(hostname())), '{"userId":"u-torn","eras');
    await recordErasure(dir, { userId: 'u-2', erasedAt: '2026-11-29T10:02:00.000Z', position: '9' });
    expect((await erasureRecords(dir)).map((record) => record.userId)).toEqual(['u-1', 'u-2']);
    expect(readFileSync(join(dir, erasuresFileOf(hostname())), 'utf8').endsWith('"position":"9"}\n')).toBe(true);
  });

  it('keeps a file for each host in a folder the nodes share, and reads them all with the one a build before kept', async () => {
    const dir = folder();
    await recordErasure(dir, { userId: 'u-b', erasedAt: '2026-11-29T10:03:00.000Z', position: '12' }, 'node-b');
    await recordErasure(dir, { userId: 'u-a', erasedAt: '2026-11-29T10:01:00.000Z', position: '10' }, 'node-a.example');
    appendFileSync(
      join(dir, ERASURES_FILE),
      '{"userId":"u-old","erasedAt":"2026-11-28T09:00:00.000Z","position":"3"}\n',
    );
    // Not a record: a backup's own files, another program's.
    appendFileSync(join(dir, 'erasures.jsonl.bak'), '{"userId":"u-not","erasedAt":"2026-11-29T11:00:00.000Z"}\n');
    expect(readdirSync(dir).sort()).toEqual([
      'erasures-node-a.example.jsonl',
      'erasures-node-b.jsonl',
      'erasures.jsonl',
      'erasures.jsonl.bak',
    ]);
    expect((await erasureRecords(dir)).map((record) => record.userId)).toEqual(['u-old', 'u-a', 'u-b']);
  });
});
