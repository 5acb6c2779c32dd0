import { describe, expect, it } from '@jest/globals';
import { isEmailAddress } from './email-address.js';

// The forms a black-box test got accepted and the mailer read otherwise (refused locally, or mailed elsewhere).
const hostileMemberEmails: ReadonlyArray<[string, string]> = [
  ['a trailing colon (a group to the mailer)', 'a@x:'],
  ['a NUL', 'ad\u0000a@example.com'],
  ['a C0 control (escape)', 'ad\u001ba@example.com'],
  ['a C1 control', 'ad\u0085a@example.com'],
  ['a zero-width space', 'ad\u200ba@example.com'],
  ['a zero-width joiner', 'ada@exa\u200dmple.com'],
  ['a right-to-left override', 'ada@\u202eelpmaxe.com'],
  ['a bidi isolate', 'ada\u2066@example.com'],
  ['a comma (two recipients)', 'a,b@x'],
  ['angle brackets (a name and another address)', 'x<y@z>'],
];

describe('isEmailAddress (one plain address, as the mailer reads it)', () => {
  const ordinary = [
    'ada@example.com',
    'ada.lovelace+chorus@mail.example.org',
    "o'brien@example.ie",
    'known@invites.example',
    'a@x.io',
  ];
  it.each([...ordinary, 'jürgen@bücher.de', 'x_y-z@sub-domain.example'])('accepts %j', (email) =>
    expect(isEmailAddress(email)).toBe(true),
  );

  it.each(hostileMemberEmails)('refuses %s', (_, email) => expect(isEmailAddress(email)).toBe(false));

  it.each([
    ['', 'empty'],
    ['ada', 'no @'],
    ['ada@@example.com', 'two @'],
    ['a@b@example.com', 'two addresses run together'],
    [' ada@example.com', 'a leading space'],
    ['ada@example.com ', 'a trailing space'],
    ['ada @example.com', 'a space'],
    ['ada\t@example.com', 'a tab'],
    ['ada\n@example.com', 'a line break'],
    ['ada\u00a0@example.com', 'a no-break space'],
    ['"ada"@example.com', 'quotes'],
    ['ada@example.com;bob@example.com', 'a semicolon list'],
    ['ada(note)@example.com', 'a comment'],
    ['ada@[127.0.0.1]', 'an address literal'],
    ['ada@example.com>', 'a closing bracket'],
    ['.ada@example.com', 'a leading dot'],
    ['ada.@example.com', 'a dot before @'],
    ['ad..a@example.com', 'two dots'],
    ['ada@example..com', 'an empty domain label'],
    ['ada@example.com.', 'a trailing dot'],
    ['ada@', 'no domain'],
    ['root@localhost', 'a domain without a dot'],
    ['@example.com', 'no name'],
    ['ada@exam\\ple.com', 'a backslash'],
    ['ada\u00ad@example.com', 'a soft hyphen'],
    ['ada\ufe0f@example.com', 'a variation selector'],
    ['ada\u034f@example.com', 'a grapheme joiner'],
    ['ada\ufeff@example.com', 'a byte order mark'],
  ])('refuses %j (%s)', (email) => expect(isEmailAddress(email)).toBe(false));
});

describe('isEmailAddress, held to the limit every mail server holds a path to', () => {
  it('accepts 254 characters and refuses 255', () => {
    const name = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    expect(isEmailAddress(name(254))).toBe(true);
    expect(isEmailAddress(name(255))).toBe(false);
  });
});
