import { Command } from '@nestjs/cqrs';
import type { CancelAddOn } from '#domain';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Cancels units of an add-on, every active one when no quantity is given (AddOnCancelled). */
export class CancelAddOnCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly cancellation: CancelAddOn['data'],
    readonly context: CommandContext,
  ) {
    super();
  }
}
