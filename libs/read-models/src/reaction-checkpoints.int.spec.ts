import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ReactionCheckpoints } from './reaction-checkpoints.js';

let dataDir: string;
const opened: ReactionCheckpoints[] = [];
const open = (): ReactionCheckpoints => {
  const checkpoints = ReactionCheckpoints.open(dataDir);
  opened.push(checkpoints);
  return checkpoints;
};
const legacyFile = (reaction: string): string => path.join(dataDir, 'reactions', `${reaction}.json`);

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-reaction-checkpoints-'));
});

afterEach(() => {
  for (const checkpoints of opened.splice(0)) checkpoints.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('reaction checkpoints', () => {
  it('knows nothing of a reaction that never ran, then what each reaction saved, from another connection too', () => {
    const checkpoints = open();
    expect(checkpoints.read('member-invitations')).toBeUndefined();

    checkpoints.save('member-invitations', { storeId: 'store-a', position: 41n }, true);
    checkpoints.save('owner-mails', { storeId: 'store-a', position: undefined }, false);
    checkpoints.save('member-invitations', { storeId: 'store-a', position: 42n }, false);

    const another = open();
    expect(another.read('member-invitations')).toEqual({ storeId: 'store-a', position: 42n });
    expect(another.read('owner-mails')).toEqual({ storeId: 'store-a', position: undefined });
  });

  it('keeps its rows in the read models file beside the projections, each naming its own store', () => {
    open().save('member-invitations', { storeId: 'store-b', position: 9_007_199_254_740_993n }, true);
    // Positions past 2^53 come back exact.
    expect(open().read('member-invitations')).toEqual({ storeId: 'store-b', position: 9_007_199_254_740_993n });
    expect(existsSync(path.join(dataDir, 'read-models.sqlite'))).toBe(true);
  });

  it('takes over the checkpoint file an earlier version wrote, and removes it once its row is saved', () => {
    mkdirSync(path.join(dataDir, 'reactions'));
    writeFileSync(legacyFile('traffic-threshold-mails'), JSON.stringify({ storeId: 'store-a', position: '17' }));
    writeFileSync(legacyFile('member-invitations'), JSON.stringify({ storeId: 'store-a', position: null }));

    const checkpoints = open();
    expect(checkpoints.read('traffic-threshold-mails')).toEqual({ storeId: 'store-a', position: 17n });
    expect(checkpoints.read('member-invitations')).toEqual({ storeId: 'store-a', position: undefined });
    expect(existsSync(legacyFile('traffic-threshold-mails'))).toBe(true);

    checkpoints.save('traffic-threshold-mails', { storeId: 'store-a', position: 18n }, true);
    expect(existsSync(legacyFile('traffic-threshold-mails'))).toBe(false);
    expect(existsSync(legacyFile('member-invitations'))).toBe(true);
    expect(open().read('traffic-threshold-mails')).toEqual({ storeId: 'store-a', position: 18n });
  });

  it('reads while another process holds the file for writing (a rebuild), and a save then fails at once instead of waiting', () => {
    open().save('member-invitations', { storeId: 'store-a', position: 5n }, true);
    const rebuild = new Database(path.join(dataDir, 'read-models.sqlite'));
    rebuild.exec('BEGIN IMMEDIATE');
    try {
      const checkpoints = open();
      expect(checkpoints.read('member-invitations')).toEqual({ storeId: 'store-a', position: 5n });
      expect(checkpoints.read('owner-mails')).toBeUndefined();
      const startedAt = Date.now();
      expect(() => checkpoints.save('member-invitations', { storeId: 'store-a', position: 6n }, false)).toThrow(
        'database is locked',
      );
      expect(Date.now() - startedAt).toBeLessThan(5_000);
    } finally {
      rebuild.exec('ROLLBACK');
      rebuild.close();
    }
    open().save('member-invitations', { storeId: 'store-a', position: 6n }, false);
    expect(open().read('member-invitations')).toEqual({ storeId: 'store-a', position: 6n });
  });

  it('saves where a reaction starts once a writer between two batches lets go, and says so when it does not in time', async () => {
    const rebuild = new Database(path.join(dataDir, 'read-models.sqlite'));
    rebuild.pragma('journal_mode = WAL');
    rebuild.exec('BEGIN IMMEDIATE');
    const checkpoints = open();
    try {
      expect(await checkpoints.saveStart('member-invitations', { storeId: 'store-a', position: 7n }, 300)).toBe(false);
      setTimeout(() => rebuild.exec('COMMIT'), 300);
      expect(await checkpoints.saveStart('member-invitations', { storeId: 'store-a', position: 7n }, 5_000)).toBe(true);
    } finally {
      rebuild.close();
    }
    expect(open().read('member-invitations')).toEqual({ storeId: 'store-a', position: 7n });
  });

  it('reads nothing, and writes nothing, in a file that has no checkpoint of any reaction yet', () => {
    const rebuild = new Database(path.join(dataDir, 'read-models.sqlite'));
    rebuild.pragma('journal_mode = WAL');
    rebuild.exec('CREATE TABLE models (id INTEGER PRIMARY KEY)');
    rebuild.exec('BEGIN IMMEDIATE');
    try {
      expect(open().read('member-invitations')).toBeUndefined();
    } finally {
      rebuild.exec('ROLLBACK');
      rebuild.close();
    }
  });

  it('stops on a file an earlier version left that is not a checkpoint, naming it, and changes nothing', () => {
    mkdirSync(path.join(dataDir, 'reactions'));
    writeFileSync(legacyFile('member-invitations'), JSON.stringify({ position: 3 }));
    const checkpoints = open();
    expect(() => checkpoints.read('member-invitations')).toThrow(
      `${legacyFile('member-invitations')} is not a reaction checkpoint`,
    );
    expect(existsSync(legacyFile('member-invitations'))).toBe(true);
  });
});
