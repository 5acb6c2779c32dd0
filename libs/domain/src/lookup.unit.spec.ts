import { describe, expect, it } from '@jest/globals';
import { lookupBy } from './lookup.js';

type Person = { id: string; address?: string };
const person = (id: string, address?: string): Person => (address === undefined ? { id } : { id, address });

describe('lookupBy', () => {
  const byAddress = lookupBy((item: Person) => item.address?.toLowerCase());
  const ada = person('a', 'ada@acme.example');

  it('finds the first item with a key, and nothing for an item without one or in an empty array', () => {
    const people = [ada, person('b'), person('c', 'ADA@acme.example')];
    expect(byAddress(people, 'ada@acme.example')?.id).toBe('a');
    expect(byAddress(people, 'bob@acme.example')).toBeUndefined();
    expect(byAddress(people, 'undefined')).toBeUndefined();
    expect(byAddress([], 'ada@acme.example')).toBeUndefined();
  });

  it('answers each array for its own items when a grown one shares its lookup', () => {
    const before = [ada];
    expect(byAddress(before, 'bob@acme.example')).toBeUndefined();
    const grown = [...before, person('b', 'bob@acme.example'), person('c', 'ada@acme.example')];
    expect(byAddress(grown, 'bob@acme.example')?.id).toBe('b');
    expect(byAddress(grown, 'ada@acme.example')?.id).toBe('a');
    // The array it grew from does not hold what was added after it.
    expect(byAddress(before, 'bob@acme.example')).toBeUndefined();
    expect(byAddress(before, 'ada@acme.example')?.id).toBe('a');
  });

  it('looks up afresh an array that does not begin with the last one: a removal, a change, another branch', () => {
    const bob = person('b', 'bob@acme.example');
    const base = [ada, bob];
    expect(byAddress(base, 'bob@acme.example')?.id).toBe('b');
    const removed = base.filter((item) => item !== bob);
    expect(byAddress(removed, 'bob@acme.example')).toBeUndefined();
    const changed = [ada, person('b', 'bob.l@acme.example')];
    expect([byAddress(changed, 'bob@acme.example'), byAddress(changed, 'bob.l@acme.example')?.id]).toEqual([
      undefined,
      'b',
    ]);
    // Two arrays grown from the same one, as a decision that lost its race and the one that won.
    const lost = [...base, person('c', 'carol@acme.example')];
    const won = [...base, person('d', 'dan@acme.example')];
    expect(byAddress(lost, 'carol@acme.example')?.id).toBe('c');
    expect([byAddress(won, 'carol@acme.example'), byAddress(won, 'dan@acme.example')?.id]).toEqual([undefined, 'd']);
    expect([byAddress(lost, 'dan@acme.example'), byAddress(base, 'carol@acme.example')]).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('keeps the folds of two organizations apart', () => {
    const first = [ada];
    const other = [person('x', 'xavier@other.example')];
    expect(byAddress(first, 'ada@acme.example')?.id).toBe('a');
    expect(byAddress(other, 'ada@acme.example')).toBeUndefined();
    expect(byAddress([...other, person('y', 'yara@other.example')], 'yara@other.example')?.id).toBe('y');
    expect(byAddress([...first, person('b', 'bob@acme.example')], 'xavier@other.example')).toBeUndefined();
  });
});
