import { describe, expect, it } from '@jest/globals';
import { parseHostname, readHostname, toUnicodeHostname } from './parse-hostname.js';

describe('parseHostname', () => {
  it.each([
    ['example.com', 'example.com'],
    ['http://example.com/path', 'example.com'],
    ['https://example.com', 'example.com'],
    ['HTTPS://EXAMPLE.COM', 'example.com'],
    ['Example.COM', 'example.com'],
    ['localhost', 'localhost'],
    ['http://localhost:3000/', 'localhost'],
    ['  www.example.com  ', 'www.example.com'],
    ['example.com:8443/a?b=c#d', 'example.com'],
    ['example.com.', 'example.com'],
    ['sub.domain.example.co.uk', 'sub.domain.example.co.uk'],
    ['127.0.0.1', '127.0.0.1'],
  ])('reads %j as %j', (input, ascii) => {
    expect(parseHostname(input)?.ascii).toBe(ascii);
  });

  it('prepends https:// when there is no http(s) scheme, so another scheme becomes a dot-less host', () => {
    expect(parseHostname('ftp://example.com')).toBeNull();
    expect(parseHostname('mailto:someone@example.com')).toBeNull();
  });

  it('rejects a hostname without a dot unless it is localhost', () => {
    expect(parseHostname('intranet')).toBeNull();
    expect(parseHostname('https://intranet/path')).toBeNull();
    expect(parseHostname('LOCALHOST')).toEqual({ ascii: 'localhost', unicode: 'localhost' });
  });

  it('stores bücher.de and xn--bcher-kva.de as the same ASCII host, shown in Unicode', () => {
    const unicodeInput = parseHostname('bücher.de');
    const asciiInput = parseHostname('xn--bcher-kva.de');
    expect(unicodeInput).toEqual({ ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' });
    expect(asciiInput).toEqual(unicodeInput);
    expect(parseHostname('https://BÜCHER.de/shop')).toEqual(unicodeInput);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['a space inside', 'exa mple.com'],
    ['garbage', '%%%'],
    ['only a scheme', 'https://'],
    ['punctuation in a label', 'exa!mple.com'],
    ['an underscore', 'my_site.example.com'],
    ['an empty label', 'a..example.com'],
    ['a leading dot', '.example.com'],
    ['a label starting with a hyphen', '-a.example.com'],
    ['broken punycode', 'xn--zz.de'],
    ['credentials', 'https://user:secret@example.com'],
    ['an IPv6 address (no dot)', '[::1]'],
    ['a bad port', 'example.com:port'],
  ])('rejects %s', (_case, input) => {
    expect(parseHostname(input)).toBeNull();
  });

  it('accepts a 63-character label and rejects a 64-character one', () => {
    expect(parseHostname(`${'a'.repeat(63)}.com`)?.ascii).toBe(`${'a'.repeat(63)}.com`);
    expect(parseHostname(`${'a'.repeat(64)}.com`)).toBeNull();
  });

  it('accepts a 253-character name and rejects a 254-character one', () => {
    const label = 'a'.repeat(61);
    const name253 = [label, label, label, 'b'.repeat(63), 'com'].join('.');
    expect(name253).toHaveLength(253);
    expect(parseHostname(name253)?.ascii).toBe(name253);
    expect(parseHostname(`a${name253}`)).toBeNull();
  });

  it('rejects values that are not strings instead of throwing', () => {
    expect(parseHostname(undefined as unknown as string)).toBeNull();
    expect(parseHostname(42 as unknown as string)).toBeNull();
  });
});

describe('toUnicodeHostname', () => {
  it('shows punycode labels in Unicode and leaves plain ASCII as it is', () => {
    expect(toUnicodeHostname('xn--bcher-kva.de')).toBe('bücher.de');
    expect(toUnicodeHostname('www.xn--mnchen-3ya.de')).toBe('www.münchen.de');
    expect(toUnicodeHostname('example.com')).toBe('example.com');
  });

  it.each([
    ['ftp://x.example.com', 'scheme'],
    ['mailto://x@example.com', 'scheme'],
    ['-bad-.example.com', 'label'],
    ['my_site.example.com', 'label'],
    ['a..example.com', 'label'],
    ['https://exa mple.com/path', 'space'],
    ['exa mple.com', 'space'],
    ['https://user:secret@example.com', 'credentials'],
    ['mailto:someone@example.com', 'credentials'],
    ['%%%', 'characters'],
    ['', 'empty'],
    ['   ', 'empty'],
    ['intranet', 'no-dot'],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`, 'too-long'],
  ])('says why %j is no hostname: %s', (input, fault) => {
    expect(readHostname(input)).toEqual({ fault });
  });
});
