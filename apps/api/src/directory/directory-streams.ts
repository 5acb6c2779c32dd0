// An organization's directory stream (docs/directory.md), as its tokens, users and groups read and change it: one
// cached fold per node, and the plan that includes directories.
import { Inject, Injectable } from '@nestjs/common';
import {
  FoldedStateCache,
  handleCommand,
  loadStream,
  type CommandContext,
  type DecisionReads,
  type StreamForDecision,
} from '#application';
import {
  directoryDecider,
  DomainError,
  hasSsoPlan,
  type Directory,
  type DirectoryCommand,
  type ExistingOrganization,
  type PlanCatalogue,
} from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { Organizations } from '../organizations/organizations.service.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { ScimError } from './scim-messages.js';

@Injectable()
export class DirectoryStreams {
  private readonly cache = new FoldedStateCache<Directory>(1_000);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly organizations: Organizations,
  ) {}

  /** Directories come with the enterprise plans; a SCIM call answers 403 once the plan no longer includes them. */
  async enterprise(organizationId: string, refusal: 'refuse' | 'scim'): Promise<ExistingOrganization> {
    const organization = await this.existing(organizationId);
    if (hasSsoPlan(organization, this.catalogue)) return organization;
    if (refusal === 'scim')
      throw new ScimError(403, 'The organization’s plan no longer includes directory provisioning.');
    throw new DomainError(
      'ENTERPRISE_PLAN_REQUIRED',
      'Directory provisioning (SCIM) comes with the enterprise plans.',
      { feature: 'scim' },
    );
  }

  async existing(organizationId: string): Promise<ExistingOrganization> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists)
      throw new DomainError('NOT_FOUND', 'The organization does not exist.', { entity: 'organization' });
    return state;
  }

  /** The directory's stream in a decision over several streams, read through this node's cache. */
  readFor(reads: DecisionReads, organizationId: string): Promise<StreamForDecision<Directory, DirectoryCommand>> {
    return reads.stream(directoryDecider, organizationId, { cache: this.cache });
  }

  async load(organizationId: string): Promise<Directory> {
    return (await loadStream(this.store, directoryDecider, organizationId, { cache: this.cache })).state;
  }

  async decide(organizationId: string, command: DirectoryCommand, context: CommandContext): Promise<Directory> {
    return (await handleCommand(this.store, directoryDecider, organizationId, command, context, { cache: this.cache }))
      .state;
  }
}
