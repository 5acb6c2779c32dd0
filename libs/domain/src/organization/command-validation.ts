// Checks on command data. Commands may come from JSON, so values are checked at run time, not trusted
// to their TypeScript types. Every failure is VALIDATION_FAILED with { field, reason }.
import { isEmailAddress, emailAddressRefusal } from '../email/email-address.js';
import { DomainError } from '../errors.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_ADD_ON_QUANTITY = 1_000_000;
export const MAX_CONFIGURED_LIMIT = 1_000_000_000;
// RFC 3986 unreserved characters: an id is safe in a stream name and a URL path without escaping.
const IDENTIFIER = /^[A-Za-z0-9._~-]{1,128}$/;

export type ValidationReason =
  'required' | 'too_long' | 'invalid_format' | 'not_allowed' | 'not_an_integer' | 'out_of_range' | 'not_a_boolean';

export const invalid = (field: string, reason: ValidationReason, message: string): DomainError =>
  new DomainError('VALIDATION_FAILED', message, { field, reason });

/** A trimmed, non-empty text of at most MAX_NAME_LENGTH characters. */
export function requireName(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'required', `${field} must not be empty.`);
  const name = value.trim();
  if (name.length > MAX_NAME_LENGTH)
    throw invalid(field, 'too_long', `${field} must be at most ${MAX_NAME_LENGTH} characters.`);
  return name;
}

export function requireIdentifier(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalid(field, 'required', `${field} must not be empty.`);
  if (!IDENTIFIER.test(value)) {
    throw invalid(field, 'invalid_format', `${field} must be 1 to 128 letters, digits or the characters . _ ~ -.`);
  }
  return value;
}

/**
 * A member's address, without the spaces around it (autofill, a paste): one plain address, as the mailer reads it
 * (email/member-email.ts).
 */
export function requireEmailAddress(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'required', `${field} must not be empty.`);
  const email = value.trim();
  if (email.length > MAX_EMAIL_LENGTH)
    throw invalid(field, 'too_long', `${field} must be at most ${MAX_EMAIL_LENGTH} characters.`);
  if (!isEmailAddress(email)) throw invalid(field, 'invalid_format', emailAddressRefusal);
  return email;
}

export function requireOneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T))
    throw invalid(field, 'not_allowed', `${field} must be one of ${allowed.join(', ')}.`);
  return value as T;
}

export function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw invalid(field, 'not_a_boolean', `${field} must be true or false.`);
}

export function requireIntegerIn(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw invalid(field, 'not_an_integer', `${field} must be a whole number.`);
  if (value < min || value > max) throw invalid(field, 'out_of_range', `${field} must be between ${min} and ${max}.`);
  return value;
}

/** An add-on quantity: absent means `absent`, else a whole number from 1. */
export const optionalQuantity = (value: unknown): number | undefined =>
  value === undefined ? undefined : requireIntegerIn('quantity', value, 1, MAX_ADD_ON_QUANTITY);
