// A directory's users as a persistent value, indexed by resource id, userName (any case), account and externalId: a
// create, a change or a lookup in a directory of 10,000 costs what it costs in one of ten, and the next state shares
// every other user with the one before (an array was copied at each event and its lookups checked against it).
// Generic over what it reads, so that the directory's module (which folds with it) is not imported back.
import { Map as PersistentMap } from 'immutable';
import {
  allHolders,
  firstHolder,
  inPlaceOrder,
  movedKey,
  type Holders,
  type UniqueIndex as Index,
} from '../persistent-index.js';

type Person = {
  readonly resourceId: string;
  readonly userId: string;
  readonly userName: string;
  readonly externalId?: string;
};

/** A user and their place: a new one when provisioned, the same one when changed. */
type Entry<U> = { readonly user: U; readonly place: number };

const nameKey = (userName: string): string => userName.toLowerCase();

export class DirectoryUserList<U extends Person> implements Iterable<U> {
  static empty<U extends Person>(): DirectoryUserList<U> {
    return new DirectoryUserList<U>(PersistentMap(), PersistentMap(), PersistentMap(), PersistentMap(), 0);
  }

  // Private fields: not enumerable, so equal lists are equal to jest and JSON whatever their trees look like.
  readonly #byResource: PersistentMap<string, Entry<U>>;
  readonly #byUserName: Index;
  readonly #byAccount: Index;
  readonly #byExternalId: Index;
  readonly #nextPlace: number;

  private constructor(
    byResource: PersistentMap<string, Entry<U>>,
    byUserName: Index,
    byAccount: Index,
    byExternalId: Index,
    nextPlace: number,
  ) {
    this.#byResource = byResource;
    this.#byUserName = byUserName;
    this.#byAccount = byAccount;
    this.#byExternalId = byExternalId;
    this.#nextPlace = nextPlace;
  }

  get size(): number {
    return this.#byResource.size;
  }

  get(resourceId: string): U | undefined {
    return this.#byResource.get(resourceId)?.user;
  }

  /** In any case: a userName is an address. */
  named(userName: string): U | undefined {
    return this.#first(this.#byUserName.get(nameKey(userName)));
  }

  ofAccount(userId: string): U | undefined {
    return this.#first(this.#byAccount.get(userId));
  }

  /** As given: the provider's own id is case-sensitive (RFC 7643 3.1). */
  withExternalId(externalId: string): U | undefined {
    return this.#first(this.#byExternalId.get(externalId));
  }

  /** A user provisioned takes a new place at the end; a resource already there is changed where it stands. */
  with(user: U): DirectoryUserList<U> {
    const existing = this.#byResource.get(user.resourceId);
    const place = existing?.place ?? this.#nextPlace;
    const before = existing?.user;
    return new DirectoryUserList(
      this.#byResource.set(user.resourceId, { user, place }),
      movedKey(this.#byUserName, before && nameKey(before.userName), nameKey(user.userName), user.resourceId),
      movedKey(this.#byAccount, before?.userId, user.userId, user.resourceId),
      movedKey(this.#byExternalId, before?.externalId, user.externalId, user.resourceId),
      existing === undefined ? this.#nextPlace + 1 : this.#nextPlace,
    );
  }

  /** Unchanged (the same value) when there is no such resource. */
  without(resourceId: string): DirectoryUserList<U> {
    const before = this.#byResource.get(resourceId)?.user;
    if (before === undefined) return this;
    return new DirectoryUserList(
      this.#byResource.delete(resourceId),
      movedKey(this.#byUserName, nameKey(before.userName), undefined, resourceId),
      movedKey(this.#byAccount, before.userId, undefined, resourceId),
      movedKey(this.#byExternalId, before.externalId, undefined, resourceId),
      this.#nextPlace,
    );
  }

  /** Every user of the account: one while the decider keeps accounts unique, all of them whatever the log says. */
  allOfAccount(userId: string): U[] {
    return allHolders(this.#byAccount.get(userId))
      .map((id) => this.get(id))
      .filter((user): user is U => user !== undefined);
  }

  [Symbol.iterator](): Iterator<U> {
    return this.toArray()[Symbol.iterator]();
  }

  /** Every user, in the order they were provisioned: for a listing, never to find one. */
  toArray(): U[] {
    return inPlaceOrder(this.#byResource.values()).map((entry) => entry.user);
  }

  toJSON(): U[] {
    return this.toArray();
  }

  #first(holders: Holders | undefined): U | undefined {
    const resourceId = firstHolder(holders);
    return resourceId === undefined ? undefined : this.get(resourceId);
  }
}
