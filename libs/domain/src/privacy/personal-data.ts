// Which stored values are personal data, and whose key seals each (docs/privacy.md). A person's own values are
// sealed under their key (`person:<user id>`), which erasure deletes; what identifies a caller rather than the
// person an event is about (addresses, user agents in metadata), and personal values with no user id to tie
// them to, are sealed under the key of the month they were recorded in (`period:<YYYY-MM>`), deleted after the
// retention period. Ids Chorus makes itself stay plain.

export type SealedBy = 'person' | 'period';

export type PersonalField = { readonly field: string; readonly by: SealedBy };

export type PersonalData = {
  /** The person the `person` fields belong to, from the event's stream and data. */
  readonly person?: (streamId: string, data: Readonly<Record<string, unknown>>) => string | undefined;
  readonly fields: readonly PersonalField[];
};

const userIdIn = (_streamId: string, data: Readonly<Record<string, unknown>>): string | undefined =>
  typeof data.userId === 'string' ? data.userId : undefined;

/** The user id a user's or invitation's stream is named after. */
const streamUser =
  (prefix: string) =>
  (streamId: string): string | undefined =>
    streamId.startsWith(prefix) ? streamId.slice(prefix.length) : undefined;

const person = (...fields: string[]): PersonalField[] => fields.map((field) => ({ field, by: 'person' }));
const period = (...fields: string[]): PersonalField[] => fields.map((field) => ({ field, by: 'period' }));

export const PERSONAL_DATA: Readonly<Record<string, PersonalData>> = {
  MemberAdded: { person: userIdIn, fields: person('email') },
  MemberRoleChanged: { person: userIdIn, fields: person('email') },
  InvitationResent: { person: userIdIn, fields: person('email') },
  UserRegistered: { person: streamUser('user-'), fields: person('email', 'username') },
  GoogleAccountLinked: { person: streamUser('user-'), fields: person('email', 'subject') },
  SsoAccountLinked: { person: streamUser('user-'), fields: person('email', 'subject') },
  PasskeyRegistered: { person: streamUser('user-'), fields: person('name') },
  PasskeyRenamed: { person: streamUser('user-'), fields: person('name') },
  SessionStarted: { person: userIdIn, fields: person('userAgent') },
  ScimUserProvisioned: {
    person: userIdIn,
    fields: person('userName', 'email', 'externalId', 'givenName', 'familyName', 'displayName'),
  },
  ScimUserUpdated: {
    person: userIdIn,
    fields: person('userName', 'email', 'externalId', 'givenName', 'familyName', 'displayName'),
  },
  InvitationSent: { person: streamUser('invitation-'), fields: person('email') },
  MembershipNoticeSent: { person: streamUser('invitation-'), fields: person('email') },
  InvitationFailed: { person: streamUser('invitation-'), fields: person('email') },
  // No user id: a failed sign-on may be anyone's; the owners a mail went to are named by address only.
  SsoSignOnFailed: { fields: period('email', 'subject', 'detail') },
  ThresholdMailSent: { fields: period('to') },
  // Only for someone with no account (a refused single sign-on); a person with one is named by user id alone.
  JoinRefusalNoticeOwed: { fields: period('email') },
};

/** Metadata that identifies the caller of a request or the operator of a command line. */
export const PERSONAL_METADATA: readonly string[] = [
  'clientIp',
  'userAgent',
  'callerCorrelationId',
  'osUser',
  'ssoSubject',
];

export const PERSON_SUBJECT_PREFIX = 'person:';
export const personSubject = (userId: string): string => `${PERSON_SUBJECT_PREFIX}${userId}`;
export const PERIOD_SUBJECT_PREFIX = 'period:';
/** The month an instant falls in, by UTC: `period:2030-01`. */
export const periodSubject = (at: Date): string => `${PERIOD_SUBJECT_PREFIX}${at.toISOString().slice(0, 7)}`;

/**
 * What an erased person's value reads as: the same words for them throughout one stream (one organization's history).
 */
export const erasedPersonName = (pseudonym: string): string => `Erased person ${pseudonym}`;

/** True for what an erased person's string reads as (erasedPersonName). */
export const isErasedPersonName = (value: string): boolean => /^Erased person [0-9a-f]{4}$/.test(value);
