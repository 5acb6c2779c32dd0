// A person's own records, forgotten: the identifiers they held are freed first (an address or username signs up
// again as a new person), then PersonalDataErased ends their sessions. The key that sealed their data is deleted
// by the caller last, once nothing more needs to read it in clear (docs/privacy.md).
import type { CommandContext } from '#application';
import type { ClaimKind, PersonalDataErased } from '#domain';
import type { Sessions } from '../sessions/sessions.js';
import { normalizeEmail } from '../user/identifiers.js';
import type { HeldClaim, UserClaims } from '../user/user-claims.js';
import type { Users } from '../user/users.js';

export class PersonErasure {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly sessions: Sessions,
  ) {}

  /**
   * `address`: the person's address when they never registered (an invited member), for the claim it holds.
   * `claims`: claims to free by id, whose values cannot be read any more (a restore, docs/operations.md).
   */
  async erase(
    userId: string,
    address: string | undefined,
    context: CommandContext,
    claims: readonly HeldClaim[] = [],
  ): Promise<void> {
    const { state } = await this.users.load(userId);
    const held: [ClaimKind, string][] = [];
    if (state.status === 'registered') {
      held.push(['email', state.email]);
      if (state.username !== null) held.push(['username', state.username]);
      if (state.googleSubject !== null) held.push(['google', state.googleSubject]);
    } else if (address !== undefined) {
      held.push(['email', normalizeEmail(address)]);
    }
    for (const [kind, value] of held) await this.claims.release(kind, value, userId, context);
    for (const claim of claims) await this.claims.releaseClaim(claim, userId, context);
    const { events } = await this.users.handle(userId, { type: 'ErasePersonalData', data: { userId } }, context);
    const erased = events.find((event): event is PersonalDataErased => event.type === 'PersonalDataErased');
    if (erased !== undefined) await this.sessions.endAll(erased.data.endedSessionIds, 'erased', context);
  }
}
