import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '#event-store';
import { READ_MODELS, type Membership, type ReadModels } from '#read-models';

/** How long a user with no membership waits for the read model to catch up with the store. */
const catchUpMs = 1_000;

/** The organizations a user belongs to, from the organization read model (GET /session, Google's 'account' check). */
@Injectable()
export class Memberships {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async of(userId: string): Promise<Membership[]> {
    const memberships = this.readModels.organizations.organizationsOfUser(userId);
    if (memberships.length > 0) return memberships;
    // A member added a moment ago must not be told they belong nowhere: read again once caught up.
    const head = await this.store.headPosition();
    if (head === undefined || !(await this.readModels.waitForPosition(head, catchUpMs))) return memberships;
    return this.readModels.organizations.organizationsOfUser(userId);
  }
}
