import { describe, expect, it } from '@jest/globals';
import { isValidResetEmail } from './is-valid-reset-email';

describe('the forgot-password e-mail validator', () => {
  it.each(['a@b.', 'a.b@', '@.xy', 'ada@example.com', 'ada.lovelace@mail.example.org'])('accepts %j', (email) => {
    expect(isValidResetEmail(email)).toBe(true);
  });

  it.each(['', 'a@.', 'ada@example', 'ada.example.com', 'abcd', '@..', 'a@'])('refuses %j', (email) => {
    expect(isValidResetEmail(email)).toBe(false);
  });
});
