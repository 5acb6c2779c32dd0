// The peer: Chorus's add-member command as a small Emmett app. The organization's stream decides (the users
// limit, one member per address), the append is durable (SQLite WAL, synchronous = FULL, as Chorus's), and
// an inline projection updates the read model (the organization's row and a row per member) in the append's
// transaction. One shared connection: emmett-sqlite's pool fails with SQLITE_BUSY under concurrent load.
//   node bench/peers/emmett-app.mjs <port> <database file>
import { CommandHandler, inlineProjections } from '@event-driven-io/emmett';
import { getApplication, startAPI } from '@event-driven-io/emmett-expressjs';
import { getSQLiteEventStore, sqliteConnection, sqliteProjection } from '@event-driven-io/emmett-sqlite';
import { evolve, initialState, organizationRoutes } from './emmett-organizations.mjs';

const [port, fileName] = process.argv.slice(2);

const organizationsProjection = sqliteProjection({
  canHandle: ['OrganizationCreated', 'MemberAdded'],
  init: async ({ context }) => {
    await context.connection.command('CREATE TABLE IF NOT EXISTS organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, members INTEGER NOT NULL)');
    await context.connection.command(
      'CREATE TABLE IF NOT EXISTS memberships (organization_id TEXT NOT NULL, user_id TEXT NOT NULL, email TEXT NOT NULL, role TEXT NOT NULL, PRIMARY KEY (organization_id, user_id))',
    );
  },
  handle: async (events, { connection }) => {
    for (const { type, data, metadata } of events) {
      const id = metadata.streamName.slice('organization-'.length);
      if (type === 'OrganizationCreated') {
        await connection.command('INSERT INTO organizations (id, name, members) VALUES (?, ?, 0) ON CONFLICT (id) DO NOTHING', [id, data.name]);
      } else {
        await connection.command('INSERT INTO memberships (organization_id, user_id, email, role) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [id, data.userId, data.email, data.role]);
        await connection.command('UPDATE organizations SET members = members + 1 WHERE id = ?', [id]);
      }
    }
  },
});

const connection = sqliteConnection({ fileName });
await connection.command('PRAGMA journal_mode = WAL');
await connection.command('PRAGMA synchronous = FULL');
const eventStore = getSQLiteEventStore({
  fileName,
  connectionOptions: { singleton: true, connection },
  schema: { autoMigration: 'CreateOrUpdate' },
  projections: inlineProjections([organizationsProjection]),
});
// Decided again on a lost race, as Chorus does (up to 10 attempts).
const handleOnStream = CommandHandler({ evolve, initialState, mapToStreamId: (id) => `organization-${id}`, retry: { onVersionConflict: 10 } });
// One command at a time: on the one shared connection, concurrent transactions interleave their BEGIN and
// ROLLBACK ("cannot rollback - no transaction is active" under 32 connections). SQLite has one writer anyway.
let last = Promise.resolve();
function handle(...args) {
  const run = last.then(() => handleOnStream(...args));
  last = run.catch(() => undefined);
  return run;
}

const application = getApplication({
  apis: [
    organizationRoutes({
      eventStore,
      handle,
      organization: (id) => connection.querySingle('SELECT id, name, members FROM organizations WHERE id = ?', [id]),
    }),
  ],
});
const server = startAPI(application, { port: Number(port) });
process.on('SIGTERM', () => server.close(() => process.exit(0)));
