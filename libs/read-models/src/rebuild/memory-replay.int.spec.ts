import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import Database from 'better-sqlite3';
import { openReadModelDatabase, readModelsFile } from '../read-model-database.js';
import { readModelProjections } from '../read-models.js';
import { organizationSetUp } from '../testing/organization-commands.js';
import { ReadModelsFixture } from '../testing/read-models-fixture.js';
import { sameRowsInSql } from './same-rows-in-sql.js';
import { MemoryReplay } from './verify-read-models.js';

let fixture: ReadModelsFixture;

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
  for (let index = 0; index < 10; index += 1)
    await fixture.execute(`org-${index}`, ...organizationSetUp(`org-${index}`, index));
});

afterEach(() => fixture.dispose());

function tamper(sql: string): void {
  const db = new Database(readModelsFile(fixture.dataDir));
  db.exec(sql);
  db.close();
}

async function verifiedWith(replay: MemoryReplay) {
  const db = openReadModelDatabase(fixture.dataDir);
  try {
    return await replay.verify(db);
  } finally {
    db.close();
  }
}

const drifts = (verifications: readonly { drift: unknown[] }[]) => verifications.flatMap(({ drift }) => drift);

describe('a verification replayed ahead (the restore replays it beside its rebuild)', () => {
  it('goes on from where it was taken to the stored checkpoints, and finds drift in what came after', async () => {
    const ahead = await MemoryReplay.upTo({
      store: fixture.store,
      projections: readModelProjections(),
      position: await fixture.head(),
    });
    await fixture.execute('org-10', ...organizationSetUp('org-10', 10));
    await fixture.execute('org-3', {
      type: 'AddMember',
      data: { userId: 'late', email: 'late@example.test', role: 'member' },
    });
    const cli = fixture.readModels('off');
    await cli.rebuild();
    tamper(`UPDATE memberships SET role = 'owner' WHERE user_id = 'late'`);

    const verifications = await verifiedWith(ahead);

    expect(verifications.every(({ checkpoint }) => checkpoint === verifications[0]?.checkpoint)).toBe(true);
    expect(verifications[0]?.checkpoint).toBe(await fixture.head());
    expect(drifts(verifications)).toEqual([
      { table: 'memberships', key: 'org-3/late', differences: ['role: stored "owner", rebuilt "member"'] },
    ]);
    const organizations = verifications.find(({ projection }) => projection === 'organizations');
    expect(organizations?.tables.find(({ table }) => table === 'organizations')).toMatchObject({
      stored: 11,
      rebuilt: 11,
    });
  });

  it('replays from the first event again a model stored behind the replay taken ahead', async () => {
    const cli = fixture.readModels('off');
    await cli.rebuild();
    const behind = await fixture.head();
    await fixture.execute('org-10', ...organizationSetUp('org-10', 10));
    const projections = readModelProjections();
    const head = await fixture.head();

    // The stored models end at `behind`, before the replay taken ahead: compared as they are, not as of the head.
    const ahead = await MemoryReplay.upTo({ store: fixture.store, projections, position: head });
    const verifications = await verifiedWith(ahead);
    expect(verifications.map(({ checkpoint }) => checkpoint)).toEqual(projections.map(() => behind));
    expect(drifts(verifications)).toEqual([]);
    const organizations = verifications.find(({ projection }) => projection === 'organizations');
    expect(organizations?.tables.find(({ table }) => table === 'organizations')).toMatchObject({
      stored: 10,
      rebuilt: 10,
    });
  });
});

describe('the comparison by SQL', () => {
  /** The stored models copied into memory, as a replay would hold them, and their checkpoints. */
  async function replayedCopy() {
    const cli = fixture.readModels('off');
    await cli.rebuild();
    const checkpoint = await fixture.head();
    const memory = openReadModelDatabase(':memory:');
    memory.prepare('ATTACH DATABASE ? AS stored').run(readModelsFile(fixture.dataDir));
    const projections = readModelProjections();
    for (const projection of projections)
      for (const table of projection.tables) {
        memory.exec(table.create(table.name));
        memory.exec(`INSERT INTO main.${table.name} SELECT * FROM stored.${table.name}`);
      }
    memory.exec('DETACH DATABASE stored');
    const models = projections.map((projection) => ({ projection, checkpoint }));
    return { memory, models, same: () => [...sameRowsInSql(memory, readModelsFile(fixture.dataDir), models).keys()] };
  }

  it('proves equal only what is equal value for value, and leaves the rest to the row-by-row comparison', async () => {
    const { memory, same } = await replayedCopy();
    const all = readModelProjections().map(({ name }) => name);
    expect(same()).toEqual(all);

    // As many rows, one missing and one extra.
    memory.exec(`DELETE FROM memberships WHERE organization_id = 'org-4';
                 INSERT INTO memberships (organization_id, user_id, role, ordinal, member) VALUES ('org-5', 'x', 'owner', 9, '{}')`);
    expect(same()).not.toContain('organizations');
    memory.exec(`DELETE FROM memberships WHERE user_id = 'x'`);
    tamper(`DELETE FROM memberships WHERE organization_id = 'org-4'`);
    expect(same()).toEqual(all);

    // Letters in another case; the same bytes as a blob instead of text.
    memory.exec(`UPDATE organizations SET name = upper(name) WHERE id = 'org-1'`);
    expect(same()).not.toContain('organizations');
    memory.exec(`UPDATE organizations SET name = CAST('Organization 1' AS BLOB) WHERE id = 'org-1'`);
    expect(same()).not.toContain('organizations');
    memory.exec(`UPDATE organizations SET name = 'Organization 1' WHERE id = 'org-1'`);
    expect(same()).toEqual(all);
    memory.close();
  });

  it('says nothing of a stored model whose checkpoint moved since the replay read it', async () => {
    const { memory, same } = await replayedCopy();
    tamper(`UPDATE projection_checkpoints SET position = position + 1 WHERE projection = 'organizations'`);
    expect(same()).not.toContain('organizations');
    expect(same()).toContain('correlations');
    memory.close();
  });
});
