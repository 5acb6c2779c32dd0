// An organization of `members` members written straight into a store, as a directory provisions them (users
// unlimited: a large organization is over every plan's own limit). members.mjs and reads.mjs measure against it.
import { randomUUID } from 'node:crypto';

const metadata = { actor: 'cli', correlationId: 'bench-seed', causationId: 'bench-seed' };

/** OrganizationCreated, PlanAssigned, LimitsConfigured, then `members` members added, in appends of 1,000. */
export async function seedOrganizationOfMembers(store, organizationStream, id, members) {
  const events = [
    { type: 'OrganizationCreated', data: { id, name: id } },
    { type: 'PlanAssigned', data: { line: 'classic', plan: 'enterprise' } },
    { type: 'LimitsConfigured', data: { users: 0, override: true } },
  ];
  for (let index = 0; index < members; index += 1) {
    const userId = `member-${index}`;
    events.push({
      type: 'MemberAdded',
      data: { userId, email: `${userId}@example.com`, role: index === 0 ? 'owner' : 'member', chorusUser: false },
    });
  }
  let expected = 'no_stream';
  for (let start = 0; start < events.length; start += 1_000) {
    const batch = events.slice(start, start + 1_000).map((event) => ({ id: randomUUID(), ...event, metadata }));
    expected = (await store.append(organizationStream(id), batch, expected)).nextExpectedRevision;
  }
}
