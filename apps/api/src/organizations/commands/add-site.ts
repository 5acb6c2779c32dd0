import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandContext } from '#application';
import type { CommandResult } from '../command-result.js';
import { Organizations } from '../organizations.js';

/** Adds a content section within its limit (SiteAdded); answers the new site's id. */
export class AddSiteCommand extends Command<CommandResult & { siteId: string }> {
  constructor(
    readonly organizationId: string,
    /** hostname as typed: the domain normalizes it. */
    readonly site: { name: string; hostname: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(AddSiteCommand)
export class AddSiteHandler implements ICommandHandler<AddSiteCommand> {
  constructor(private readonly organizations: Organizations) {}

  async execute({ organizationId, site, context }: AddSiteCommand): Promise<CommandResult & { siteId: string }> {
    const siteId = randomUUID();
    const result = await this.organizations.handle(organizationId, { type: 'AddSite', data: { siteId, ...site } }, context);
    return { ...result, siteId };
  }
}
