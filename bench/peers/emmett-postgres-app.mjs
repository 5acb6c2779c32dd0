// The peer on PostgreSQL: the same add-member command as emmett-app.mjs, on Emmett's PostgreSQL event store. The
// append is durable (PostgreSQL's own commit), and an inline projection updates the same read model (the
// organization's row and a row per member) in the append's transaction. Commands run concurrently on Emmett's pool,
// and a lost race is decided again, as Chorus's are.
//   node bench/peers/emmett-postgres-app.mjs <port> <postgres:// url>
import { SQL } from '@event-driven-io/dumbo';
import { CommandHandler, inlineProjections } from '@event-driven-io/emmett';
import { getApplication, startAPI } from '@event-driven-io/emmett-expressjs';
import { getPostgreSQLEventStore, postgreSQLProjection } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import { evolve, initialState, organizationRoutes } from './emmett-organizations.mjs';

const [port, connectionString] = process.argv.slice(2);

// The read model's tables, made before the first command (its reads go through this pool too).
const reads = new pg.Pool({ connectionString, max: 4 });
await reads.query('CREATE TABLE IF NOT EXISTS organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, members INTEGER NOT NULL)');
await reads.query(
  'CREATE TABLE IF NOT EXISTS memberships (organization_id TEXT NOT NULL, user_id TEXT NOT NULL, email TEXT NOT NULL, role TEXT NOT NULL, PRIMARY KEY (organization_id, user_id))',
);

const organizationsProjection = postgreSQLProjection({
  name: 'organizations',
  canHandle: ['OrganizationCreated', 'MemberAdded'],
  handle: async (events, { execute }) => {
    for (const { type, data, metadata } of events) {
      const id = metadata.streamName.slice('organization-'.length);
      if (type === 'OrganizationCreated') {
        await execute.command(SQL`INSERT INTO organizations (id, name, members) VALUES (${id}, ${data.name}, 0) ON CONFLICT (id) DO NOTHING`);
      } else {
        await execute.command(
          SQL`INSERT INTO memberships (organization_id, user_id, email, role) VALUES (${id}, ${data.userId}, ${data.email}, ${data.role}) ON CONFLICT DO NOTHING`,
        );
        await execute.command(SQL`UPDATE organizations SET members = members + 1 WHERE id = ${id}`);
      }
    }
  },
});

const eventStore = getPostgreSQLEventStore(connectionString, { projections: inlineProjections([organizationsProjection]) });
// Decided again on a lost race, as Chorus does.
const handle = CommandHandler({ evolve, initialState, mapToStreamId: (id) => `organization-${id}`, retry: { onVersionConflict: 10 } });

const application = getApplication({
  apis: [
    organizationRoutes({
      eventStore,
      handle,
      organization: async (id) => (await reads.query('SELECT id, name, members FROM organizations WHERE id = $1', [id])).rows[0] ?? null,
    }),
  ],
});
const server = startAPI(application, { port: Number(port) });
// Emmett's pools end themselves on SIGTERM (dumbo's own handler); ending them here too throws.
process.once('SIGTERM', () => server.close(() => process.exit(0)));
