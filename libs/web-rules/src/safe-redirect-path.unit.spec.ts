import { describe, expect, it } from '@jest/globals';
import { keptRedirects, refusedRedirects } from './testing/redirect-cases.js';
import { safeRedirectPath, sameOriginPath } from './safe-redirect-path.js';

describe('the redirect target (server side: Node URL parser)', () => {
  it.each(keptRedirects)('keeps %j as %j', (value, normalised) => {
    expect(sameOriginPath(value)).toBe(normalised);
    expect(safeRedirectPath(value)).toBe(normalised);
  });

  it.each(refusedRedirects)('refuses %j (%s)', (value) => {
    expect(sameOriginPath(value)).toBeUndefined();
    expect(safeRedirectPath(value)).toBe('/');
  });

  it('answers a target that is itself kept as it is (normalising twice changes nothing)', () => {
    for (const [, normalised] of keptRedirects) expect(sameOriginPath(normalised)).toBe(normalised);
  });
});
