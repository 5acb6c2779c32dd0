import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Limit } from '../plans/catalogue.js';
import { configuredLimit, effectiveLimit, isUnlimited, isWithin, normalizeLimit } from './limit-arithmetic.js';

/** How many fit: unlimited is infinite. */
const capacity = (limit: Limit): number => (isUnlimited(limit) ? Infinity : (limit as number));

const limit = fc.oneof(fc.constant(null), fc.constant(0), fc.integer({ min: 1, max: 10_000 }));
/** A plan limit that is not the table's 0. */
const planLimit = fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 10_000 }));
const increment = fc.integer({ min: 0, max: 10_000 });
const setting = fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 10_000 }));

describe('limit arithmetic', () => {
  it('null and 0 are unlimited, any other number is not', () => {
    expect([isUnlimited(null), isUnlimited(0), isUnlimited(1)]).toEqual([true, true, false]);
    expect([normalizeLimit(0), normalizeLimit(null), normalizeLimit(7)]).toEqual([null, null, 7]);
  });

  it('configured: the setting wins; else plan limit plus increments; an unlimited plan stays unlimited', () => {
    expect(configuredLimit(4, 2, 3)).toBe(4);
    expect(configuredLimit(0, 2, 3)).toBe(0);
    expect(configuredLimit(null, 2, 3)).toBe(5);
    expect(configuredLimit(null, null, 3)).toBeNull();
    expect(configuredLimit(null, 0, 2)).toBe(2);
    expect(configuredLimit(null, 0, 0)).toBe(0);
  });

  it('effective: the lower of configured and hard, unlimited counting as infinite', () => {
    expect(effectiveLimit(5, 10, false)).toBe(5);
    expect(effectiveLimit(11, 10, false)).toBe(10);
    expect(effectiveLimit(null, 10, false)).toBe(10);
    expect(effectiveLimit(0, 10, false)).toBe(10);
    expect(effectiveLimit(5, null, false)).toBe(5);
    expect(effectiveLimit(5, 0, false)).toBe(5);
    expect(effectiveLimit(null, null, false)).toBeNull();
    expect(effectiveLimit(0, 0, false)).toBeNull();
  });

  it('effective under override: the configured limit alone', () => {
    expect(effectiveLimit(11, 10, true)).toBe(11);
    expect(effectiveLimit(0, 10, true)).toBeNull();
  });

  it('fits: up to the limit inclusive; anything within unlimited', () => {
    expect([isWithin(3, 3), isWithin(3, 4), isWithin(0, 1_000_000), isWithin(null, 1_000_000)]).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  describe('properties', () => {
    it('effective is never above the hard limit unless override', () => {
      fc.assert(
        fc.property(limit, limit, (configured, hard) => {
          expect(capacity(effectiveLimit(configured, hard, false))).toBeLessThanOrEqual(capacity(hard));
        }),
      );
    });

    it('effective is never above the configured limit, and equals it under override', () => {
      fc.assert(
        fc.property(limit, limit, fc.boolean(), (configured, hard, override) => {
          const effective = effectiveLimit(configured, hard, override);
          expect(capacity(effective)).toBeLessThanOrEqual(capacity(configured));
          if (override) expect(effective).toBe(normalizeLimit(configured));
        }),
      );
    });

    it('effective is exactly the minimum of the two capacities without override', () => {
      fc.assert(
        fc.property(limit, limit, (configured, hard) => {
          expect(capacity(effectiveLimit(configured, hard, false))).toBe(
            Math.min(capacity(configured), capacity(hard)),
          );
        }),
      );
    });

    it('effective is never 0: unlimited is always null', () => {
      fc.assert(
        fc.property(limit, limit, fc.boolean(), (configured, hard, override) => {
          expect(effectiveLimit(configured, hard, override)).not.toBe(0);
        }),
      );
    });

    it('more add-on units never lower the configured or the effective limit', () => {
      fc.assert(
        fc.property(
          setting,
          planLimit,
          increment,
          increment,
          limit,
          fc.boolean(),
          (own, plan, fewer, extra, hard, override) => {
            const before = configuredLimit(own, plan, fewer);
            const after = configuredLimit(own, plan, fewer + extra);
            expect(capacity(after)).toBeGreaterThanOrEqual(capacity(before));
            expect(capacity(effectiveLimit(after, hard, override))).toBeGreaterThanOrEqual(
              capacity(effectiveLimit(before, hard, override)),
            );
          },
        ),
      );
    });

    it('a raised hard limit or override never lowers the effective limit', () => {
      fc.assert(
        fc.property(
          limit,
          fc.integer({ min: 1, max: 10_000 }),
          fc.integer({ min: 0, max: 10_000 }),
          (configured, hard, raise) => {
            const base = capacity(effectiveLimit(configured, hard, false));
            expect(capacity(effectiveLimit(configured, hard + raise, false))).toBeGreaterThanOrEqual(base);
            expect(capacity(effectiveLimit(configured, hard, true))).toBeGreaterThanOrEqual(base);
          },
        ),
      );
    });

    it('a count fits exactly when it is at most the capacity', () => {
      fc.assert(
        fc.property(limit, fc.nat({ max: 20_000 }), (anyLimit, count) => {
          expect(isWithin(anyLimit, count)).toBe(count <= capacity(anyLimit));
        }),
      );
    });
  });
});
