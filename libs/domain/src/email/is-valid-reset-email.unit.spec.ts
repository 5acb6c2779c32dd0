import { describe, expect, it } from '@jest/globals';
import { isValidResetEmail } from './is-valid-reset-email.js';

describe('isValidResetEmail (at least 4 characters, with @ and .)', () => {
  it('accepts 4 characters with @ and .', () => {
    expect(isValidResetEmail('a@b.')).toBe(true);
    expect(isValidResetEmail('a@.c')).toBe(true);
  });

  it('rejects 3 characters even with @ and .', () => {
    expect(isValidResetEmail('@b.')).toBe(false);
    expect(isValidResetEmail('a@.')).toBe(false);
  });

  it('rejects a value without @ or without .', () => {
    expect(isValidResetEmail('someone.example.com')).toBe(false);
    expect(isValidResetEmail('someone@example')).toBe(false);
  });

  it('accepts an ordinary address and rejects the empty string', () => {
    expect(isValidResetEmail('someone@example.com')).toBe(true);
    expect(isValidResetEmail('')).toBe(false);
  });

  // The SPA's forgot-password form imports this very file (web/vite.config.ts: @libs/domain/...).
  it.each(['a@b.', 'a.b@', '@.xy', 'ada@example.com', 'ada.lovelace@mail.example.org'])('accepts %j', (email) => {
    expect(isValidResetEmail(email)).toBe(true);
  });

  it.each(['', 'a@.', 'ada@example', 'ada.example.com', 'abcd', '@..', 'a@'])('refuses %j', (email) => {
    expect(isValidResetEmail(email)).toBe(false);
  });
});
