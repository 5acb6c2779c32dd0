import { describe, expect, it } from '@jest/globals';
import type { EventMetadata, RecordedEvent } from '#event-store';
import { signInsProjection } from './sign-ins.projection.js';
import { SignInQueries } from './sign-ins.queries.js';
import { projectionUnderTest } from '../testing/projection-under-test.js';

const projection = signInsProjection();

let position = 0n;
function recorded(streamId: string, type: string, recordedAt: string): RecordedEvent {
  position += 1n;
  return {
    id: `event-${position}`,
    streamId,
    type,
    data: {},
    metadata: { actor: 'anonymous', correlationId: 'c', causationId: 'c' } as EventMetadata,
    recordedAt,
    revision: position,
    position,
  };
}

const log: RecordedEvent[] = [
  recorded('user-ada', 'UserRegistered', '2030-01-01T08:00:00.000Z'),
  recorded('user-ada', 'SignedIn', '2030-01-01T09:00:00.000Z'),
  recorded('user-grace', 'UserRegistered', '2030-01-01T09:10:00.000Z'),
  recorded('user-ada', 'SignedIn', '2030-01-02T09:00:00.000Z'),
  recorded('session-1', 'SignedIn', '2030-01-02T09:00:00.000Z'),
  recorded('organization-acme', 'MemberAdded', '2030-01-02T10:00:00.000Z'),
];

const subject = projectionUnderTest(projection, (db) => new SignInQueries(db));
const { commit } = subject;

const rows = (): unknown => subject.db.prepare('SELECT * FROM first_sign_ins ORDER BY user_id').all();

describe('sign-ins projection', () => {
  it('knows who signed in at least once, and when first', () => {
    commit(log);

    expect(subject.queries.signedInOnce(['ada', 'grace', 'nobody'])).toEqual(new Set(['ada']));
    expect(rows()).toEqual([{ user_id: 'ada', signed_in_at: '2030-01-01T09:00:00.000Z' }]);
    expect(subject.queries.signedInOnce([])).toEqual(new Set());
  });

  it('is idempotent: the same events applied again, one by one or all at once, leave the same rows', () => {
    commit(log);
    const once = rows();

    for (const event of log) commit([event]);
    expect(rows()).toEqual(once);
    commit([...log, ...log]);
    expect(rows()).toEqual(once);
  });

  it('writes in chunks when asked (the rebuild) and drops what was not flushed on discard', () => {
    for (const event of [
      recorded('user-a', 'SignedIn', 'x'),
      recorded('user-b', 'SignedIn', 'y'),
      recorded('user-c', 'SignedIn', 'z'),
    ])
      subject.writer.apply(event);
    expect(subject.writer.remembered).toBe(3);
    expect(subject.db.transaction(() => subject.writer.flush(2))()).toBe(false);
    expect(subject.writer.remembered).toBe(1);
    subject.writer.discard();

    expect(subject.writer.remembered).toBe(0);
    expect(subject.queries.signedInOnce(['a', 'b', 'c'])).toEqual(new Set(['a', 'b']));
  });
});
