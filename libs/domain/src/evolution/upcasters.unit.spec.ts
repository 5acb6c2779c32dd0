import { describe, expect, it } from '@jest/globals';
import { EventSchemaError, EventSchemas, eventSchemas, type Upcaster } from './upcasters.js';

const renamed: Upcaster = { type: 'SeatTaken', from: 1, up: ({ guest, ...data }) => ({ ...data, name: guest }) };
const counted: Upcaster = { type: 'SeatTaken', from: 2, up: (data) => ({ ...data, seats: 1 }) };

describe('event schemas', () => {
  it('give a type without upcasters version 1 and read it as stored', () => {
    const schemas = new EventSchemas([renamed]);
    const data = { guest: 'ada' };
    expect(schemas.versionOf('SeatFreed')).toBe(1);
    expect(schemas.upcast('SeatFreed', 1, data)).toBe(data);
  });

  it('bring each stored version to the current one through every later upcaster, in order', () => {
    const schemas = new EventSchemas([counted, renamed]);
    expect(schemas.versionOf('SeatTaken')).toBe(3);
    expect(schemas.upcast('SeatTaken', 1, { guest: 'ada', row: 4 })).toEqual({ name: 'ada', row: 4, seats: 1 });
    expect(schemas.upcast('SeatTaken', 2, { name: 'ada', row: 4 })).toEqual({ name: 'ada', row: 4, seats: 1 });
    expect(schemas.upcast('SeatTaken', 3, { name: 'ada', row: 4, seats: 2 })).toEqual({
      name: 'ada',
      row: 4,
      seats: 2,
    });
  });

  it('refuse a version newer than this build reads, and versions that are not whole and positive', () => {
    const schemas = new EventSchemas([renamed]);
    for (const version of [3, 0, -1, 1.5])
      expect(() => schemas.upcast('SeatTaken', version, {})).toThrow(EventSchemaError);
  });

  it('refuse a chain with a gap: some stored version would have no way to the current one', () => {
    expect(() => new EventSchemas([counted])).toThrow(/from version 1 without gaps/);
  });

  it('say whether any type evolves: without, reads need no version', () => {
    expect(new EventSchemas([]).evolves).toBe(false);
    expect(new EventSchemas([renamed]).evolves).toBe(true);
  });
});

describe("Chorus's upcasters", () => {
  it('read an owner reset recorded before owners needed the organization or the person (version 1) as made by an owner alone', () => {
    const stored = { organizationId: 'acme', at: '2030-01-01T00:00:00.000Z' };
    expect(eventSchemas.upcast('SecondFactorsReset', 1, stored)).toEqual({ ...stored, authority: 'owner-alone' });
  });

  it('leave a version 1 owner reset that already named its authority as it was', () => {
    const stored = { organizationId: 'acme', authority: 'confirmed-by-person', at: '2030-01-01T00:00:00.000Z' };
    expect(eventSchemas.upcast('SecondFactorsReset', 1, stored)).toEqual(stored);
  });
});
