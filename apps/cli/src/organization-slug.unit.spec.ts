import { describe, expect, it } from '@jest/globals';
import { organizationSlug, slugAlternatives } from './organization-slug.js';

describe('organizationSlug', () => {
  it.each([
    ['Acme', 'acme'],
    ['Acme Corp', 'acme-corp'],
    ['  Acme,  Inc. ', 'acme-inc'],
    ['Café Ünïon', 'cafe-union'],
    ['Ｆｕｌｌ Ｗｉｄｔｈ', 'full-width'],
    ['3M', '3m'],
    ['--Acme--', 'acme'],
    ['a'.repeat(70), 'a'.repeat(63)],
    [`${'a'.repeat(62)} b`, 'a'.repeat(62)],
  ])('%j -> %j', (name, slug) => {
    expect(organizationSlug(name)).toBe(slug);
  });

  it.each(['日本', '!!!', ''])('has no slug for %j (the caller falls back to a uuid)', (name) => {
    expect(organizationSlug(name)).toBeUndefined();
  });
});

describe('slugAlternatives', () => {
  it('numbers the slug from 2, within 63 characters', () => {
    const short = slugAlternatives('acme');
    expect([short.next().value, short.next().value]).toEqual(['acme-2', 'acme-3']);
    expect(slugAlternatives('a'.repeat(63)).next().value).toBe(`${'a'.repeat(61)}-2`);
    expect(slugAlternatives(`${'a'.repeat(61)}-b`).next().value).toBe(`${'a'.repeat(61)}-2`);
  });
});
