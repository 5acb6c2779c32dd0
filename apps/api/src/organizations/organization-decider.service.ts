import { Inject, Injectable } from '@nestjs/common';
import { decide, type OrganizationCommand, type PlanCatalogue } from '#domain';
import { WrongExpectedRevisionError, type EventMetadata } from '#event-store';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { requesterOf, type CommandContext } from './command-context.js';
import type { CommandResult } from './command-result.js';
import { OrganizationRepository } from './organization-repository.js';

/**
 * Attempts per command. Each lost race means another command on the same organization was recorded
 * meanwhile, so a command that loses this many times in a row answers CONCURRENCY_CONFLICT.
 */
export const MAX_DECISION_ATTEMPTS = 10;

/**
 * The one place organization commands are decided: load the stream (through the state cache), fold,
 * `decide`, append at the expected revision. On a concurrency conflict it re-reads and decides again, so
 * the caller sees a conflict only when the decision itself changed (e.g. the limit is now reached).
 */
@Injectable()
export class OrganizationDecider {
  constructor(
    private readonly organizations: OrganizationRepository,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  async handle(organizationId: string, command: OrganizationCommand, context: CommandContext): Promise<CommandResult> {
    const metadata: EventMetadata = {
      ...context.origin,
      actor: context.actor,
      correlationId: context.correlationId,
      causationId: context.causationId,
      commandType: command.type,
    };
    for (let attempt = 1; ; attempt += 1) {
      const loaded = await this.organizations.load(organizationId);
      const events = decide(command, loaded.state, { catalogue: this.catalogue, requester: requesterOf(context) });
      if (events.length === 0) {
        // Nothing to change (e.g. enabling Chorus again): answer where the organization already is.
        return { id: organizationId, revision: loaded.revision ?? -1n, position: loaded.position ?? -1n };
      }
      try {
        const recorded = await this.organizations.append(loaded, events, metadata);
        return { id: organizationId, revision: recorded.revision, position: recorded.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_DECISION_ATTEMPTS) throw error;
      }
    }
  }
}
