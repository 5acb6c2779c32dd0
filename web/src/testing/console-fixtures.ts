// What the server answers the console, for component tests: an organization on the Chorus teams plan
// and a stand-in server that answers the console's reads from it (writes are left to each test).
import { CHORUS_FEATURES, type Member, type MembersPage, type Organization, type SessionAnswer } from '../api/contract';
import type { FakeServer } from './fake-network';
import type { UndeliveredInvitation } from '../features/members/api/members-api';

const allFeatures = (on: boolean) =>
  Object.fromEntries(CHORUS_FEATURES.map((feature) => [feature, on])) as Organization['chorusFeatures'];

export const member = (email: string, role: Member['role'], overrides: Partial<Member> = {}): Member => ({
  userId: `id-${email.split('@')[0]}`,
  email,
  role,
  chorusUser: false,
  invited: false,
  ...overrides,
});

/** What the stand-in server holds: the organization and every member, which it answers a page at a time. */
export type StoredOrganization = Organization & { members: Member[] };

/** The count and the owners, as the server derives them from its members. */
const counted = (organization: StoredOrganization): StoredOrganization => ({
  ...organization,
  memberCount: organization.members.length,
  owners: organization.members
    .filter((member) => member.role === 'owner')
    .map(({ userId, email }) => ({ userId, email })),
});

/** Acme on the Chorus teams plan (5 users, hard limit 10; 2 content sections), Chorus on, Ada its owner. */
export function anOrganization(overrides: Partial<StoredOrganization> = {}): StoredOrganization {
  return counted({
    id: 'acme',
    name: 'Acme',
    plan: null,
    chorus: true,
    chorusDetails: { plan: 'teams', parallelUse: null },
    chorusFeatures: {
      ...allFeatures(true),
      disableAISummary: false,
      qualityAssurance: false,
      webAnalytics: false,
      chatSupport: false,
    },
    features: { multiSite: true },
    serviceLevel: 'standard',
    addOns: {},
    governingPlan: { line: 'chorus', plan: 'teams' },
    siteDefaults: {
      features: {
        customCTAs: true,
        integrations: true,
        live: true,
        logo: true,
        reports: true,
        timeFilter: true,
        timeFilterMigrated: true,
        userInputs: true,
        floatingShareButtons: true,
        anonymizeFeedback: false,
      },
      report: { weekly: true, monthly: true },
      live: true,
    },
    limits: {
      configured: { users: 5, contentSections: 2, qualityAssuranceDomains: null, webAnalyticsDomains: 1000 },
      hard: { users: 10, contentSections: null, qualityAssuranceDomains: null, webAnalyticsDomains: null },
      effective: { users: 5, contentSections: 2, qualityAssuranceDomains: null, webAnalyticsDomains: 1000 },
      override: false,
    },
    usage: { users: 1, contentSections: 0, qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
    canAdd: { users: true, contentSections: true, qualityAssuranceDomains: false, webAnalyticsDomains: false },
    trafficPerMonth: 1_000_000,
    traffic: { period: '2030-03', used: 120_000, allowance: 1_000_000, reached: [] },
    members: [member('ada@acme.example', 'owner')],
    memberCount: 1,
    owners: [],
    sites: [],
    qualityAssurance: { domains: [] },
    webAnalytics: { domains: [] },
    sso: { available: false, settings: null },
    revision: 4,
    position: 40,
    ...overrides,
  });
}

/** The organization with `count` members (Ada the owner first), its usage and canAdd to match. */
export function withMembers(organization: StoredOrganization, members: Member[]): StoredOrganization {
  const limit = organization.limits.effective.users;
  return counted({
    ...organization,
    members,
    usage: { ...organization.usage, users: members.length },
    canAdd: { ...organization.canAdd, users: limit === null || members.length < limit },
  });
}

/**
 * GET /organizations/:id/members as the server pages it: `after` is opaque to the console (here, how many came
 * before), `q` part of an address in any case.
 */
export function membersPage(organization: StoredOrganization, search: URLSearchParams): MembersPage {
  const q = (search.get('q') ?? '').toLowerCase();
  const matching = organization.members.filter((member) => member.email.toLowerCase().includes(q));
  const from = Number(search.get('after') ?? 0);
  const limit = Number(search.get('limit') ?? 50);
  const members = matching.slice(from, from + limit);
  const next = from + limit < matching.length ? String(from + limit) : null;
  return { organizationId: organization.id, members, total: matching.length, next };
}

export const adaSession = (
  organizations: SessionAnswer['organizations'] = [{ id: 'acme', name: 'Acme', role: 'owner' }],
): SessionAnswer => ({
  user: { id: 'id-ada', email: 'ada@acme.example', username: null },
  organizations,
});

/** Answers GET /session and GET /organizations/:id (and its recipients) from what the test holds now. */
export function consoleServer(state: {
  session: SessionAnswer;
  organizations: StoredOrganization[];
  undelivered?: UndeliveredInvitation[];
}): FakeServer {
  return ({ url, method }) => {
    if (method !== 'GET') return undefined;
    const path = url.split('?')[0] ?? url;
    if (path === '/session') return { status: 200, body: state.session };
    // Mails refused for good (owners and admins): none unless the test says so.
    if (/^\/organizations\/[^/]+\/members\/invitation-failures$/.test(path))
      return { status: 200, body: { failures: state.undelivered ?? [] } };
    // The members' sign-in security (History): nothing yet.
    const security = /^\/organizations\/([^/]+)\/history\/sign-in-security$/.exec(path);
    if (security)
      return { status: 200, body: { organizationId: decodeURIComponent(security[1] ?? ''), entries: [], next: null } };
    // The Account page's second factors: none.
    if (path === '/account/two-step')
      return {
        status: 200,
        body: { confirmWith: 'password', authenticatorApp: null, passkeys: [], recoveryCodes: null, requiredBy: [] },
      };
    // Two-step sign-in (owners and admins): not required, and no member has a second factor; paged as the members are.
    const twoStep = /^\/organizations\/([^/]+)\/two-step-sign-in$/.exec(path);
    if (twoStep) {
      const found = state.organizations.find((candidate) => candidate.id === decodeURIComponent(twoStep[1] ?? ''));
      const organization = counted(found ?? anOrganization({ members: [] }));
      const page = membersPage(organization, new URLSearchParams(url.split('?')[1] ?? ''));
      const members = page.members.map(({ userId, email, role }) => ({ userId, email, role, secondFactor: false }));
      return {
        status: 200,
        body: {
          required: false,
          members,
          total: page.total,
          next: page.next,
          withoutSecondFactor: organization.memberCount,
        },
      };
    }
    const read = /^\/organizations\/([^/]+)(\/notification-recipients|\/members)?$/.exec(path);
    if (read) {
      const found = state.organizations.find((candidate) => candidate.id === decodeURIComponent(read[1] ?? ''));
      if (found === undefined)
        return { status: 404, body: { code: 'NOT_FOUND', status: 404, detail: 'no such organization' } };
      const search = new URLSearchParams(url.split('?')[1] ?? '');
      // A test may have changed the members since: the count and the owners follow them, as on the server.
      const organization = counted(found);
      if (read[2] === '/members') return { status: 200, body: membersPage(organization, search) };
      if (read[2] === undefined) {
        if (search.get('members') !== 'none') return { status: 200, body: organization };
        const { members: _members, ...answer } = organization;
        return { status: 200, body: answer };
      }
      return {
        status: 200,
        body: {
          organizationId: organization.id,
          recipients: organization.chorus ? organization.members : [],
          position: organization.position,
        },
      };
    }
    return undefined;
  };
}
