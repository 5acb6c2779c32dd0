// An organization's members as a persistent value: adding, changing or removing one shares everything else with the
// list before it, so a command in an organization of 100,000 costs what it costs in one of 100 (an array copied and
// scanned at each event grew with the organization). The order people joined in is each one's place, sorted only when
// the whole list is read: Immutable.js's ordered map, which keeps it for every change, cost twice as much to fold.
import { Map as PersistentMap } from 'immutable';
import { firstHolder, inPlaceOrder, movedKey, type UniqueIndex } from '../persistent-index.js';
import type { MemberRole } from './member-roles.js';

export type Member = {
  readonly userId: string;
  readonly email: string;
  readonly role: MemberRole;
  readonly chorusUser: boolean;
};

/** A member and the place they were given: a new place each time they are added, the same one when they change. */
type Entry = { readonly member: Member; readonly place: number };

const addressKey = (email: string): string => email.toLowerCase();

export class Members implements Iterable<Member> {
  static readonly none = new Members(PersistentMap(), PersistentMap(), 0, 0);

  static of(members: Iterable<Member>): Members {
    return Members.none.withAll(members);
  }

  // Private fields: not enumerable, so two lists with the same members in the same order are equal to jest and
  // JSON alike, whatever their trees look like.
  readonly #byUser: PersistentMap<string, Entry>;
  readonly #byAddress: UniqueIndex;
  readonly #owners: number;
  readonly #nextPlace: number;

  private constructor(byUser: PersistentMap<string, Entry>, byAddress: UniqueIndex, owners: number, nextPlace: number) {
    this.#byUser = byUser;
    this.#byAddress = byAddress;
    this.#owners = owners;
    this.#nextPlace = nextPlace;
  }

  get size(): number {
    return this.#byUser.size;
  }

  get owners(): number {
    return this.#owners;
  }

  get(userId: string): Member | undefined {
    return this.#byUser.get(userId)?.member;
  }

  has(userId: string): boolean {
    return this.#byUser.has(userId);
  }

  /** The member whose address this is, in any case. */
  withAddress(address: string): Member | undefined {
    const userId = firstHolder(this.#byAddress.get(addressKey(address)));
    return userId === undefined ? undefined : this.get(userId);
  }

  /**
   * Where the member stands in the list: a number that grows with each addition. A member added again gets a new
   * one (they move to the end); a change of role keeps it.
   */
  placeOf(userId: string): number | undefined {
    return this.#byUser.get(userId)?.place;
  }

  /** The member added at the end; someone already a member is taken out of their place first. */
  with(member: Member): Members {
    return this.withAll([member]);
  }

  /**
   * Each member added in turn, as `with` one after another would, in one batch: a history's thousands of additions
   * fold several times faster than one at a time (Immutable.js changes its trees in place while it builds them).
   */
  withAll(added: Iterable<Member>): Members {
    let owners = this.#owners;
    let nextPlace = this.#nextPlace;
    const byAddress = this.#byAddress.asMutable();
    const byUser = this.#byUser.withMutations((entries) => {
      for (const member of added) {
        const existing = entries.get(member.userId)?.member;
        entries.set(member.userId, { member, place: nextPlace });
        nextPlace += 1;
        moveAddress(byAddress, existing, member);
        owners += ownerCount(member) - ownerCount(existing);
      }
    });
    return new Members(byUser, byAddress.asImmutable(), owners, nextPlace);
  }

  /** The member's new role, in the same place; unchanged when they are not a member. */
  withRole(userId: string, role: MemberRole): Members {
    const existing = this.#byUser.get(userId);
    if (existing === undefined) return this;
    const member = { ...existing.member, role };
    return new Members(
      this.#byUser.set(userId, { member, place: existing.place }),
      this.#byAddress,
      this.#owners - ownerCount(existing.member) + ownerCount(member),
      this.#nextPlace,
    );
  }

  /** Unchanged (the same value) when they are not a member. */
  without(userId: string): Members {
    const existing = this.#byUser.get(userId);
    if (existing === undefined) return this;
    return new Members(
      this.#byUser.delete(userId),
      moveAddress(this.#byAddress, existing.member, undefined),
      this.#owners - ownerCount(existing.member),
      this.#nextPlace,
    );
  }

  [Symbol.iterator](): Iterator<Member> {
    return this.toArray()[Symbol.iterator]();
  }

  /** Every member, in order: for what concerns them all (a view, a mail to everyone), never to find one. */
  toArray(): Member[] {
    return inPlaceOrder(this.#byUser.values()).map((entry) => entry.member);
  }

  toJSON(): Member[] {
    return this.toArray();
  }
}

/** The address index after a member's address changes hands (either side undefined: no member). */
const moveAddress = (byAddress: UniqueIndex, before: Member | undefined, after: Member | undefined): UniqueIndex =>
  movedKey(
    byAddress,
    before === undefined ? undefined : addressKey(before.email),
    after === undefined ? undefined : addressKey(after.email),
    (after ?? before)?.userId as string,
  );

const ownerCount = (member: Member | undefined): number => (member?.role === 'owner' ? 1 : 0);
