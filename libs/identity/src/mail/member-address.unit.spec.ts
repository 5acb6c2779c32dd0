// The domain's one address rule (isEmailAddress) against the mailer's own parser: every address
// the rule accepts, nodemailer reads back as exactly that address; every form it reads otherwise, the rule refuses.
import { describe, expect, it } from '@jest/globals';
import { isEmailAddress } from '#domain';
import { isPermanentMailFailure, readsAsOneAddress } from './mailer.js';

const accepted = [
  'ada@example.com',
  'ada.lovelace+chorus@mail.example.org',
  "o'brien@example.ie",
  'a@x.io',
  'jürgen@bücher.de',
];
accepted.push("!#$%&'*+/=?^_`{|}~-@example.com");
const readOtherwise = [
  ...['a@x:', 'ad\u0000a@example.com', 'a,b@x', 'x<y@z>', 'ada(note)@example.com', 'Ada <ada@example.com>'],
  ...['a@b.c;d@e.f', 'g: a@b.c;', 'ada@example.com ', ' ada@example.com'],
];

describe('a member address and nodemailer', () => {
  it.each(accepted)('%j: accepted by the rule and read back whole by addressparser', (address) => {
    expect(isEmailAddress(address)).toBe(true);
    expect(readsAsOneAddress(address)).toBe(true);
  });

  it.each(readOtherwise)('%j: read otherwise by addressparser, and refused by the rule', (address) => {
    expect(readsAsOneAddress(address)).toBe(false);
    expect(isEmailAddress(address)).toBe(false);
  });

  it('agrees on every address the rule accepts among many built from risky characters', () => {
    const risky = [
      '"',
      ',',
      '<',
      '>',
      ':',
      ';',
      '(',
      ')',
      '[',
      ']',
      '\\',
      ' ',
      '\u0000',
      '\u200b',
      '\u202e',
      '@',
      '-',
      "'",
      '=',
      '?',
      '{',
      '|',
    ];
    const parts = ['a', 'b.c', 'x.y', ...risky];
    let checked = 0;
    for (const first of parts)
      for (const second of parts)
        for (const third of parts)
          for (const fourth of ['@d', '@d.e', ':', '>', '']) {
            const candidate = `${first}${second}${third}${fourth}`;
            if (!isEmailAddress(candidate)) continue;
            checked += 1;
            expect([candidate, readsAsOneAddress(candidate)]).toEqual([candidate, true]);
          }
    expect(checked).toBeGreaterThan(500);
  });

  it.each([
    [{ code: 'EENVELOPE' }, true],
    [{ code: 'EMESSAGE' }, true],
    [{ code: 'EENVELOPE', responseCode: 550 }, true],
    [{ code: 'EENVELOPE', responseCode: 452 }, false],
    [{ code: 'EMESSAGE', responseCode: 554 }, true],
    [{ code: 'ECONNECTION' }, false],
    [{ code: 'ETIMEDOUT' }, false],
    [{ responseCode: 451 }, false],
    [new Error('socket hang up'), false],
    [undefined, false],
  ])('%j is permanent: %s', (error, permanent) => expect(isPermanentMailFailure(error)).toBe(permanent));
});
