import type { ExistingOrganization } from '../state.js';
import { LIMITED_RESOURCES } from '../../limits/limited-resources.js';
import { MAX_CONFIGURED_LIMIT, optionalBoolean, requireIntegerIn } from '../command-validation.js';

export type ConfigureLimits = { type: 'ConfigureLimits'; data: LimitsConfigured['data'] };

/** Each limit: a number (0 = unlimited) sets it; null clears it back to the plan-derived value. */
export type LimitsConfigured = {
  type: 'LimitsConfigured';
  data: {
    users?: number | null;
    contentSections?: number | null;
    qualityAssuranceDomains?: number | null;
    webAnalyticsDomains?: number | null;
    override?: boolean;
  };
};

/**
 * The event carries only what changes; nothing changing means no event. A limit below the current
 * usage is accepted: what exists stays, further adds are refused.
 */
export function configureLimits(command: ConfigureLimits, state: ExistingOrganization): LimitsConfigured[] {
  const changes: LimitsConfigured['data'] = {};
  for (const resource of LIMITED_RESOURCES) {
    const value: unknown = command.data[resource];
    if (value === undefined) continue;
    const setting = value === null ? null : requireIntegerIn(resource, value, 0, MAX_CONFIGURED_LIMIT);
    if (setting !== state.limits.configured[resource]) changes[resource] = setting;
  }
  const override = optionalBoolean('override', command.data.override);
  if (override !== undefined && override !== state.limits.override) changes.override = override;
  return Object.keys(changes).length === 0 ? [] : [{ type: 'LimitsConfigured', data: changes }];
}

/** Limits not in the event stay as they are. */
export function withLimitsConfigured(state: ExistingOrganization, { data }: LimitsConfigured): ExistingOrganization {
  const configured = { ...state.limits.configured };
  for (const resource of LIMITED_RESOURCES) {
    const value = data[resource];
    if (value !== undefined) configured[resource] = value;
  }
  return { ...state, limits: { configured, override: data.override ?? state.limits.override } };
}
