// What the audit explorer's calls answer (apps/api/src/audit README): the timeline in words, the filters'
// choices, the state after an event with what it changed, a correlation, usage over time.
import type { Member, Organization, Position } from '../../../api/contract';

export type TimelineEntry = {
  recordedAt: string;
  revision: Position;
  position: Position;
  type: string;
  /** The event in words: "Member added: ann@example.com as admin". */
  description: string;
  /** As recorded: `user:<id>`, `api-key:<id>`, `billing`, `cli`. */
  actor: string;
  /** "ann@example.com", "API key “deploy”", "Billing", "Command line". */
  actorName: string;
  correlationId: string | null;
};

export type TimelinePage = {
  organizationId: string;
  order: 'newest' | 'oldest';
  entries: TimelineEntry[];
  next: Position | null;
};

export type HistoryFilters = { types: { type: string; name: string }[]; actors: { actor: string; name: string }[] };

export type TimelineFilter = { type?: string; actor?: string; from?: string; to?: string };

export type OrganizationChange = {
  area: string;
  kind: 'added' | 'removed' | 'changed';
  subject: string;
  before?: string;
  after?: string;
  text: string;
};

/** The organization as it was at a point (the same view as GET /organizations/:id/state). */
/** `members`: the first of them (the console asks for MEMBERS_LISTED_THEN); `memberCount`: how many there were. */
export type StateAt = Omit<Organization, 'owners'> & {
  members: Omit<Member, 'invited'>[];
  recordedAt: string;
};

export type ChangesAnswer = { entry: TimelineEntry; state: StateAt; changes: OrganizationChange[] };

export type CorrelatedEntry = TimelineEntry & { streamId: string };
export type CorrelationAnswer = {
  organizationId: string;
  correlationId: string;
  entries: CorrelatedEntry[];
  hasMore: boolean;
};

export type ResourceUse = { usage: number; limit: number | null; peak: number };
/** plan: whether a plan was in effect (without one nothing can be added, whatever the limit says). */
export type UsagePoint = {
  at: string;
  revision: Position;
  plan: boolean;
  users: ResourceUse;
  contentSections: ResourceUse;
};
export type UsageSeries = { organizationId: string; points: UsagePoint[]; merged: boolean };

/** GET /organizations/:id/history/proof: how far the log is verified and signed (docs/history.md). */
export type HistoryProof = {
  chained: boolean;
  checkpoint: { position: string; time: string; key: string; reason: string } | null;
  organizationCovered: boolean;
  failure: { position: string; reason: string; at: string } | null;
};

/** Where the state is shown: after a revision, or at an instant (ISO-8601 with its offset). */
export type StatePoint = { asOfRevision: Position } | { asOf: string };

/** GET /organizations/:id/history/sign-in-security: members' two-step sign-in, newest first. */
export type SignInSecurityEntry = {
  recordedAt: string;
  position: Position;
  type: string;
  description: string;
  member: { userId: string; email: string };
  actor: string;
  actorName: string;
  correlationId: string | null;
};
export type SignInSecurityPage = { organizationId: string; entries: SignInSecurityEntry[]; next: Position | null };
