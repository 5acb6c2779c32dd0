// The names the console gives the API's values: plans, add-ons, features, resources, sign-in methods.
// Those the history's sentences use too come from the domain's one table, so both say the same.
import type { SignInMethod, SiteFeatures } from './contract';

export { ADD_ON_NAMES, CHORUS_FEATURE_NAMES, RESOURCE_NAMES, SERVICE_LEVEL_NAMES } from '@libs/domain/history/words';

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
