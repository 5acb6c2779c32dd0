// The names people read for the domain's values: one table each, for the history's sentences and diffs
// and for the console (which imports this file through `@libs/domain/history/history-words`).
import type { LimitedResource } from '../errors.js';
import type { MemberRole } from '../organization/member-roles.js';
import type { AddOn, ChorusFeature, Line, ServiceLevel } from '../plans/catalogue.js';

// One number format for every count people read (history, exports, CLI, console): "1,000", never "1000".
const countFormat = new Intl.NumberFormat('en');
export const formatCount = (value: number): string => countFormat.format(value);

// Customers say "sites" (the seed: "content sections (sites)"): every text they read does, and the
// catalogue's "content section" stays in the API's field names (`contentSections`, `additionalContentSection`).
export const RESOURCE_NAMES: Record<LimitedResource, string> = {
  users: 'Users',
  contentSections: 'Sites',
  qualityAssuranceDomains: 'QA domains',
  webAnalyticsDomains: 'Web analytics domains',
};

export const ADD_ON_NAMES: Record<AddOn, string> = {
  additionalContentSection: 'Additional site',
  additionalUser: 'Additional user',
  qualityAssurance: 'Quality assurance',
  webAnalytics: 'Web analytics',
  feedback: 'Feedback',
};

export const SERVICE_LEVEL_NAMES: Record<ServiceLevel, string> = {
  standard: 'Standard',
  assisted: 'Assisted',
  turnkey: 'Turnkey',
};

export const CHORUS_FEATURE_NAMES: Record<ChorusFeature, string> = {
  multiSite: 'Several sites',
  multiUser: 'Several users',
  emailNotifications: 'E-mail notifications',
  feedback: 'Feedback',
  feedbackAssigning: 'Assigning feedback',
  feedbackLabeling: 'Labelling feedback',
  feedbackNotes: 'Notes on feedback',
  buttonToolGeneral: 'Button tool: general',
  buttonToolSentiment: 'Button tool: sentiment',
  buttonToolAfterReactions: 'Button tool: after reactions',
  buttonToolHistory: 'Button tool: history',
  significantChangesReport: 'Significant changes report',
  matomoIntegration: 'Matomo integration',
  disableAISummary: 'AI summary can be turned off',
  qualityAssurance: 'Quality assurance',
  webAnalytics: 'Web analytics',
  chatSupport: 'Chat support',
};

/** The product lines as sentences name them ("Plan assigned: Chorus teams"). */
export const LINE_NAMES: Record<Line, string> = { classic: 'Classic', chorus: 'Chorus' };

/** Roles inside a sentence ("as admin"). */
export const ROLE_WORDS: Record<MemberRole, string> = {
  owner: 'owner',
  admin: 'admin',
  member: 'member',
  auditor: 'auditor',
};
