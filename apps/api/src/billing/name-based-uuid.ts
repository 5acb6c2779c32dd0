// RFC 9562 version-5 style ids: the same name always gives the same uuid, so every retry of one
// provider event proposes the very same event ids and can recognise its own earlier writes.
import { createHash } from 'node:crypto';

/** Chorus's own namespace for billing-derived ids (a fixed random uuid). */
const BILLING_NAMESPACE = Buffer.from('3b8f0c5a9d2e4f61a7c4e0d19b6f2a83', 'hex');

export function nameBasedUuid(name: string): string {
  const bytes = createHash('sha1').update(BILLING_NAMESPACE).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
