import type { TrafficThreshold } from '../../usage/traffic.js';
import { invalid } from '../command-validation.js';
import type { ExistingOrganization } from '../state.js';

/** Recorded once per threshold and month, however often (or on however many nodes) it is told. */
export type RecordTrafficThreshold = {
  type: 'RecordTrafficThreshold';
  data: { period: string; threshold: TrafficThreshold; used: number; allowance: number; late?: boolean };
};

/** late: reached by reports that came after the month ended; the owners are not mailed. */
export type TrafficThresholdReached = {
  type: 'TrafficThresholdReached';
  data: { period: string; threshold: 80 | 100; used: number; allowance: number; late?: true };
};

export function recordTrafficThreshold(
  command: RecordTrafficThreshold,
  state: ExistingOrganization,
): TrafficThresholdReached[] {
  const { period, threshold, used, allowance, late = false } = command.data;
  if (typeof period !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(period))
    throw invalid('period', 'invalid_format', 'period must be a month, YYYY-MM.');
  if (threshold !== 80 && threshold !== 100) throw invalid('threshold', 'out_of_range', 'threshold must be 80 or 100.');
  if (![used, allowance].every((value) => Number.isSafeInteger(value) && value >= 0))
    throw invalid('used', 'out_of_range', 'used and allowance must be counts.');
  if (state.trafficThresholdsReached?.[period]?.includes(threshold)) return [];
  return [{ type: 'TrafficThresholdReached', data: { period, threshold, used, allowance, ...(late ? { late } : {}) } }];
}

export function withTrafficThresholdReached(
  state: ExistingOrganization,
  { data }: TrafficThresholdReached,
): ExistingOrganization {
  const { period, threshold } = data;
  const reached = state.trafficThresholdsReached ?? {};
  return { ...state, trafficThresholdsReached: { ...reached, [period]: [...(reached[period] ?? []), threshold] } };
}
