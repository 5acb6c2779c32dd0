// The arithmetic of one limit. A Limit of null or 0 means unlimited (seed section 5).
import type { Limit } from '../plans/catalogue.js';

export const isUnlimited = (limit: Limit): boolean => limit === null || limit === 0;

export const normalizeLimit = (limit: Limit): Limit => (isUnlimited(limit) ? null : limit);

/** Numbers add, so a plan's 0 plus one add-on unit is 1. */
export const configuredLimit = (setting: number | null, planLimit: Limit, increment: number): Limit => {
  if (setting !== null) return setting;
  return planLimit === null ? null : planLimit + increment;
};

export const effectiveLimit = (configured: Limit, hard: Limit, override: boolean): Limit => {
  if (override || isUnlimited(hard)) return normalizeLimit(configured);
  if (isUnlimited(configured)) return normalizeLimit(hard);
  return Math.min(configured as number, hard as number);
};

export const isWithin = (limit: Limit, count: number): boolean => isUnlimited(limit) || count <= (limit as number);
