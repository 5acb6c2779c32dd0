// Which events move an organization's limits or its usage: the History's usage over time has a point after each
// (docs/console.md, History), and its read model keeps the state that limits are computed from after the first kind.

/** Events after which the effective limits may differ: they are computed again from the state after them. */
export const LIMIT_EVENT_TYPES: ReadonlySet<string> = new Set([
  'OrganizationCreated',
  'PlanAssigned',
  'PlanEnded',
  'AddOnPurchased',
  'AddOnCancelled',
  'ChorusEnabled',
  'ChorusDisabled',
  'LimitsConfigured',
]);

/** Events after which the usage may differ. */
export const USAGE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'MemberAdded',
  'MemberRemoved',
  'SiteAdded',
  'SiteRemoved',
]);
