// `GET /organizations/:id/members?after=&limit=&q=` (docs/api.md): a page's cursor is opaque to clients, the place
// where the last page ended (the member's place in the fold's order, and their id).
import { z } from 'zod';
import type { MemberCursor } from '#read-models';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { readQuery } from './position-wait.js';

export const MEMBERS_PAGE_DEFAULT = 50;
export const MEMBERS_PAGE_MAX = 200;

export const memberCursorText = ({ ordinal, userId }: MemberCursor): string =>
  Buffer.from(`${ordinal}:${userId}`, 'utf8').toString('base64url');

function memberCursorOf(text: string, context: z.RefinementCtx): MemberCursor {
  const [ordinal, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split(':');
  const userId = rest.join(':');
  if (ordinal === undefined || !/^\d{1,19}$/.test(ordinal) || userId === '') {
    context.addIssue({ code: 'custom', message: 'must be the `next` of an earlier page' });
    return z.NEVER;
  }
  return { ordinal: BigInt(ordinal), userId };
}

/** A page's own fields: `limit` stays undefined when not given, for a route that answers everything without it. */
export const memberPageFields = {
  after: z.string().max(400).transform(memberCursorOf).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `must be a whole number from 1 to ${MEMBERS_PAGE_MAX}`)
    .transform(Number)
    .pipe(
      z
        .int()
        .min(1, `must be from 1 to ${MEMBERS_PAGE_MAX}`)
        .max(MEMBERS_PAGE_MAX, `must be from 1 to ${MEMBERS_PAGE_MAX}`),
    )
    .optional(),
  q: z.string().trim().min(1, 'must not be empty').max(254).optional(),
};

const membersPageQuery = readQuery.extend({
  ...memberPageFields,
  limit: memberPageFields.limit.default(MEMBERS_PAGE_DEFAULT),
});

export type MembersPageQuery = z.output<typeof membersPageQuery>;

export const validMembersPageQuery = new ZodValidationPipe(membersPageQuery);
