import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { AppendTooLargeError, MAX_APPEND_SIZE, type EventToAppend } from './event-store.port.js';
import {
  appendSize,
  assertAppendSize,
  assertValidAppend,
  isCanonicalUuid,
  serializeEvents,
} from './request-validation.js';

const metadata = { actor: 'user:test', correlationId: 'c', causationId: 'c' };
const anEvent = (data: unknown = { value: 1 }): EventToAppend => ({
  id: randomUUID(),
  type: 'SomethingHappened',
  data,
  metadata,
});

/** One event whose data holds `count` times `character`. */
const eventOf = (character: string, count: number) =>
  serializeEvents('org-1', [anEvent({ blob: character.repeat(count) })]);

const refusalOf = (check: () => void): unknown => {
  try {
    check();
    return undefined;
  } catch (error) {
    return error;
  }
};

/** The most characters of `character` an append can hold within `size` bytes. */
const mostWithin = (character: string, size: number) =>
  Math.floor((size - appendSize(eventOf(character, 0))) / Buffer.byteLength(character));

describe('The checks of an append', () => {
  it('counts UTF-8 bytes: characters of 2, 3 and 4 bytes over 1 MiB are refused though their UTF-16 length is under it', () => {
    for (const character of ['é', '€', '😀']) {
      const most = mostWithin(character, MAX_APPEND_SIZE);
      const within = eventOf(character, most);
      const over = eventOf(character, most + 1);

      expect(appendSize(within)).toBeLessThanOrEqual(MAX_APPEND_SIZE);
      expect(() => assertAppendSize('org-1', within)).not.toThrow();
      expect(over[0]?.data.length).toBeLessThan(MAX_APPEND_SIZE / 2);
      const refusal = refusalOf(() => assertAppendSize('org-1', over));
      expect(refusal).toBeInstanceOf(AppendTooLargeError);
      expect(refusal).toMatchObject({ streamId: 'org-1', size: appendSize(over), maxSize: MAX_APPEND_SIZE });
    }
  });

  it('takes as event ids exactly the lower-case canonical uuids, whatever character is changed where', () => {
    const canonical = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const id = randomUUID();
    const variants = [
      '',
      id.slice(1),
      `${id}0`,
      `{${id}}`,
      id.toUpperCase(),
      id.replaceAll('-', ''),
      '00000000-0000-0000-0000-000000000000',
    ];
    // Every position of an id, changed to a character around each class it takes or refuses.
    for (let index = 0; index < id.length; index += 1) {
      for (const character of [
        '/',
        '0',
        '9',
        ':',
        '`',
        'a',
        'f',
        'g',
        'A',
        'F',
        '-',
        ',',
        '.',
        ' ',
        '\n',
        'é',
        '０',
        '😀',
      ]) {
        variants.push(`${id.slice(0, index)}${character}${id.slice(index + 1)}`);
      }
    }

    expect(isCanonicalUuid(id)).toBe(true);
    for (const variant of variants)
      expect([variant, isCanonicalUuid(variant)]).toEqual([variant, canonical.test(variant)]);
    const upper = id.toUpperCase();
    expect(() => assertValidAppend('org-1', [{ ...anEvent(), id: upper }], 'any')).toThrow(
      `event id ${upper} is not a lower-case uuid`,
    );
  });

  it('accepts one event, and refuses an id repeated in one append', () => {
    const event = anEvent();

    expect(() => assertValidAppend('org-1', [event], 'any')).not.toThrow();
    expect(() => assertValidAppend('org-1', [event, anEvent(), { ...event }], 'any')).toThrow(
      `event id ${event.id} appears twice`,
    );
  });

  it('refuses data JSON cannot represent, naming the stream, the event and the part', () => {
    const event = anEvent(Symbol('not JSON'));

    expect(() => serializeEvents('org-1', [event])).toThrow(
      new RangeError(`Stream org-1: data of event ${event.id} is not representable as JSON`),
    );
    expect(() =>
      serializeEvents('org-1', [{ ...anEvent(), id: event.id, metadata: (() => undefined) as never }]),
    ).toThrow(`Stream org-1: metadata of event ${event.id} is not representable as JSON`);
  });
});
