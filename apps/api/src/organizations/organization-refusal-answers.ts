// What an organization's decisions refuse, answered over HTTP (docs/api.md, Errors).
import type { RefusalAnswers } from '../http/error-answers.js';

// 409: well-formed, but in conflict with the organization's state (malformed is VALIDATION_FAILED).
export const organizationRefusals: RefusalAnswers = {
  INVALID_HOSTNAME: { status: 400, title: 'The hostname is not valid' },
  NO_PLAN: { status: 409, title: 'The organization has no plan' },
  LIMIT_EXCEEDED: { status: 409, title: 'A limit is reached' },
  FEATURE_DISABLED: { status: 409, title: 'The feature is not enabled' },
  INVALID_QUANTITY: { status: 409, title: 'The quantity is not possible' },
  LAST_OWNER: { status: 409, title: 'The last owner cannot leave' },
};
