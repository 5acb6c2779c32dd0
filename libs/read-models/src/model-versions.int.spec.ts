import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { foldOrganization, organizationStream, organizationView, type OrganizationEvent } from '#domain';
import { openReadModelDatabase } from './read-model-database.js';
import { organizationSetUp } from './testing/organization-commands.js';
import { catalogue, ReadModelsFixture } from './testing/read-models-fixture.js';

let fixture: ReadModelsFixture;

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
  await fixture.execute('acme', ...organizationSetUp('acme', 1));
});

afterEach(() => fixture.dispose());

/** What a file written before model versions holds: the organization model's first layout, both models caught up. */
async function legacyFile(): Promise<void> {
  const head = await fixture.head();
  const db = openReadModelDatabase(fixture.dataDir);
  db.exec(`
    CREATE TABLE organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, revision INTEGER NOT NULL, position INTEGER NOT NULL, state TEXT NOT NULL);
    CREATE TABLE memberships (organization_id TEXT NOT NULL, user_id TEXT NOT NULL, role TEXT NOT NULL, PRIMARY KEY (organization_id, user_id)) WITHOUT ROWID;
    CREATE INDEX memberships_by_user ON memberships (user_id);
    CREATE TABLE event_correlations (position INTEGER PRIMARY KEY, correlation_id TEXT NOT NULL, stream_id TEXT NOT NULL, revision INTEGER NOT NULL, event_id TEXT NOT NULL);
    INSERT INTO organizations VALUES ('acme', 'Organization 1', 3, ${head}, '{"exists":true,"id":"acme","name":"Organization 1","members":[]}');
    INSERT INTO memberships VALUES ('acme', 'owner-1', 'owner');
    INSERT INTO event_correlations VALUES (1, 'kept', 'organization-acme', 0, 'e-1');
    CREATE TABLE projection_checkpoints (projection TEXT PRIMARY KEY, position INTEGER, generation INTEGER NOT NULL, state TEXT NOT NULL, failure TEXT, updated_at TEXT NOT NULL);
    INSERT INTO projection_checkpoints VALUES ('organizations', ${head}, 1, 'live', NULL, '2026-01-01T00:00:00.000Z');
    INSERT INTO projection_checkpoints VALUES ('correlations', ${head}, 1, 'live', NULL, '2026-01-01T00:00:00.000Z');
  `);
  db.close();
}

describe('read-model versions', () => {
  it('builds a model whose tables changed again from the first event, and keeps the others', async () => {
    await legacyFile();
    const readModels = fixture.readModels('off');
    // Emptied, with its checkpoint cleared and a new generation: nothing is served from the old layout.
    expect(readModels.organizations.getOrganization('acme')).toBeUndefined();
    const checkpoints = Object.fromEntries(readModels.statuses().map((status) => [status.name, status.checkpoint]));
    expect(checkpoints).toMatchObject({ organizations: undefined, correlations: await fixture.head() });
    expect(Object.keys(checkpoints)).toEqual(readModels.projections.map((projection) => projection.name));
    expect(readModels.correlations.eventsOf('kept', 10)).toHaveLength(1);

    const projector = fixture.readModels('inline');
    expect(await projector.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    const read = await fixture.store.readStream(organizationStream('acme'));
    const state = foldOrganization(
      read.found ? read.events.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent) : [],
    );
    if (!state.exists) throw new Error('acme was created');
    expect(readModels.organizations.getOrganization('acme')?.view).toEqual(organizationView(state, catalogue));
    // (The correlation rows are this test's invention, kept as they were: only the organization model is compared.)
    expect((await readModels.verify())[0]?.drift).toEqual([]);
  });

  it('opens a file of the current layout as it is', async () => {
    const first = fixture.readModels('inline');
    expect(await first.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    await first.close();
    const again = fixture.readModels('off');
    expect(again.statuses()[0]?.checkpoint).toBe(await fixture.head());
    expect(again.organizations.getOrganization('acme')).toBeDefined();
  });

  it('refuses a file written by a newer layout, naming it, instead of building it back', async () => {
    await fixture.readModels('off').close();
    const db = openReadModelDatabase(fixture.dataDir);
    db.exec("UPDATE read_model_versions SET version = version + 1 WHERE projection = 'organizations'");
    db.close();
    expect(() => fixture.readModels('off')).toThrow(
      /organizations read model has layout \d+, written by a newer Chorus/,
    );
  });
});
