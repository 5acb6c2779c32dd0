import { describe, it, expect } from '@jest/globals';
import fc from 'fast-check';
import {
  ADD_ONS,
  DomainError,
  foldOrganization,
  notificationRecipients,
  organizationStream,
  organizationView,
  type OrganizationCommand,
  type OrganizationEvent,
} from '#domain';
import { catalogue, ReadModelsFixture } from '../testing/read-models-fixture.js';

const organizationIds = ['alpha', 'beta', 'gamma'] as const;
const userIds = ['u1', 'u2', 'u3', 'u4'] as const;
const siteIds = ['s1', 's2', 's3'] as const;
const hostnames = ['www.example.com', 'bücher.example', 'https://shop.example.org/path', 'localhost', 'nodot'] as const;
const domains = ['qa.example.com', 'stats.example.com', 'müller.example'] as const;
const limit = fc.option(fc.integer({ min: 0, max: 4 }), { nil: null });

const command: fc.Arbitrary<OrganizationCommand> = fc.oneof(
  fc.record({
    type: fc.constant('CreateOrganization'),
    data: fc.record({ id: fc.constant(''), name: fc.constantFrom('Acme', 'Zeta') }),
  }),
  fc.record({
    type: fc.constant('AssignPlan'),
    data: fc.oneof(
      fc.record({ line: fc.constant('classic'), plan: fc.constantFrom('essential', 'professional', 'enterprise') }),
      fc.record(
        {
          line: fc.constant('chorus'),
          plan: fc.constantFrom('solo', 'teams', 'enterprise', 'light'),
          serviceLevel: fc.constantFrom('standard', 'assisted', 'turnkey'),
        },
        { requiredKeys: ['line', 'plan'] },
      ),
    ),
  }),
  fc.record({
    type: fc.constant('PurchaseAddOn'),
    data: fc.record({ addOn: fc.constantFrom(...ADD_ONS), quantity: fc.integer({ min: 1, max: 3 }) }),
  }),
  fc.record({
    type: fc.constant('CancelAddOn'),
    data: fc.record(
      { addOn: fc.constantFrom(...ADD_ONS), quantity: fc.integer({ min: 1, max: 3 }) },
      { requiredKeys: ['addOn'] },
    ),
  }),
  fc.record({
    type: fc.constant('EnableChorus'),
    data: fc.record({ parallelUse: fc.boolean() }, { requiredKeys: [] }),
  }),
  fc.record({ type: fc.constant('DisableChorus'), data: fc.constant({}) }),
  fc.record({
    type: fc.constant('ConfigureLimits'),
    data: fc.record(
      {
        users: limit,
        contentSections: limit,
        qualityAssuranceDomains: limit,
        webAnalyticsDomains: limit,
        override: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    type: fc.constant('AddMember'),
    data: fc.record({
      userId: fc.constantFrom(...userIds),
      email: fc.constantFrom('ada@example.com', 'bob@example.com'),
      role: fc.constantFrom('owner', 'admin', 'member', 'auditor'),
      chorusUser: fc.boolean(),
    }),
  }),
  fc.record({ type: fc.constant('RemoveMember'), data: fc.record({ userId: fc.constantFrom(...userIds) }) }),
  fc.record({
    type: fc.constant('AddSite'),
    data: fc.record({
      siteId: fc.constantFrom(...siteIds),
      name: fc.constantFrom('Shop', 'Blog'),
      hostname: fc.constantFrom(...hostnames),
    }),
  }),
  fc.record({ type: fc.constant('RemoveSite'), data: fc.record({ siteId: fc.constantFrom(...siteIds) }) }),
  fc.record({
    type: fc.constant('AddQualityAssuranceDomain'),
    data: fc.record({ domain: fc.constantFrom(...domains) }),
  }),
  fc.record({
    type: fc.constant('RemoveQualityAssuranceDomain'),
    data: fc.record({ domain: fc.constantFrom(...domains) }),
  }),
  fc.record({ type: fc.constant('AddWebAnalyticsDomain'), data: fc.record({ domain: fc.constantFrom(...domains) }) }),
  fc.record({
    type: fc.constant('RemoveWebAnalyticsDomain'),
    data: fc.record({ domain: fc.constantFrom(...domains) }),
  }),
) as fc.Arbitrary<OrganizationCommand>;

/** Commands addressed to organizations; CreateOrganization takes its target's id. */
const step = fc
  .tuple(fc.constantFrom(...organizationIds), command)
  .map(([id, next]): [string, OrganizationCommand] =>
    next.type === 'CreateOrganization' ? [id, { type: 'CreateOrganization', data: { ...next.data, id } }] : [id, next],
  );

const planOf = fc.constantFrom<OrganizationCommand>(
  { type: 'AssignPlan', data: { line: 'classic', plan: 'professional' } },
  { type: 'AssignPlan', data: { line: 'chorus', plan: 'teams' } },
  { type: 'AssignPlan', data: { line: 'chorus', plan: 'enterprise', serviceLevel: 'turnkey' } },
);

/** Each organization is created and usually on a plan first, so that most later commands are accepted. */
const scenario = fc
  .tuple(
    fc.array(planOf, { minLength: 2, maxLength: 2 }),
    fc.array(step, { minLength: 10, maxLength: 60, size: 'max' }),
    fc.array(step, { maxLength: 30, size: 'max' }),
  )
  .map(([plans, before, after]) => ({
    before: [
      ...organizationIds.map((id): [string, OrganizationCommand] => [
        id,
        { type: 'CreateOrganization', data: { id, name: id } },
      ]),
      ...plans.map((plan, index): [string, OrganizationCommand] => [organizationIds[index] ?? 'alpha', plan]),
      ...before,
    ],
    after,
  }));

async function run(fixture: ReadModelsFixture, steps: readonly [string, OrganizationCommand][]): Promise<void> {
  for (const [id, next] of steps) {
    try {
      await fixture.execute(id, next);
    } catch (error) {
      // The domain refusing a command is part of the story; anything else is not.
      if (!(error instanceof DomainError)) throw error;
    }
  }
}

describe('organization read model', () => {
  it('after any sequence of commands equals organizationView of the fold of the domain’s evolve', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ before, after }) => {
        const fixture = await ReadModelsFixture.create();
        try {
          await run(fixture, before);
          const readModels = fixture.readModels('inline', 5);
          // Half the story is caught up in batches, the other half arrives live.
          await run(fixture, after);
          expect(await readModels.waitForPosition(await fixture.head(), 10_000)).toBe(true);

          const memberships = new Map<string, { organizationId: string; name: string; role: string }[]>();
          for (const id of organizationIds) {
            const read = await fixture.store.readStream(organizationStream(id));
            const state = foldOrganization(
              read.found
                ? read.events.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent)
                : [],
            );
            if (!state.exists) {
              expect(readModels.organizations.getOrganization(id)).toBeUndefined();
              continue;
            }
            expect(readModels.organizations.getOrganization(id)?.view).toEqual(organizationView(state, catalogue));
            expect(readModels.organizations.getNotificationRecipients(id)?.recipients).toEqual(
              notificationRecipients(state),
            );
            for (const member of state.members) {
              memberships.set(member.userId, [
                ...(memberships.get(member.userId) ?? []),
                { organizationId: id, name: state.name, role: member.role },
              ]);
            }
          }
          for (const userId of userIds) {
            const expected = (memberships.get(userId) ?? []).sort((a, b) =>
              a.name === b.name ? 0 : a.name < b.name ? -1 : 1,
            );
            expect(readModels.organizations.organizationsOfUser(userId)).toEqual(expected);
          }
          expect((await readModels.verify()).map((verification) => verification.drift)).toEqual(
            readModels.projections.map(() => []),
          );
        } finally {
          await fixture.dispose();
        }
      }),
      { numRuns: 25 },
    );
  }, 40_000);
});
