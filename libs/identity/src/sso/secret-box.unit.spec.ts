import { describe, expect, it } from '@jest/globals';
import { isSealedSecret } from '#domain';
import { SecretBox } from './secret-box.js';

const k1 = { id: 'k1', key: Buffer.alloc(32, 1) };
const k2 = { id: 'k2', key: Buffer.alloc(32, 2) };

describe('SecretBox', () => {
  it('seals with the newest key in the form the domain records, and opens with any key of the ring', () => {
    const sealed = new SecretBox([k1], 'sso-client-secret').seal('s3cr3t-value', 'acme');
    expect(sealed).toMatch(/^v1\.k1\./);
    expect(isSealedSecret(sealed)).toBe(true);
    expect(sealed).not.toContain('s3cr3t');
    const rotated = new SecretBox([k2, k1], 'sso-client-secret');
    expect(rotated.open(sealed, 'acme')).toBe('s3cr3t-value');
    expect(rotated.seal('s3cr3t-value', 'acme')).toMatch(/^v1\.k2\./);
  });

  it('seals the same secret differently every time (a fresh IV)', () => {
    const box = new SecretBox([k1], 'sso-client-secret');
    expect(box.seal('same', 'acme')).not.toBe(box.seal('same', 'acme'));
  });

  it('opens nothing tampered, bound to another organization or purpose, or sealed with a key it no longer has', () => {
    const box = new SecretBox([k1], 'sso-client-secret');
    const sealed = box.seal('s3cr3t-value', 'acme');
    const [version, id, iv, body] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(box.open([version, id, iv, flipped.toString('base64url')].join('.'), 'acme')).toBeUndefined();
    expect(box.open(sealed, 'evil-corp')).toBeUndefined();
    expect(new SecretBox([k1], 'sso-state').open(sealed, 'acme')).toBeUndefined();
    expect(new SecretBox([k2], 'sso-client-secret').open(sealed, 'acme')).toBeUndefined();
    expect(box.open(['v1', 'k2', iv, body].join('.'), 'acme')).toBeUndefined();
    expect(box.open('s3cr3t-value', 'acme')).toBeUndefined();
  });
});
