import { describe, expect, it } from '@jest/globals';
import type { OrganizationEvent } from '../organization/events.js';
import { foldOrganization } from '../organization/evolve.js';
import { organizationView } from '../organization/organization-view.js';
import type { OrganizationView } from '../organization/view.js';
import { testCatalogue } from '../testing/given-when-then.js';
import {
  addOnCancelled,
  addOnPurchased,
  chorusEnabled,
  chorusPlanAssigned,
  classicPlanAssigned,
  limitsConfigured,
  memberAdded,
  organizationCreated,
  siteAdded,
} from '../testing/organization-events.js';
import { diffOrganizations } from './state-diff.js';

const viewOf = (events: OrganizationEvent[]): OrganizationView => {
  const state = foldOrganization(events);
  if (!state.exists) throw new Error('expected an organization');
  return organizationView(state, testCatalogue);
};

/** The changes `event` makes to the organization `history` built, as their one-line texts. */
const changesOf = (history: OrganizationEvent[], ...events: OrganizationEvent[]): string[] =>
  diffOrganizations(viewOf(history), viewOf([...history, ...events])).map((change) => change.text);

const essential = [organizationCreated('acme', 'Acme'), classicPlanAssigned('essential')];

describe('diffOrganizations', () => {
  it('two equal states: no change', () => {
    expect(diffOrganizations(viewOf(essential), viewOf(essential))).toEqual([]);
  });

  it('no state before (the creation): only the organization itself, added', () => {
    expect(diffOrganizations(undefined, viewOf([organizationCreated('acme', 'Acme')]))).toEqual([
      { area: 'organization', kind: 'added', subject: 'Organization', after: 'Acme', text: 'Organization: Acme' },
    ]);
  });

  it('a member added: the member, and the users in use', () => {
    const diff = diffOrganizations(
      viewOf([...essential, memberAdded(1, 'owner')]),
      viewOf([...essential, memberAdded(1, 'owner'), memberAdded(2, 'admin')]),
    );

    expect(diff).toEqual([
      { area: 'usage', kind: 'changed', subject: 'Users in use', before: '1', after: '2', text: 'Users in use: 1 → 2' },
      {
        area: 'members',
        kind: 'added',
        subject: 'Member',
        after: 'user2@example.com as admin',
        text: 'Member: user2@example.com as admin',
      },
    ]);
  });

  it('a member removed, and a role changed', () => {
    const history = [...essential, memberAdded(1, 'owner'), memberAdded(2, 'member')];

    expect(changesOf(history, { type: 'MemberRemoved', data: { userId: 'user-2' } })).toEqual([
      'Users in use: 2 → 1',
      'Member: user2@example.com as member',
    ]);
    expect(
      diffOrganizations(
        viewOf(history),
        viewOf([...history, { type: 'MemberRemoved', data: { userId: 'user-2' } }]),
      ).at(-1)?.kind,
    ).toBe('removed');
    expect(
      changesOf(history, {
        type: 'MemberRoleChanged',
        data: { userId: 'user-2', email: 'user2@example.com', role: 'admin', previousRole: 'member' },
      }),
    ).toEqual(['Role of user2@example.com: member → admin']);
  });

  it('a plan assigned: the plan, where the limits come from, the limits, the features and the traffic', () => {
    // Classic professional: 2 sites, users unlimited (the seed's table); before it, no plan: nothing could be added.
    const changes = diffOrganizations(
      viewOf([organizationCreated()]),
      viewOf([organizationCreated(), classicPlanAssigned('professional')]),
    );
    const texts = changes.map((change) => change.text);

    expect(changes[0]).toEqual({
      area: 'plan',
      kind: 'added',
      subject: 'Classic plan',
      after: 'professional',
      text: 'Classic plan: professional',
    });
    expect(texts).toContain('Limits come from: Classic professional');
    expect(texts).toContain('Sites limit: none without a plan → 2');
    expect(texts).toContain('Configured sites limit: no plan → 2');
    expect(texts).toContain('Feature: Several sites (organization)');
    expect(texts).toContain('Traffic per month: no plan → 2,000,000');
    // Back to no plan (the subscription ended): nothing can be added, never "unlimited".
    const ended = diffOrganizations(
      viewOf([organizationCreated(), classicPlanAssigned('professional')]),
      viewOf([
        organizationCreated(),
        classicPlanAssigned('professional'),
        { type: 'PlanEnded', data: { line: 'classic', plan: 'professional' } },
      ]),
    );
    expect(ended.map((change) => change.text)).toEqual(
      expect.arrayContaining(['Sites limit: 2 → none without a plan', 'Configured sites limit: 2 → no plan']),
    );
    expect(ended.filter((change) => change.area === 'limits' && change.after === 'unlimited')).toEqual([]);
    expect(new Set(changes.map((change) => change.area))).toEqual(new Set(['plan', 'limits', 'features']));
  });

  it('a plan changed: before and after', () => {
    expect(changesOf(essential, classicPlanAssigned('professional', 'assisted')).slice(0, 3)).toEqual([
      'Classic plan: essential → professional',
      'Service level: Standard → Assisted',
      'Limits come from: Classic essential → Classic professional',
    ]);
  });

  it('add-ons: bought, more bought, cancelled', () => {
    expect(changesOf(essential, addOnPurchased('additionalContentSection', 2))).toEqual([
      'Add-on: Additional site × 2',
      'Sites limit: 1 → 3',
      'Configured sites limit: 1 → 3',
    ]);
    expect(
      changesOf(
        [...essential, addOnPurchased('additionalContentSection', 2)],
        addOnCancelled('additionalContentSection', 1),
      )[0],
    ).toBe('Add-on Additional site: × 2 → × 1');
    const cancelled = diffOrganizations(
      viewOf([...essential, addOnPurchased('feedback')]),
      viewOf([...essential, addOnPurchased('feedback'), addOnCancelled('feedback')]),
    );
    expect(cancelled[0]).toMatchObject({ kind: 'removed', subject: 'Add-on', before: 'Feedback × 1' });
  });

  it('Chorus turned on: Chorus, the governing plan, the Chorus features turned on', () => {
    const history = [...essential, chorusPlanAssigned('teams')];
    const changes = diffOrganizations(viewOf(history), viewOf([...history, chorusEnabled(true)]));

    expect(changes.slice(0, 3).map((change) => change.text)).toEqual([
      'Chorus: off → on',
      'Parallel use: yes',
      'Limits come from: Classic essential → Chorus teams',
    ]);
    expect(
      changes.filter((change) => change.area === 'features' && change.kind === 'added').map((change) => change.after),
    ).toEqual(expect.arrayContaining(['Feedback', 'Matomo integration', 'E-mail notifications']));
    expect(changes.filter((change) => change.area === 'features' && change.kind === 'removed')).toEqual([]);
  });

  it('limits configured, unlimited and override in words', () => {
    expect(changesOf(essential, limitsConfigured({ contentSections: 0, override: true }))).toEqual([
      'Sites limit: 1 → unlimited',
      'Configured sites limit: 1 → unlimited',
      'Override: off → on',
    ]);
  });

  it('sites added, renamed through a repeated add, removed; domains', () => {
    const professional = [organizationCreated(), classicPlanAssigned('professional')];

    expect(changesOf(professional, siteAdded(1))).toEqual(['Sites in use: 0 → 1', 'Site: Site 1 (site1.example.com)']);
    expect(
      changesOf([...professional, siteAdded(1)], {
        type: 'SiteAdded',
        data: { siteId: 'site-1', name: 'Shop', hostname: 'xn--bcher-kva.de' },
      }),
    ).toEqual(['Name of site bücher.de: Site 1 → Shop', 'Hostname of site Shop: site1.example.com → bücher.de']);
    expect(
      diffOrganizations(
        viewOf([...professional, siteAdded(1)]),
        viewOf([...professional, siteAdded(1), { type: 'SiteRemoved', data: { siteId: 'site-1' } }]),
      ).at(-1),
    ).toEqual({
      area: 'sites',
      kind: 'removed',
      subject: 'Site',
      before: 'Site 1 (site1.example.com)',
      text: 'Site: Site 1 (site1.example.com)',
    });
    const enterprise = [organizationCreated(), chorusPlanAssigned('enterprise'), chorusEnabled()];
    expect(
      changesOf(enterprise, { type: 'QualityAssuranceDomainAdded', data: { domain: 'xn--mnchen-3ya.de' } }),
    ).toEqual(['QA domains in use: 0 → 1', 'QA domain: münchen.de']);
  });

  it('is pure: it changes neither state', () => {
    const before = viewOf(essential);
    const after = viewOf([...essential, memberAdded(1, 'owner')]);
    const copies = JSON.stringify([before, after]);

    diffOrganizations(before, after);
    expect(JSON.stringify([before, after])).toBe(copies);
  });

  it('turned around, every addition is a removal and every change goes back', () => {
    const before = viewOf(essential);
    const after = viewOf([...essential, memberAdded(1, 'owner'), addOnPurchased('feedback'), siteAdded(1)]);
    const forwards = diffOrganizations(before, after);
    const backwards = diffOrganizations(after, before);
    const opposite = { added: 'removed', removed: 'added', changed: 'changed' } as const;

    expect(backwards.map((change) => [change.subject, change.kind]).sort()).toEqual(
      forwards.map((change) => [change.subject, opposite[change.kind]]).sort(),
    );
  });
});
