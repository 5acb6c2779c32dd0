// The payment provider signs `t + "." + raw body` with HMAC-SHA256 (docs/api.md, Billing integration).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Deliveries signed more than this far from our clock, either way, are refused (replay window). */
export const BILLING_SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export type SignatureRefusal = 'missing' | 'malformed' | 'mismatch' | 'stale' | 'future';

export type SignatureCheck = { valid: true; timestamp: number } | { valid: false; reason: SignatureRefusal };

const TIMESTAMP = /^\d{1,12}$/;
const DIGEST = /^[0-9a-f]{64}$/i;

export function billingSignatureDigest(secret: string, timestamp: number, rawBody: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest();
}

/** The `Billing-Signature` header value for a body, as the provider would send it. */
export function signBillingPayload(secret: string, timestamp: number, rawBody: Buffer): string {
  return `t=${timestamp},v1=${billingSignatureDigest(secret, timestamp, rawBody).toString('hex')}`;
}

type ParsedHeader = { timestamp: number; digests: Buffer[] };

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`; other schemes (e.g. a future v2) are skipped. */
function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | undefined;
  const digests: Buffer[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return null;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !TIMESTAMP.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!DIGEST.test(value)) return null;
      digests.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || digests.length === 0) return null;
  return { timestamp, digests };
}

export function verifyBillingSignature(
  header: string | undefined,
  rawBody: Buffer,
  secret: string,
  now: Date,
): SignatureCheck {
  if (header === undefined || header.trim() === '') return { valid: false, reason: 'missing' };
  const parsed = parseHeader(header);
  if (parsed === null) return { valid: false, reason: 'malformed' };
  const expected = billingSignatureDigest(secret, parsed.timestamp, rawBody);
  // Every candidate is compared (no early exit) in constant time; lengths are equal by the DIGEST pattern.
  const matches = parsed.digests.reduce((found, digest) => timingSafeEqual(digest, expected) || found, false);
  if (!matches) return { valid: false, reason: 'mismatch' };
  // The age is judged only for a genuine signature, so the answer never tells a forger about our clock.
  const ageSeconds = Math.floor(now.getTime() / 1000) - parsed.timestamp;
  if (ageSeconds > BILLING_SIGNATURE_TOLERANCE_SECONDS) return { valid: false, reason: 'stale' };
  if (ageSeconds < -BILLING_SIGNATURE_TOLERANCE_SECONDS) return { valid: false, reason: 'future' };
  return { valid: true, timestamp: parsed.timestamp };
}
