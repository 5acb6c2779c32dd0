// The seed's exact texts (sections 2, 4 and 8), written out here rather than imported from web/, so the
// browser tests check the SPA against the seed and not against itself.

export const loginTexts = {
  heading: (product: string) => `Welcome back to ${product},`,
  subHeading: 'enter your details to log in!',
  usernamePlaceholder: 'e-mail or username',
  forgotLink: 'Forgot your password?',
  logIn: 'Log in',
  divider: '- or - ',
  google: 'Sign in with Google',
  migrated: (product: string) => [
    `Your organization has been migrated from ${product} Classic to ${product}.`,
    'Same credentials can be used here.',
    'Please log in!',
  ],
};

export const forgotTexts = {
  heading: 'Forgot your password?',
  subHeading: "Enter your email address and we'll send you a link to reset your password.",
  placeholder: 'your e-mail address',
  send: 'Send',
  sent: 'Password reset link has been sent to your email.',
};

/** Section 8, the error catalogue. */
export const errorMessages = {
  login: 'Incorrect username or password.',
  google: 'Google sign-in failed.',
  sso: 'Single sign-on (SSO) failed.',
  account: "You don't seem to have access to any organization.",
};
