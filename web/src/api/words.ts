// The names the console gives the API's values: plans, add-ons, features, resources, sign-in methods.
import type { AddOn, ChorusFeature, LimitedResource, ServiceLevel, SignInMethod, SiteFeatures } from './contract';

export const RESOURCE_NAMES: Record<LimitedResource, string> = {
  users: 'Users',
  contentSections: 'Content sections',
  qualityAssuranceDomains: 'QA domains',
  webAnalyticsDomains: 'Web analytics domains',
};

export const ADD_ON_NAMES: Record<AddOn, string> = {
  additionalContentSection: 'Additional content section',
  additionalUser: 'Additional user',
  qualityAssurance: 'Quality assurance',
  webAnalytics: 'Web analytics',
  feedback: 'Feedback',
};

export const SERVICE_LEVEL_NAMES: Record<ServiceLevel, string> = { standard: 'Standard', assisted: 'Assisted', turnkey: 'Turnkey' };

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

export const SITE_FEATURE_NAMES: Record<keyof SiteFeatures, string> = {
  customCTAs: 'Custom calls to action',
  integrations: 'Integrations',
  live: 'Live view',
  logo: 'Own logo',
  reports: 'Reports',
  timeFilter: 'Time filter',
  timeFilterMigrated: 'New time filter',
  userInputs: 'User inputs',
  floatingShareButtons: 'Floating share buttons',
  anonymizeFeedback: 'Anonymized feedback',
};

export const SIGN_IN_METHOD_NAMES: Record<SignInMethod, string> = { password: 'Password', google: 'Google', invitation: 'Invitation', sso: 'Single sign-on' };

/** 'teams' -> 'Teams'; the line's name goes in front where both lines could be meant. */
export const planName = (plan: string): string => plan.charAt(0).toUpperCase() + plan.slice(1);

const numberFormat = new Intl.NumberFormat('en');
export const formatNumber = (value: number): string => numberFormat.format(value);
