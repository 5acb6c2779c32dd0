import { describe, expect, it } from '@jest/globals';
import { safeRedirectPath } from './safe-redirect.js';

describe('the redirect target', () => {
  it('keeps a path on this origin, with its query and fragment', () => {
    expect(safeRedirectPath('/')).toBe('/');
    expect(safeRedirectPath('/organizations/acme?tab=sites#top')).toBe('/organizations/acme?tab=sites#top');
  });

  it.each([
    ['https://evil.example', 'an absolute URL'],
    ['//evil.example', 'a scheme-relative URL'],
    ['/\\evil.example', 'a backslash that browsers read as a slash'],
    ['\\\\evil.example', 'backslashes only'],
    ['javascript:alert(1)', 'a javascript: URL'],
    ['data:text/html,hi', 'a data: URL'],
    ['/\t/evil.example', 'a tab that browsers strip'],
    ['/\n/evil.example', 'a newline that browsers strip'],
    ['evil.example', 'a relative path'],
    ['', 'nothing'],
  ])('turns %j (%s) into /', (value) => {
    expect(safeRedirectPath(value)).toBe('/');
  });

  it('turns anything that is not a string into /', () => {
    expect(safeRedirectPath(undefined)).toBe('/');
    expect(safeRedirectPath(['/a', '/b'])).toBe('/');
  });
});
