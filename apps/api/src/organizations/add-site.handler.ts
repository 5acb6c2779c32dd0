import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from './command-result.js';
import { AddSiteCommand } from './add-site.command.js';
import { Organizations } from './organizations.service.js';

@CommandHandler(AddSiteCommand)
export class AddSiteHandler implements ICommandHandler<AddSiteCommand> {
  constructor(private readonly organizations: Organizations) {}

  async execute({ organizationId, site, context }: AddSiteCommand): Promise<CommandResult & { siteId: string }> {
    const siteId = randomUUID();
    const result = await this.organizations.handle(
      organizationId,
      { type: 'AddSite', data: { siteId, ...site } },
      context,
    );
    return { ...result, siteId };
  }
}
