import { Module } from '@nestjs/common';
import { OwnerMailReaction } from './owner-mail-reaction.js';

/** The owners' mails about their organization's events, sent once across nodes (owner-mail-reaction.ts). */
@Module({ providers: [OwnerMailReaction] })
export class OwnerMailsModule {}
