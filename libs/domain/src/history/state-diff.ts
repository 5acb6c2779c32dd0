// Views are compared, not events, so derived values (effective limits, features in effect) show as auditors see them.
import type { LimitedResource } from '../errors.js';
import { LIMITED_RESOURCES } from '../limits/limited-resources.js';
import type { OrganizationView } from '../organization/view.js';
import { CHORUS_FEATURES, type AddOn, type Limit } from '../plans/catalogue.js';
import {
  ADD_ON_NAMES,
  CHORUS_FEATURE_NAMES,
  formatCount,
  LINE_NAMES,
  RESOURCE_NAMES,
  ROLE_WORDS,
  SERVICE_LEVEL_NAMES,
} from './history-words.js';

export type ChangeKind = 'added' | 'removed' | 'changed';
export type ChangeArea =
  'organization' | 'plan' | 'limits' | 'usage' | 'features' | 'members' | 'sites' | 'domains' | 'sso';

export type OrganizationChange = {
  area: ChangeArea;
  kind: ChangeKind;
  subject: string;
  before?: string;
  after?: string;
  text: string;
};

function change(
  area: ChangeArea,
  subject: string,
  before: string | undefined,
  after: string | undefined,
): OrganizationChange {
  if (before === undefined) return { area, kind: 'added', subject, after, text: `${subject}: ${after}` };
  if (after === undefined) return { area, kind: 'removed', subject, before, text: `${subject}: ${before}` };
  return { area, kind: 'changed', subject, before, after, text: `${subject}: ${before} → ${after}` };
}

function compare(
  area: ChangeArea,
  subject: string,
  before: string | undefined,
  after: string | undefined,
): OrganizationChange[] {
  return before === after ? [] : [change(area, subject, before, after)];
}

const limitWords = (limit: Limit): string => (limit === null ? 'unlimited' : formatCount(limit));
const onOff = (value: boolean): string => (value ? 'on' : 'off');
const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

function compareCollections<Item>(
  area: ChangeArea,
  before: readonly Item[],
  after: readonly Item[],
  keyOf: (item: Item) => string,
  describe: (item: Item) => string,
  subject: string,
  compareItem: (before: Item, after: Item) => OrganizationChange[] = () => [],
): OrganizationChange[] {
  const earlier = new Map(before.map((item) => [keyOf(item), item]));
  const later = new Map(after.map((item) => [keyOf(item), item]));
  const changes: OrganizationChange[] = [];
  for (const [key, item] of later) {
    const previous = earlier.get(key);
    changes.push(
      ...(previous === undefined ? [change(area, subject, undefined, describe(item))] : compareItem(previous, item)),
    );
  }
  for (const [key, item] of earlier)
    if (!later.has(key)) changes.push(change(area, subject, describe(item), undefined));
  return changes;
}

function planChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  const governing = (view: OrganizationView): string | undefined =>
    view.governingPlan === null ? undefined : `${LINE_NAMES[view.governingPlan.line]} ${view.governingPlan.plan}`;
  const parallelUse = (view: OrganizationView): string | undefined =>
    view.chorusDetails.parallelUse === null ? undefined : view.chorusDetails.parallelUse ? 'yes' : 'no';
  const addOns = (view: OrganizationView) =>
    (Object.entries(view.addOns) as [AddOn, number][]).map(([addOn, quantity]) => ({ addOn, quantity }));
  return [
    ...compare('plan', 'Classic plan', before.plan ?? undefined, after.plan ?? undefined),
    ...compare('plan', 'Chorus plan', before.chorusDetails.plan ?? undefined, after.chorusDetails.plan ?? undefined),
    ...compare('plan', 'Chorus', onOff(before.chorus), onOff(after.chorus)),
    ...compare('plan', 'Parallel use', parallelUse(before), parallelUse(after)),
    ...compare(
      'plan',
      'Service level',
      SERVICE_LEVEL_NAMES[before.serviceLevel],
      SERVICE_LEVEL_NAMES[after.serviceLevel],
    ),
    ...compare('plan', 'Limits come from', governing(before), governing(after)),
    ...compareCollections(
      'plan',
      addOns(before),
      addOns(after),
      ({ addOn }) => addOn,
      ({ addOn, quantity }) => `${ADD_ON_NAMES[addOn]} × ${quantity}`,
      'Add-on',
      (earlier, later) =>
        compare('plan', `Add-on ${ADD_ON_NAMES[later.addOn]}`, `× ${earlier.quantity}`, `× ${later.quantity}`),
    ),
    ...compare(
      'plan',
      'Traffic per month',
      before.trafficPerMonth === null ? planFigureWords(before, null) : formatCount(before.trafficPerMonth),
      after.trafficPerMonth === null ? planFigureWords(after, null) : formatCount(after.trafficPerMonth),
    ),
  ];
}

/** Without a plan in effect nothing is added, whatever "unlimited" the missing plan's figures say. */
const allowedWords = (view: OrganizationView, resource: LimitedResource): string =>
  view.governingPlan === null ? 'none without a plan' : limitWords(view.limits.effective[resource]);

const planFigureWords = (view: OrganizationView, limit: Limit, setByOperator = false): string =>
  view.governingPlan === null && !setByOperator ? 'no plan' : limitWords(limit);

function limitChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  const perResource = (resource: LimitedResource): OrganizationChange[] => {
    const name = lowerFirst(RESOURCE_NAMES[resource]);
    return [
      ...compare(
        'limits',
        `${RESOURCE_NAMES[resource]} limit`,
        allowedWords(before, resource),
        allowedWords(after, resource),
      ),
      ...compare(
        'limits',
        `Configured ${name} limit`,
        planFigureWords(before, before.limits.configured[resource], before.limits.setByOperator[resource]),
        planFigureWords(after, after.limits.configured[resource], after.limits.setByOperator[resource]),
      ),
      ...compare(
        'limits',
        `Hard ${name} limit`,
        planFigureWords(before, before.limits.hard[resource]),
        planFigureWords(after, after.limits.hard[resource]),
      ),
    ];
  };
  return [
    ...LIMITED_RESOURCES.flatMap(perResource),
    ...compare('limits', 'Override', onOff(before.limits.override), onOff(after.limits.override)),
  ];
}

function usageChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  return LIMITED_RESOURCES.flatMap((resource) =>
    compare(
      'usage',
      `${RESOURCE_NAMES[resource]} in use`,
      formatCount(before.usage[resource]),
      formatCount(after.usage[resource]),
    ),
  );
}

function featureChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  const turned = (name: string, was: boolean, is: boolean): OrganizationChange[] =>
    was === is ? [] : [change('features', 'Feature', was ? name : undefined, is ? name : undefined)];
  return [
    ...turned('Several sites (organization)', before.features.multiSite, after.features.multiSite),
    ...CHORUS_FEATURES.flatMap((feature) =>
      turned(CHORUS_FEATURE_NAMES[feature], before.chorusFeatures[feature], after.chorusFeatures[feature]),
    ),
  ];
}

function memberChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  type Member = OrganizationView['members'][number];
  const chorusUser = (member: Member): string => (member.chorusUser ? 'Chorus user' : 'not a Chorus user');
  return compareCollections(
    'members',
    before.members,
    after.members,
    (member) => member.userId,
    (member) => `${member.email} as ${ROLE_WORDS[member.role]}`,
    'Member',
    (earlier, later) => [
      ...compare('members', `Role of ${later.email}`, ROLE_WORDS[earlier.role], ROLE_WORDS[later.role]),
      ...compare('members', `Chorus user ${later.email}`, chorusUser(earlier), chorusUser(later)),
      ...compare('members', `E-mail of member ${later.userId}`, earlier.email, later.email),
    ],
  );
}

function siteChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  type Site = OrganizationView['sites'][number];
  return compareCollections(
    'sites',
    before.sites,
    after.sites,
    (site: Site) => site.siteId,
    (site: Site) => `${site.name} (${site.hostname})`,
    'Site',
    (earlier, later) => [
      ...compare('sites', `Name of site ${later.hostname}`, earlier.name, later.name),
      ...compare('sites', `Hostname of site ${later.name}`, earlier.hostname, later.hostname),
    ],
  );
}

function domainChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  const same = (domain: string) => domain;
  return [
    ...compareCollections(
      'domains',
      before.qualityAssurance.domains,
      after.qualityAssurance.domains,
      same,
      same,
      'QA domain',
    ),
    ...compareCollections(
      'domains',
      before.webAnalytics.domains,
      after.webAnalytics.domains,
      same,
      same,
      'Web analytics domain',
    ),
  ];
}

function ssoChanges(before: OrganizationView, after: OrganizationView): OrganizationChange[] {
  const words = (settings: OrganizationView['sso']['settings']): string | undefined =>
    settings === null
      ? undefined
      : `${settings.protocol === 'oidc' ? settings.issuer : `SAML ${settings.idpEntityId}`} for ${settings.domains.join(', ')}${settings.enforce ? ', required' : ''}${settings.trustProviderMfa ? ", the provider's MFA trusted" : ''}`;
  return compare('sso', 'Single sign-on', words(before.sso.settings), words(after.sso.settings));
}

/** Without `before`, only the creation is reported: listing every default as "added" would bury it. */
export function diffOrganizations(before: OrganizationView | undefined, after: OrganizationView): OrganizationChange[] {
  if (before === undefined) return [change('organization', 'Organization', undefined, after.name)];
  return [
    ...compare('organization', 'Name', before.name, after.name),
    ...planChanges(before, after),
    ...limitChanges(before, after),
    ...usageChanges(before, after),
    ...featureChanges(before, after),
    ...memberChanges(before, after),
    ...siteChanges(before, after),
    ...domainChanges(before, after),
    ...ssoChanges(before, after),
  ];
}
