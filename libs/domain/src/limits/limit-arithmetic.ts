// The arithmetic of one limit. A Limit of null or 0 means unlimited (seed section 5).
import type { Limit } from '../plans/catalogue.js';

export const isUnlimited = (limit: Limit): boolean => limit === null || limit === 0;

/** The same limit with unlimited always written as null. */
export const normalizeLimit = (limit: Limit): Limit => (isUnlimited(limit) ? null : limit);

/**
 * The configured limit: the organization's own setting when it has one (null = none), else the plan's
 * limit plus the add-on increments. An unlimited (null) plan limit stays unlimited; numbers add, so a
 * plan's 0 plus one add-on unit is 1.
 */
export const configuredLimit = (setting: number | null, planLimit: Limit, increment: number): Limit => {
  if (setting !== null) return setting;
  return planLimit === null ? null : planLimit + increment;
};

/** The lower of configured and hard (unlimited counts as infinite), or configured alone under override. Null = unlimited. */
export const effectiveLimit = (configured: Limit, hard: Limit, override: boolean): Limit => {
  if (override || isUnlimited(hard)) return normalizeLimit(configured);
  if (isUnlimited(configured)) return normalizeLimit(hard);
  return Math.min(configured as number, hard as number);
};

/** Whether `count` items stay within `limit`. */
export const isWithin = (limit: Limit, count: number): boolean => isUnlimited(limit) || count <= (limit as number);
