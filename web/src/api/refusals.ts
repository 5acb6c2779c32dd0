// Every refusal the server can answer, in words, in one place (STYLE.md habit 11).
import type { Organization, Problem } from './contract';
import { whatRaisesIt } from './limits';
import { chorusPlanIdle, planEnded } from './way-forward';
import { CHORUS_FEATURE_NAMES, RESOURCE_NAMES, formatNumber, planName } from './words';
import { emailAddressRefusal } from '@libs/domain/email/email-address';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The add-on that turns a feature on (docs/domain.md, Add-ons). */
const FEATURE_ADD_ON: Partial<Record<string, string>> = {
  qualityAssurance: 'Quality assurance',
  webAnalytics: 'Web analytics',
  feedback: 'Feedback',
  chatSupport: 'Assisted or Turnkey service level',
};

/** `organization`: for the advice on what raises a limit. */
export function refusalMessage(problem: Problem, organization?: Organization): string {
  switch (problem.code) {
    case 'LIMIT_EXCEEDED': {
      const resource = problem.resource as keyof typeof RESOURCE_NAMES;
      const name = RESOURCE_NAMES[resource] ?? 'The';
      const reached = `${name} limit reached: ${formatNumber(Number(problem.count))} of ${formatNumber(Number(problem.limit))}.`;
      return organization === undefined || !(resource in RESOURCE_NAMES)
        ? reached
        : `${reached} ${whatRaisesIt(organization, resource)}`;
    }
    case 'DUPLICATE':
      if (problem.field === 'email' || problem.field === 'userId')
        return `${text(problem.value) || 'This person'} is already a member.`;
      if (problem.field === 'hostname') return `${text(problem.value)} is already one of your sites.`;
      return `${text(problem.value) || 'It'} is already in the list.`;
    case 'NO_PLAN':
      if (organization !== undefined && chorusPlanIdle(organization)) {
        const plan = planName(organization.chorusDetails.plan ?? '');
        return `Chorus is off, so ${organization.name}’s Chorus ${plan} plan is not in effect: nothing can be added until Chorus is turned on.`;
      }
      if (organization !== undefined && planEnded(organization))
        return 'Your organization’s plan has ended, so nothing can be added until a plan is chosen.';
      return 'Your organization has no plan yet, so nothing can be added until one is chosen.';
    case 'ALREADY_REGISTERED':
      return 'They have signed up already, so there is no invitation to send: they sign in as usual.';
    case 'LAST_OWNER':
      return 'The last owner cannot be removed: make someone else an owner first.';
    case 'FORBIDDEN':
      return problem.requires === 'owner'
        ? 'Only an owner can add, remove, promote or demote an owner.'
        : 'Your role does not allow this change: ask an owner or an admin.';
    case 'INVALID_HOSTNAME':
      return hostnameRefusal(text(problem.value), text(problem.reason));
    case 'ENTERPRISE_PLAN_REQUIRED':
      return organization !== undefined &&
        chorusPlanIdle(organization) &&
        organization.chorusDetails.plan === 'enterprise'
        ? 'Chorus is off, so its Enterprise plan, which includes single sign-on, is not in effect: turn Chorus on first.'
        : 'Single sign-on is part of the Enterprise plans.';
    case 'SSO_DISCOVERY_FAILED':
      return `${text(problem.issuer) || 'The issuer'} could not be reached as an OpenID provider: check the issuer URL (its /.well-known/openid-configuration must answer).`;
    case 'SSO_DOMAIN_TAKEN':
      return `${text(problem.domain)} already signs in through another organization’s single sign-on.`;
    case 'SSO_DOMAIN_PUBLIC':
      return `${text(problem.domain)} is a public mail service: anyone can have an address there, so it cannot sign in through your provider.`;
    case 'SSO_METADATA_INVALID': {
      // The server's detail says what was missing (no signing certificate...), in words an IT admin reads.
      const detail = text(problem.detail).trim();
      const why = detail === '' ? '' : ` ${/[.!?]$/.test(detail) ? detail : `${detail}.`}`;
      return `Chorus could not read your provider’s SAML metadata: check the metadata URL, or paste the metadata XML your provider gives.${why}`;
    }
    case 'SSO_SECRET_UNREADABLE':
      return 'The saved client secret can no longer be read: enter it again.';
    case 'FEATURE_DISABLED': {
      const feature = text(problem.feature);
      const name = CHORUS_FEATURE_NAMES[feature as keyof typeof CHORUS_FEATURE_NAMES] ?? feature;
      const addOn = FEATURE_ADD_ON[feature];
      return addOn === undefined
        ? `${name} is off for your organization.`
        : `${name} is off for your organization: the ${addOn} add-on turns it on.`;
    }
    case 'NOT_FOUND':
      return problem.entity === 'organization'
        ? 'This organization does not exist, or you are not a member.'
        : 'It is no longer there: the list is up to date now.';
    case 'VALIDATION_FAILED':
      return validationRefusal(problem);
    case 'WRONG_PASSWORD':
      return problem.detail || 'The current password is not correct.';
    case 'INVALID_TOKEN':
      return 'This link is invalid, has been used or has expired.';
    case 'CONCURRENCY_CONFLICT':
      return 'The organization was changing at the same moment: please try again.';
    case 'RATE_LIMITED':
      return 'Too many attempts: please wait a few minutes and try again.';
    case 'INVALID_CODE':
      return problem.detail || 'The code is not correct.';
    case 'CODE_ALREADY_USED':
      return 'This code was used already: wait for the app to show the next one.';
    case 'TWO_STEP_REQUIRED':
      return 'Your organization requires two-step sign-in: set up another way first, then remove this one.';
    case 'NO_SECOND_FACTOR':
      return 'Set up an authenticator app or a passkey first.';
    case 'REAUTHENTICATION_REQUIRED':
      return problem.detail || 'Confirm it is you first.';
    case 'UNAUTHENTICATED':
      return 'Your session has ended: sign in again.';
    case 'XSRF_INVALID':
      return 'This page is out of date: reload it and try again.';
    case 'NETWORK':
      return 'The server could not be reached: check your connection and try again.';
    case 'NOT_YET_CONSISTENT':
      return 'The change is saved but not shown yet: reload the page in a moment.';
    default:
      return 'Something went wrong on our side: please try again.';
  }
}

/**
 * A read the person did not just write for (the two-step list waits for every change made anywhere): when this
 * server has not caught up, nothing of theirs is pending, so "the change is saved" would not be true.
 */
export function readRefusalMessage(problem: Problem, organization?: Organization): string {
  if (problem.code === 'NOT_YET_CONSISTENT')
    return 'Chorus is still catching up with the latest changes, so this list is not shown yet: reload the page in a moment.';
  return refusalMessage(problem, organization);
}

/** What a person would say about the first field the server refused, rather than the schema's words. */
const FIELD_WORDS: Record<string, string> = {
  email: emailAddressRefusal,
  name: 'Enter a name.',
  hostname: 'Enter a hostname, like shop.example.com.',
  domain: 'Enter a domain, like staging.example.com.',
  role: 'Choose a role.',
};

function validationRefusal(problem: Problem): string {
  const errors = Array.isArray(problem.errors) ? (problem.errors as { pointer?: unknown }[]) : [];
  const pointer = errors.map((error) => error.pointer).find((value): value is string => typeof value === 'string');
  const words = pointer === undefined ? undefined : FIELD_WORDS[pointer.replace(/^#\//, '').split('/')[0] ?? ''];
  return words ?? (problem.detail || 'Something in the form is not valid.');
}

function hostnameRefusal(value: string, reason: string): string {
  switch (reason) {
    case 'empty':
      return 'Enter a hostname, like shop.example.com.';
    case 'too-long':
      return `“${value.slice(0, 40)}…” is too long for a hostname: 253 characters at most.`;
    case 'scheme':
      return `“${value}” starts with ${/^[^:]*:\/\//.exec(value)?.[0] ?? 'a scheme'}: enter the hostname itself, or an address starting with http:// or https://.`;
    case 'space':
      return `“${value}” has a space in it: a hostname has none.`;
    case 'credentials':
      return `“${value}” has a user name or password in it: enter only the hostname, like shop.example.com.`;
    case 'label':
      return `“${value}” is not a hostname: between the dots only letters, digits and hyphens, and no part starts or ends with a hyphen.`;
    case 'characters':
      return `“${value}” has characters a hostname cannot have: use letters, digits, hyphens and dots, like shop.example.com.`;
    default:
      return `“${value}” is not a hostname: it needs a dot, like shop.example.com (only localhost may go without).`;
  }
}
