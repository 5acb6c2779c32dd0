// Every read model, in the order the runner, rebuild and verify take them (also a rebuild's worker threads).
import { correlationProjection } from './correlation/correlation.projection.js';
import { organizationHistoryProjection } from './organization-history/organization-history.projection.js';
import { organizationProjection } from './organization/organization.projection.js';
import type { Projection } from './projection.js';
import { signInsProjection } from './sign-ins/sign-ins.projection.js';

export function readModelProjections(): Projection[] {
  return [organizationProjection(), correlationProjection(), signInsProjection(), organizationHistoryProjection()];
}
