// The SPA runs the server's own redirect rule (libs/web-rules) against the same table of cases, in
// the URL implementation its tests have (jsdom's).
import { describe, expect, it } from '@jest/globals';
import { keptRedirects, refusedRedirects } from '@libs/web-rules/testing/redirect-cases';
import { sameOriginPath } from '@libs/web-rules/safe-redirect-path';

describe('the redirect after login', () => {
  it.each(keptRedirects)('keeps %j as %j', (value, normalised) => {
    expect(sameOriginPath(value)).toBe(normalised);
  });

  it.each(refusedRedirects)('refuses %j (%s)', (value) => {
    expect(sameOriginPath(value)).toBeUndefined();
  });
});
