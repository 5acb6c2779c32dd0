import { Command } from '@nestjs/cqrs';
import type { PurchaseAddOn } from '#domain';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Buys units of an add-on (AddOnPurchased). */
export class PurchaseAddOnCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly purchase: PurchaseAddOn['data'],
    readonly context: CommandContext,
  ) {
    super();
  }
}
