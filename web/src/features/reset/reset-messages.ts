export const RESET_MESSAGES = {
  title: 'Choose a new password',
  prompt: 'Enter your new password twice.',
  changed: 'Your password has been changed.',
  missing: 'Enter a new password.',
  mismatch: 'The two passwords do not match.',
  invalidToken: 'This password reset link is invalid or has expired.',
  failed: 'Your password could not be changed. Please try again.',
} as const;
