import type { LimitedResource } from '../errors.js';

export const LIMITED_RESOURCES: readonly LimitedResource[] = [
  'users',
  'contentSections',
  'qualityAssuranceDomains',
  'webAnalyticsDomains',
];

/** Seed section 9: "The web analytics domain limit is fixed at 1000 and never reached." */
export const WEB_ANALYTICS_DOMAIN_LIMIT = 1000;
