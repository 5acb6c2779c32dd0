// A sealed value: AES-256-GCM under its subject's key, the subject named beside it (plain: an id Chorus made) so
// a reader knows which key opens it, and its kind, so an erased value still reads in its shape.
import { createCipheriv, createDecipheriv, createHash, randomFillSync } from 'node:crypto';
import { makeRoom } from '../bounded-map.js';

export type SealedKind = 'string' | 'list' | 'value';
export type Sealed = { readonly $sealed: string; readonly as: SealedKind };

const SEPARATOR = '~';

export const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' && value !== null && typeof (value as { $sealed?: unknown }).$sealed === 'string';

const IV_BYTES = 12;
/**
 * IVs drawn from the system's random source 1,024 at a time, as Node draws its UUIDs: one call to it costs 2.6 us here,
 * as much as several hundred IVs taken from the pool, and a SCIM create seals about eight values. Each IV is used once.
 */
const ivPool = Buffer.alloc(IV_BYTES * 1_024);
let ivTaken = ivPool.length;

/** A view into the pool: read at once (by the cipher and the text of the sealed value), before the pool is drawn again. */
function nextIv(): Buffer {
  if (ivTaken === ivPool.length) {
    randomFillSync(ivPool);
    ivTaken = 0;
  }
  ivTaken += IV_BYTES;
  return ivPool.subarray(ivTaken - IV_BYTES, ivTaken);
}

export function seal(key: Buffer, subject: string, value: unknown): Sealed {
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subject));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const as: SealedKind = typeof value === 'string' ? 'string' : Array.isArray(value) ? 'list' : 'value';
  return { $sealed: [subject, iv.toString('base64url'), sealed.toString('base64url')].join(SEPARATOR), as };
}

export function subjectOf(sealed: Sealed): string {
  return sealed.$sealed.slice(0, sealed.$sealed.lastIndexOf(SEPARATOR, sealed.$sealed.lastIndexOf(SEPARATOR) - 1));
}

export function unseal(key: Buffer, sealed: Sealed): unknown {
  const parts = sealed.$sealed.split(SEPARATOR);
  const [iv, body] = parts.slice(-2).map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer];
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(parts.slice(0, -2).join(SEPARATOR)));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return JSON.parse(
    Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8'),
  ) as unknown;
}

/**
 * The strings opened lately, by their sealed text: each reader of a node (the command's own read, the read models, the
 * reactions) opens every new event, and one opening serves them all. It is asked only with the subject's key in hand,
 * so an erased value never reads from it, and it is emptied whenever a reader meets an erased subject. Only strings are
 * kept: a list or an object handed to several readers could be changed by one under the others.
 */
export class RecentlyOpened {
  private readonly values = new Map<string, string>();

  constructor(private readonly capacity = 1_024) {}

  open(key: Buffer, sealed: Sealed): unknown {
    const known = this.values.get(sealed.$sealed);
    if (known !== undefined) return known;
    const value = unseal(key, sealed);
    if (typeof value !== 'string') return value;
    makeRoom(this.values, this.capacity);
    this.values.set(sealed.$sealed, value);
    return value;
  }

  forget(): void {
    this.values.clear();
  }
}

/** Four hex digits naming an erased person the same way throughout one stream, and differently in another. */
export const pseudonymOf = (streamId: string, subject: string): string =>
  createHash('sha256').update(`${streamId}\n${subject}`).digest('hex').slice(0, 4);
