import { describe, expect, it } from '@jest/globals';
import { safeRedirect } from './safe-redirect';

const origin = 'https://chorus.example';

describe('the redirect after login', () => {
  it.each(['/', '/dashboard', '/organizations/42?tab=members#top', '/a/b%2Fc', '/search?q=a+b', '/path with space'])(
    'keeps the same-origin path %s',
    (value) => {
      expect(safeRedirect(value, origin)).toBe(value);
    },
  );

  it.each([
    ['nothing', null],
    ['an empty value', ''],
    ['a protocol-relative URL', '//evil.example'],
    ['a protocol-relative URL with a path', '//evil.example/login'],
    ['a backslash host', '/\\evil.example'],
    ['a backslash host, twice', '\\\\evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['an absolute URL of this origin too', 'https://chorus.example/dashboard'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,hi'],
    ['a relative path', 'dashboard'],
    ['a tab that browsers drop', '/\t/evil.example'],
    ['a newline that browsers drop', '/\n/evil.example'],
    ['a carriage return', '/dashboard\r'],
    ['a leading space', ' /dashboard'],
  ])('refuses %s', (_, value) => {
    expect(safeRedirect(value, origin)).toBeNull();
  });
});
