import { describe, expect, it } from '@jest/globals';
import { maxPasswordLength, passwordPolicyViolation } from './password-policy.js';

describe('the password policy', () => {
  it('accepts any long enough uncommon password, with no composition rules', () => {
    expect(passwordPolicyViolation('correct horse battery staple')).toBeNull();
    expect(passwordPolicyViolation('zqxwvbnmlkjh')).toBeNull();
    expect(passwordPolicyViolation('ÄÖÜ ßçéñ 日本語')).toBeNull();
  });

  it('refuses fewer than 8 characters, counting characters rather than bytes', () => {
    expect(passwordPolicyViolation('k7#Qp2x')).toBe('The password must be at least 8 characters long.');
    expect(passwordPolicyViolation('日本語日本語日本')).toBeNull();
  });

  it(`accepts up to ${maxPasswordLength} characters and refuses more`, () => {
    expect(passwordPolicyViolation('q'.repeat(maxPasswordLength - 1) + 'z')).toBeNull();
    expect(passwordPolicyViolation('q'.repeat(maxPasswordLength + 1))).toBe(
      'The password must be at most 256 characters long.',
    );
  });

  it('refuses common and breached passwords whatever their case', () => {
    for (const common of ['password', 'Password', 'PASSWORD1', '12345678', 'qwertyuiop', 'iloveyou']) {
      expect(passwordPolicyViolation(common)).toMatch(/most common/);
    }
  });

  it("refuses the user's own e-mail address or username", () => {
    expect(passwordPolicyViolation('ada.lovelace@example.com', { email: 'ada.lovelace@example.com' })).toMatch(
      /e-mail address or username/,
    );
    expect(passwordPolicyViolation('Ada.Lovelace', { email: 'ada.lovelace@example.com' })).toMatch(
      /e-mail address or username/,
    );
    expect(passwordPolicyViolation('analyticalengine', { username: 'AnalyticalEngine' })).toMatch(
      /e-mail address or username/,
    );
  });
});
