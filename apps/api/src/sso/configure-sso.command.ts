import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '#application';
import type { CommandResult } from '../organizations/command-result.js';
import type { ConfigureSsoRequest } from './sso-requests.js';

/** Sets an organization's SSO (SsoConfigured) with the client secret in clear, which the handler seals. */
export class ConfigureSsoCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly settings: ConfigureSsoRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}
