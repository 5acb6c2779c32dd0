// What the SCIM bench needs in the store before its servers start, written as the command line writes it (its
// context: the same modules, sealing and store as the server, from the environment: DATA_DIR, DATABASE_URL):
// an organization on the Chorus enterprise plan with its owner, the accounts (with a password) of the people whose
// sessions the deprovisioning measure ends, and an operator API key. Prints JSON {organizationId, apiKey}.
//   SEED='{"organizationId":"...","domain":"...","password":"...","accounts":["a@d",...]}' node bench/scim/seed.mjs
import { CommandBus } from '@nestjs/cqrs';
import { loadConfig } from '../../dist/libs/config/src/index.js';
import { createCliContext } from '../../dist/apps/cli/src/cli-context.js';
import {
  AddMemberCommand,
  ApiKeys,
  ChangeOrganizationCommand,
  CreateOrganizationCommand,
  IDENTITY,
} from '../../dist/apps/api/src/index.js';

const seed = JSON.parse(process.env.SEED ?? '{}');
const context = await createCliContext(loadConfig(process.env));
try {
  const commands = context.app.get(CommandBus);
  const identity = context.app.get(IDENTITY);
  const bench = () => context.commandContext('bench');
  const owner = `owner@${seed.domain}`;
  const { userId: ownerId } = await identity.registration.register({ email: owner, password: seed.password }, bench());
  const { id } = await commands.execute(
    new CreateOrganizationCommand({ id: seed.organizationId, name: 'SCIM bench' }, bench()),
  );
  await commands.execute(
    new ChangeOrganizationCommand(id, { type: 'AssignPlan', data: { line: 'chorus', plan: 'enterprise' } }, bench()),
  );
  await commands.execute(new ChangeOrganizationCommand(id, { type: 'EnableChorus', data: {} }, bench()));
  await commands.execute(new AddMemberCommand(id, { email: owner, role: 'owner', userId: ownerId }, bench()));
  // Four at a time, as bench/support/sign-in-server.mjs registers: each is an argon2 hash.
  let next = 0;
  const worker = async () => {
    while (next < seed.accounts.length)
      await identity.registration.register({ email: seed.accounts[next++], password: seed.password }, bench());
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const { key } = await context.app
    .get(ApiKeys)
    .create({ name: 'scim bench', scopes: ['organizations:read', 'organizations:write', 'audit:read'] }, bench());
  process.stdout.write(`${JSON.stringify({ organizationId: id, apiKey: key })}\n`);
} finally {
  await context.close();
}
