// The names the console gives the API's values: plans, add-ons, features, resources, sign-in methods.
// Those the history's sentences use too come from the domain's one table, so both say the same.
import { CHORUS_FEATURE_NAMES as DOMAIN_FEATURE_NAMES } from '@libs/domain/history/history-words';
import type { ChorusFeature, SignInMethod, SiteFeatures } from './contract';

// "Sites", never the catalogue's "content sections", in every text a customer reads (the domain's table says so).
export { ADD_ON_NAMES, RESOURCE_NAMES, SERVICE_LEVEL_NAMES } from '@libs/domain/history/history-words';

// A feature list reads "name: on/off", so a feature is named by what the organization can do.
export const CHORUS_FEATURE_NAMES: Record<ChorusFeature, string> = {
  ...DOMAIN_FEATURE_NAMES,
  disableAISummary: 'Turning off the AI summary',
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

export const SIGN_IN_METHOD_NAMES: Record<SignInMethod, string> = {
  password: 'Password',
  google: 'Google',
  invitation: 'Invitation',
  sso: 'Single sign-on',
};

/** 'teams' -> 'Teams'; the line's name goes in front where both lines could be meant. */
export const planName = (plan: string): string => plan.charAt(0).toUpperCase() + plan.slice(1);

// The one number format, the domain's (the history's sentences use it too): "1,000" wherever a count is shown.
export { formatCount as formatNumber } from '@libs/domain/history/history-words';
