// Forgetting a person (docs/privacy.md): every organization whose history holds them records MemberErased (their
// membership, if any, ends), their own records are erased (identifiers freed, sessions ended), and last their key
// is deleted, after which every value it sealed reads as "Erased person 3f2a". The last owner of an organization
// is refused before anything changes.
import { Inject, Injectable } from '@nestjs/common';
import type { CommandContext, PersonalKeys } from '#application';
import { CONFIG, type Config } from '#config';
import { DomainError, personSubject } from '#domain';
import { PERSONAL_KEYS } from '#event-store';
import type { HeldClaim, Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { IDENTITY } from '../auth/identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { DirectoryUsers } from '../directory/directory-users.service.js';
import { Organizations } from '../organizations/organizations.service.js';
import { recordErasure } from './erasure-records.js';

export type ErasureResult = { userId: string; organizationIds: string[]; position: bigint | undefined };

@Injectable()
export class PersonalDataErasure {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PERSONAL_KEYS) private readonly keys: PersonalKeys,
    private readonly directory: DirectoryUsers,
    @Inject(CONFIG) private readonly config: Config,
    private readonly clock: AppClock,
  ) {}

  /** The user id of an address (registered, or reserved for an invited member), or the id itself. */
  async personOf(addressOrUserId: string): Promise<string | undefined> {
    if (!addressOrUserId.includes('@')) return addressOrUserId;
    return this.identity.directory.idOfEmail(addressOrUserId);
  }

  /** Whether the read models or their own records still show the person: a membership, or an account not erased. */
  async stillShown(userId: string): Promise<boolean> {
    if (this.readModels.organizations.organizationsOfUser(userId).length > 0) return true;
    const { state } = await this.identity.users.load(userId);
    return state.status !== 'unregistered';
  }

  private organizationsOf(userId: string): string[] {
    const current = this.readModels.organizations
      .organizationsOfUser(userId)
      .map((membership) => membership.organizationId);
    return [...new Set([...this.readModels.memberSecurity.organizationsOfPerson(userId), ...current])];
  }

  /**
   * `again`: an erasure recorded before a restore (docs/operations.md), done whatever the restored state: it happened,
   * so the last owner it leaves behind is not a reason to refuse it. `claims`: the identifiers it freed then, by id,
   * for a person whose key is gone (their values cannot be read to be freed).
   */
  async erase(
    userId: string,
    context: CommandContext,
    { again = false, claims = [] }: { again?: boolean; claims?: readonly HeldClaim[] } = {},
  ): Promise<ErasureResult> {
    const organizationIds = this.organizationsOf(userId);
    const { state } = await this.identity.users.load(userId);
    if (state.status === 'unregistered' && state.erased !== true && organizationIds.length === 0) {
      if (!again) throw new DomainError('NOT_FOUND', 'No person has this id.', { entity: 'user', userId });
      // Restored to before they came: nothing of them is in the log, and their key goes.
      await this.keys.erase(personSubject(userId));
      return { userId, organizationIds, position: undefined };
    }
    if (!again) await this.refuseLastOwner(userId, organizationIds);
    const address = organizationIds
      .map((id) => this.readModels.memberSecurity.memberEmail(id, userId))
      .find((email) => email !== undefined);
    // An erasure is no organization manager's decision: the organizations record it as an operator's.
    const erasing = { ...context, actor: 'erasure' };
    let position: bigint | undefined;
    for (const organizationId of organizationIds) {
      position = (await this.organizations.handle(organizationId, { type: 'EraseMember', data: { userId } }, erasing))
        .position;
      await this.directory.erasePerson(organizationId, userId, erasing);
    }
    await this.identity.erasure.erase(userId, address, context, claims);
    await this.keys.erase(personSubject(userId));
    if (this.config.backupDir !== undefined && !again)
      await recordErasure(this.config.backupDir, {
        userId,
        erasedAt: this.clock.now().toISOString(),
        position: position === undefined ? null : position.toString(),
      });
    return { userId, organizationIds, position };
  }

  private async refuseLastOwner(userId: string, organizationIds: readonly string[]): Promise<void> {
    const owned: { id: string; name: string }[] = [];
    for (const id of organizationIds) {
      const { state } = await this.organizations.load(id);
      if (!state.exists) continue;
      if (state.members.owners === 1 && state.members.get(userId)?.role === 'owner')
        owned.push({ id, name: state.name });
    }
    if (owned.length > 0) {
      const names = owned.map((organization) => organization.name).join(', ');
      throw new DomainError('LAST_OWNER', `You are the last owner of ${names}: make someone else an owner first.`, {
        organizations: owned,
      });
    }
  }
}
