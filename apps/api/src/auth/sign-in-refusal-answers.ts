// What signing in, resetting a password and the second step refuse, answered over HTTP (docs/api.md, Errors).
import type { RefusalAnswers } from '../http/error-answers.js';

export const signInRefusals: RefusalAnswers = {
  INVALID_TOKEN: { status: 400, title: 'The link is not valid' },
  WRONG_PASSWORD: { status: 400, title: 'The current password is not correct', pointsAtField: true },
  INVALID_CODE: { status: 400, title: 'The code is not correct' },
  CODE_ALREADY_USED: { status: 400, title: 'The code was used already' },
  INVALID_CREDENTIALS: { status: 401, title: 'Incorrect username or password' },
  // 403, not 401: the session stands; the change needs more than it.
  REAUTHENTICATION_REQUIRED: { status: 403, title: 'Confirm it is you' },
  TWO_STEP_REQUIRED: { status: 409, title: 'Two-step sign-in is required' },
  NO_SECOND_FACTOR: { status: 409, title: 'No second factor is set up' },
};
