// The additional data binds a sealed value to what it belongs to, so one copied elsewhere does not open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type SecretKey = { id: string; key: Buffer };

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  /** keys newest first: the first seals, every one opens. */
  constructor(
    private readonly keys: readonly SecretKey[],
    private readonly purpose: string,
  ) {
    if (keys.length === 0) throw new Error('A secret box needs at least one key');
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plaintext: string, boundTo: string): string {
    const { id, key } = this.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(this.additionalData(id, boundTo));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, id, iv.toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, boundTo: string): string | undefined {
    const [version, id, ivText, bodyText, ...rest] = sealed.split('.');
    if (version !== VERSION || id === undefined || ivText === undefined || bodyText === undefined || rest.length > 0)
      return undefined;
    const key = this.keys.find((candidate) => candidate.id === id)?.key;
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (key === undefined || iv.length !== IV_BYTES || body.length < TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(this.additionalData(id, boundTo));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }

  private get current(): SecretKey {
    return this.keys[0] as SecretKey;
  }

  private additionalData(keyId: string, boundTo: string): Buffer {
    return Buffer.from(`chorus ${this.purpose} ${VERSION} ${keyId} ${boundTo}`, 'utf8');
  }
}
