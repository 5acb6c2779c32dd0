import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  BILLING_SIGNATURE_TOLERANCE_SECONDS,
  signBillingPayload,
  verifyBillingSignature,
} from './billing-signature.js';

const secret = 'whsec_unit_test_secret_0123456789';
const body = Buffer.from('{"id":"evt_1","type":"plan.purchased"}\n');
const signedAt = 1_900_000_000;
const at = (seconds: number): Date => new Date(seconds * 1000);

describe('signBillingPayload', () => {
  it('is HMAC-SHA256 of "t.body" in hex, as the provider computes it', () => {
    const expected = createHmac('sha256', secret)
      .update(`${signedAt}.${body.toString('utf8')}`)
      .digest('hex');

    expect(signBillingPayload(secret, signedAt, body)).toBe(`t=${signedAt},v1=${expected}`);
  });
});

describe('verifyBillingSignature', () => {
  const header = signBillingPayload(secret, signedAt, body);

  it('accepts a matching signature made now', () => {
    expect(verifyBillingSignature(header, body, secret, at(signedAt))).toEqual({ valid: true, timestamp: signedAt });
  });

  it.each([
    ['exactly 5 minutes old', signedAt + BILLING_SIGNATURE_TOLERANCE_SECONDS],
    ['exactly 5 minutes ahead', signedAt - BILLING_SIGNATURE_TOLERANCE_SECONDS],
  ])('accepts a signature %s', (_case, now) => {
    expect(verifyBillingSignature(header, body, secret, at(now)).valid).toBe(true);
  });

  it.each([
    ['stale', signedAt + BILLING_SIGNATURE_TOLERANCE_SECONDS + 1],
    ['future', signedAt - BILLING_SIGNATURE_TOLERANCE_SECONDS - 1],
  ])('refuses a %s signature', (reason, now) => {
    expect(verifyBillingSignature(header, body, secret, at(now))).toEqual({ valid: false, reason });
  });

  it('refuses a signature made with another secret', () => {
    const forged = signBillingPayload('another_secret_0123456789abcdef', signedAt, body);

    expect(verifyBillingSignature(forged, body, secret, at(signedAt))).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('refuses a body changed by a single byte, including whitespace', () => {
    const tampered = Buffer.from(body.toString('utf8').trimEnd());

    expect(verifyBillingSignature(header, tampered, secret, at(signedAt))).toEqual({
      valid: false,
      reason: 'mismatch',
    });
  });

  it('refuses a valid signature moved to another timestamp', () => {
    const digest = header.split('v1=')[1];

    expect(verifyBillingSignature(`t=${signedAt + 1},v1=${digest}`, body, secret, at(signedAt))).toEqual({
      valid: false,
      reason: 'mismatch',
    });
  });

  it('does not tell a forger about the clock: a stale forgery is a mismatch', () => {
    const forged = signBillingPayload('another_secret_0123456789abcdef', signedAt - 3600, body);

    expect(verifyBillingSignature(forged, body, secret, at(signedAt))).toEqual({ valid: false, reason: 'mismatch' });
  });

  it.each([undefined, '', '   '])('refuses a missing header (%p)', (missing) => {
    expect(verifyBillingSignature(missing, body, secret, at(signedAt))).toEqual({ valid: false, reason: 'missing' });
  });

  it.each([
    'v1=abc',
    `t=${signedAt}`,
    `t=${signedAt},v1=xyz`,
    `t=${signedAt},v1=${'a'.repeat(63)}`,
    `t=${signedAt},v1=${'a'.repeat(66)}`,
    `t=soon,v1=${'a'.repeat(64)}`,
    `t=-5,v1=${'a'.repeat(64)}`,
    `t=${signedAt},t=${signedAt},v1=${'a'.repeat(64)}`,
    `${signedAt},${'a'.repeat(64)}`,
    'sha256=deadbeef',
  ])('refuses a malformed header %p', (malformed) => {
    expect(verifyBillingSignature(malformed, body, secret, at(signedAt))).toEqual({
      valid: false,
      reason: 'malformed',
    });
  });

  it('accepts any matching v1 among several and skips other schemes (secret rotation)', () => {
    const current = header.split('v1=')[1];
    const rotated = `t=${signedAt},v0=ignored,v1=${'0'.repeat(64)},v1=${current}`;

    expect(verifyBillingSignature(rotated, body, secret, at(signedAt)).valid).toBe(true);
  });

  it('reads hex digests in either case', () => {
    expect(
      verifyBillingSignature(header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), body, secret, at(signedAt))
        .valid,
    ).toBe(true);
  });
});
