import { describe, expect, it } from '@jest/globals';
import {
  ANY,
  EVENT_TYPE,
  NO_STREAM,
  STREAM_EXISTS,
  STREAM_NAME,
  type AllStreamJSONRecordedEvent,
} from '@eventstore/db-client';
import {
  isAfter,
  isSystemEvent,
  toEventStoreDbExpectedRevision,
  toRecordedEvent,
  toServerFilter,
} from './eventstoredb-mapping.js';

const stored: AllStreamJSONRecordedEvent = {
  streamId: 'org-1',
  id: '0b4d7c1e-7f55-4a8e-9d65-4c1f0e0f1a2b',
  isJson: true,
  revision: 4n,
  type: 'SiteAdded',
  created: new Date('2024-05-01T10:00:00.123Z'),
  data: { hostname: 'example.com' },
  metadata: { actor: 'user:1', correlationId: 'a', causationId: 'b' },
  position: { commit: 9_000n, prepare: 9_000n },
};

describe('Mapping between the port and EventStoreDB', () => {
  it('maps every expected revision', () => {
    expect(toEventStoreDbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toEventStoreDbExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toEventStoreDbExpectedRevision('any')).toBe(ANY);
    expect(toEventStoreDbExpectedRevision(7n)).toBe(7n);
  });

  it('reads the commit position as the position and `created` as recordedAt', () => {
    expect(toRecordedEvent(stored)).toEqual({
      id: stored.id,
      streamId: 'org-1',
      type: 'SiteAdded',
      data: { hostname: 'example.com' },
      metadata: { actor: 'user:1', correlationId: 'a', causationId: 'b' },
      recordedAt: '2024-05-01T10:00:00.123Z',
      revision: 4n,
      position: 9_000n,
    });
  });

  it('refuses an event whose position the server did not know rather than inventing one', () => {
    expect(() => toRecordedEvent({ ...stored, position: { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n } })).toThrow(
      /22\.10 or newer/,
    );
  });

  it('orders positions by commit, then prepare', () => {
    expect(isAfter({ commit: 5n, prepare: 5n }, undefined)).toBe(true);
    expect(isAfter({ commit: 5n, prepare: 5n }, { commit: 5n, prepare: 5n })).toBe(false);
    expect(isAfter({ commit: 5n, prepare: 6n }, { commit: 5n, prepare: 5n })).toBe(true);
    expect(isAfter({ commit: 4n, prepare: 9n }, { commit: 5n, prepare: 5n })).toBe(false);
  });

  it('recognises the server’s own streams and event types', () => {
    expect(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' })).toBe(true);
    expect(isSystemEvent({ streamId: 'org-1', type: '$metadata' })).toBe(true);
    expect(isSystemEvent({ streamId: 'org-1', type: 'SiteAdded' })).toBe(false);
  });

  it('asks the server to filter by stream prefix, else by exact event types, else to leave out system events', () => {
    expect(toServerFilter({ streamPrefixes: ['org-'], eventTypes: ['SiteAdded'] })).toMatchObject({
      filterOn: STREAM_NAME,
      prefixes: ['org-'],
    });
    const byType = toServerFilter({ eventTypes: ['Site.Added', 'MemberAdded'] });
    expect(byType).toMatchObject({ filterOn: EVENT_TYPE });
    const pattern = new RegExp('regex' in byType ? byType.regex : '');
    expect(['Site.Added', 'MemberAdded'].every((type) => pattern.test(type))).toBe(true);
    expect(['SiteXAdded', 'MemberAddedLater', 'OldMemberAdded'].some((type) => pattern.test(type))).toBe(false);
    expect(toServerFilter(undefined)).toMatchObject({ filterOn: EVENT_TYPE, regex: '^[^$].*' });
  });
});
