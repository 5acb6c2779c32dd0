// One erasure, timed inside the process (the command line's own start aside): a person with 10,000 events of
// theirs (their account's sign-ins and sign-outs, and memberships in 10 organizations), erased as
// `chorus user:erase` does it, on the embedded store in DATA_DIR. Target: under 1 s.
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { loadConfig } from '../../dist/libs/config/src/index.js';
import { createCliContext } from '../../dist/apps/cli/src/cli-context.js';
import { caughtUpReadModels } from '../../dist/apps/cli/src/read-models-caught-up.js';
import {
  AddMemberCommand,
  ChangeOrganizationCommand,
  CreateOrganizationCommand,
  IDENTITY,
  PersonalDataErasure,
} from '../../dist/apps/api/src/index.js';
import { EVENT_STORE } from '../../dist/libs/event-store/src/index.js';

const EVENTS = 10_000;
const ORGANIZATIONS = 10;
const context = await createCliContext(loadConfig(process.env));
try {
  const commands = context.app.get(CommandBus);
  const { userId } = await context.app
    .get(IDENTITY)
    .registration.register({ email: 'erased.person@bench.example' }, context.commandContext('bench'));
  for (let index = 0; index < ORGANIZATIONS; index += 1) {
    const { id } = await commands.execute(
      new CreateOrganizationCommand({ name: `Erasure bench ${index}` }, context.commandContext('bench')),
    );
    await commands.execute(
      new ChangeOrganizationCommand(
        id,
        { type: 'AssignPlan', data: { line: 'classic', plan: 'professional' } },
        context.commandContext('bench'),
      ),
    );
    await commands.execute(
      new AddMemberCommand(
        id,
        { email: 'erased.person@bench.example', role: 'member', userId },
        context.commandContext('bench'),
      ),
    );
  }
  // The rest of their 10,000 events: sessions begun and ended on their own stream, appended 500 at a time. A real
  // history is spread over time: a sign-in every 4 hours back from now (about 2.3 years), each session 12 hours long,
  // so that only the last few could still be open, as for a real person.
  const store = context.app.get(EVENT_STORE);
  const metadata = {
    actor: `user:${userId}`,
    correlationId: 'bench',
    causationId: 'bench',
    clientIp: '203.0.113.9',
    userAgent: 'Bench/1.0',
  };
  const sessions = Math.ceil((EVENTS - 1 - ORGANIZATIONS) / 2);
  const now = Date.now();
  for (let from = 0; from < sessions; from += 250) {
    const batch = [];
    for (let index = from; index < Math.min(sessions, from + 250); index += 1) {
      const sessionId = randomUUID();
      const begun = now - (sessions - index) * 4 * 3_600_000;
      const at = new Date(begun).toISOString();
      const absoluteExpiresAt = new Date(begun + 12 * 3_600_000).toISOString();
      batch.push({
        id: randomUUID(),
        type: 'SignedIn',
        data: { sessionId, method: 'password', absoluteExpiresAt, at },
        metadata,
      });
      batch.push({
        id: randomUUID(),
        type: 'SignedOut',
        data: { sessionId, at: new Date(begun + 3_600_000).toISOString() },
        metadata,
      });
    }
    await store.append(`user-${userId}`, batch, 'stream_exists');
  }
  await caughtUpReadModels(context);

  const started = performance.now();
  const erased = await context.app.get(PersonalDataErasure).erase(userId, context.commandContext('user:erase'));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `erasure of a person with ${EVENTS.toLocaleString('en-US')} events in ${erased.organizationIds.length} organizations (target < 1 s): ${seconds.toFixed(3)} s`,
  );
} finally {
  await context.close();
}
