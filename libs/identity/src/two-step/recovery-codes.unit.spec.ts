import { describe, expect, it } from '@jest/globals';
import { asRecoveryCode, newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';

describe('recovery codes', () => {
  it('are ten different codes of four groups, kept as digests of what a person may type', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
    const typed = (codes[0] as string).toLowerCase().replace(/-/g, ' ');
    expect(recoveryCodeHash(asRecoveryCode(typed) as string)).toBe(hashes[0]);
  });

  it('refuse what cannot be one: too short, or with a letter that is never used', () => {
    expect(asRecoveryCode('ABCD-EFGH-JKLM')).toBeUndefined();
    expect(asRecoveryCode('ABCD-EFGH-JKLM-NPQ0')).toBeUndefined();
    expect(asRecoveryCode('123456')).toBeUndefined();
  });
});
