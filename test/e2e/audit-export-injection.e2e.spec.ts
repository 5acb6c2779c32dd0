// CSV injection through the one free text that starts a cell of the history export: the acting member's
// address (actorName). Member addresses are refused with invisible characters now, but one recorded before
// that rule still begins with characters a spreadsheet skips before a formula: the export must hold.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { newCommandContext } from '#application';
import { READ_MODELS, type ReadModels } from '#read-models';
import { AddSiteCommand, ChangeOrganizationCommand } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';

const password = 'correct horse battery staple';
/** Each starts, behind an invisible character, with what a spreadsheet runs as a formula. */
const members = [
  { username: 'zero-width', email: '\u200B=1+2@evil.example' },
  { username: 'override', email: '\u202E+cmd@evil.example' },
  { username: 'joiner', email: '\u2060\u200D-2+3@evil.example' },
];
let app: AuthApp;
let organizationId: string;

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  const ownerId = await app.createUser({ email: 'owner@export.example', username: 'owner', password });
  organizationId = await app.createOrganization('Exported', { userId: ownerId, email: 'owner@export.example' });
  const commands = app.app.get(CommandBus);
  await commands.execute(
    new ChangeOrganizationCommand(
      organizationId,
      { type: 'ConfigureLimits', data: { contentSections: 10 } },
      newCommandContext('cli'),
    ),
  );
  for (const member of members) {
    // Recorded as MemberAdded was before addresses were checked as the mailer reads them: no account can have it now.
    const userId = randomUUID();
    const stream = `organization-${organizationId}`;
    const read = await app.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const revision = read.found ? (read.events[0]?.revision ?? 0n) : 0n;
    const metadata = { actor: 'cli', correlationId: randomUUID(), causationId: randomUUID() };
    await app.store.append(
      stream,
      [
        {
          id: randomUUID(),
          type: 'MemberAdded',
          data: { userId, email: member.email, role: 'admin', chorusUser: false },
          metadata,
        },
      ],
      revision,
    );
    // The member adds a site, as the member's own request would.
    await commands.execute(
      new AddSiteCommand(
        organizationId,
        { name: member.username, hostname: `${member.username}.export.example` },
        newCommandContext(`user:${userId}`),
      ),
    );
  }
  const head = await app.store.headPosition();
  await app.app.get<ReadModels>(READ_MODELS).waitForPosition(head ?? 0n, 10_000);
}, 60_000);

afterAll(async () => {
  await app.close();
});

describe('the CSV export', () => {
  it('keeps as text a member address that starts with a formula behind invisible characters', async () => {
    const owner = await app.signedIn('owner', password);
    const answer = await owner.get(`/organizations/${organizationId}/history/export?format=csv`);
    expect(answer.status).toBe(200);
    const records = answer.text.split('\r\n').filter((record) => record.includes('SiteAdded'));

    expect(records).toHaveLength(members.length);
    for (const member of members) {
      const record = records.find((line) => line.includes(`Site added: ${member.username} `));
      // actorName is the second to last field; the correlation id (Chorus's own uuid) the last.
      expect(record?.split(',').at(-2)).toBe(`'${member.email}`);
    }
  });
});
