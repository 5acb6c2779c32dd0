import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { evolve, initialOrganizationState, organizationStream, type OrganizationEvent, type OrganizationState } from '#domain';
import { EVENT_STORE, type EventMetadata, type EventStore, type RecordedEvent } from '#event-store';
import { OrganizationStateCache, type FoldedOrganization } from './organization-state-cache.js';

/** An organization as loaded for a decision: revision and position are undefined while its stream does not exist. */
export type LoadedOrganization = {
  id: string;
  streamId: string;
  state: OrganizationState;
  revision: bigint | undefined;
  position: bigint | undefined;
};

/** A stored event of an organization stream, as the domain folds it (the store keeps only what evolve wrote). */
export const asOrganizationEvent = (event: RecordedEvent): OrganizationEvent => ({ type: event.type, data: event.data }) as OrganizationEvent;

/** A long history is read in pages, so that folding it never holds more than a page of events. */
export const READ_PAGE_SIZE = 1000;

/** Loads organizations from their streams (through the state cache) and appends their new events. */
@Injectable()
export class OrganizationRepository {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly cache: OrganizationStateCache,
  ) {}

  async load(organizationId: string): Promise<LoadedOrganization> {
    const streamId = organizationStream(organizationId);
    let folded = this.cache.get(streamId);
    for (;;) {
      const fromRevision = folded === undefined ? 0n : folded.revision + 1n;
      const read = await this.store.readStream(streamId, { fromRevision, maxCount: READ_PAGE_SIZE });
      if (!read.found) {
        this.cache.forget(streamId);
        folded = undefined;
        break;
      }
      for (const event of read.events) {
        const state = evolve(folded?.state ?? initialOrganizationState, asOrganizationEvent(event));
        folded = { state, revision: event.revision, position: event.position };
      }
      if (read.events.length < READ_PAGE_SIZE) break;
    }
    if (folded === undefined) {
      return { id: organizationId, streamId, state: initialOrganizationState, revision: undefined, position: undefined };
    }
    this.cache.remember(streamId, folded);
    return { id: organizationId, streamId, ...folded };
  }

  /** Appends at the loaded revision: WrongExpectedRevisionError when the stream moved on since. */
  async append(loaded: LoadedOrganization, events: readonly OrganizationEvent[], metadata: EventMetadata): Promise<FoldedOrganization> {
    const result = await this.store.append(
      loaded.streamId,
      events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata })),
      loaded.revision ?? 'no_stream',
    );
    const folded: FoldedOrganization = {
      state: events.reduce(evolve, loaded.state),
      revision: result.nextExpectedRevision,
      position: result.position,
    };
    this.cache.remember(loaded.streamId, folded);
    return folded;
  }
}
