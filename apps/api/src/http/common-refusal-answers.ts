// The refusals every feature raises, in the API's common words (docs/api.md, Errors); a feature's own refusals are
// registered beside it.
import type { RefusalAnswers } from './error-answers.js';

export const commonRefusals: RefusalAnswers = {
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid', pointsAtField: true },
  FORBIDDEN: { status: 403, title: 'Not allowed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  ALREADY_EXISTS: { status: 409, title: 'It already exists' },
  DUPLICATE: { status: 409, title: 'It is already in use' },
  RATE_LIMITED: { status: 429, title: 'Too many attempts' },
};
