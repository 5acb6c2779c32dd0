// History's usage over time, a point per event: the users and sites in use after it, and after an event that may move
// the limits, the parts of the state they are computed from. The organization model keeps these points from
// USAGE_ROWS_FROM_REVISION on; the reader folds an organization's first events from its stream (one page, a few
// milliseconds), so a rebuild writes rows only for the organizations large enough to need them (bench/projections).
import {
  LIMIT_EVENT_TYPES,
  limitInputsOf,
  usage,
  USAGE_EVENT_TYPES,
  type ExistingOrganization,
  type LimitInputs,
} from '#domain';

/** The first revision the organization model keeps a usage row for: the events before it are one page of the stream. */
export const USAGE_ROWS_FROM_REVISION = 1_000;

/** An organization's usage after one of its events, whether that event may move it, and its limits' inputs. */
export type UsagePointRow = [
  revision: number,
  recordedAt: string,
  movesUsage: 0 | 1,
  users: number,
  contentSections: number,
  limits: LimitInputs | null,
];

/** The point after an event, from the state after it. */
export function usagePointAfter(
  event: { revision: bigint; recordedAt: string; type: string },
  state: ExistingOrganization,
): UsagePointRow {
  const inUse = usage(state);
  return [
    Number(event.revision),
    event.recordedAt,
    USAGE_EVENT_TYPES.has(event.type) ? 1 : 0,
    inUse.users,
    inUse.contentSections,
    LIMIT_EVENT_TYPES.has(event.type) ? limitInputsOf(state) : null,
  ];
}
