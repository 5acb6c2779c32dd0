// An organization's entitlements as the read model has them (docs/entitlements.md): computed from the
// organization's stored state and its member count, never its members list, and kept until the read
// models' next commit (a read between two commits costs one check).
import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { inSpan } from '#application';
import {
  organizationEntitlements,
  trafficAnchor,
  trafficPeriodOf,
  type Entitlement,
  type ExistingOrganization,
  type PlanCatalogue,
} from '#domain';
import { READ_MODELS, ReadModels } from '#read-models';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';

export type EntitlementSet = {
  organizationId: string;
  flags: ReadonlyMap<string, Entitlement>;
  /** Changes exactly when a flag's value or reason does (a hash of them, not of positions). */
  etag: string;
  /** The organization's last event the answer reflects. */
  position: bigint;
};

/** The OFREP bulk answer's ETag: a hash of the flags in their stable order. */
export const entitlementsEtag = (flags: ReadonlyMap<string, Entitlement>): string =>
  entitlementsEtagOfText(JSON.stringify([...flags]));
export const entitlementsEtagOfText = (flagsJson: string): string =>
  `"${createHash('sha256').update(flagsJson).digest('base64url').slice(0, 22)}"`;

/** This period's traffic as this node's read model has it: what the entitlements count as used. */
export const trafficNow = (readModels: ReadModels, organizationId: string, state: ExistingOrganization): number =>
  readModels.traffic.total(organizationId, trafficPeriodOf(new Date(), trafficAnchor(state.subscription)));

@Injectable()
export class OrganizationEntitlements {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  /**
   * undefined: no such organization in this node's read model. With tracing on, an `evaluate entitlements` span
   * (under the OFREP evaluation's request span, or the change stream's or the REST read's).
   */
  of(organizationId: string): EntitlementSet | undefined {
    return inSpan('evaluate entitlements', { attributes: { 'chorus.organization_id': organizationId } }, (span) => {
      const set = this.evaluate(organizationId);
      span?.setAttribute('chorus.found', set !== undefined);
      return set;
    });
  }

  private evaluate(organizationId: string): EntitlementSet | undefined {
    return this.readModels.derivedUntilNextCommit(`entitlements ${organizationId}`, () => {
      const counted = this.readModels.organizations.getCountedOrganization(organizationId);
      if (counted === undefined) return undefined;
      const trafficThisPeriod = trafficNow(this.readModels, organizationId, counted.state);
      const flags = organizationEntitlements(counted.state, this.catalogue, {
        users: counted.members,
        trafficThisPeriod,
      });
      return { organizationId, flags, etag: entitlementsEtag(flags), position: counted.position };
    });
  }
}
