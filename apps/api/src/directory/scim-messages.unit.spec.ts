import { describe, expect, it } from '@jest/globals';
import { groupFilterOf, patchedGroup, type GroupInput } from './scim-groups.js';
import type { Request } from 'express';
import { WrongExpectedRevisionError } from '#event-store';
import { answerScimErrors } from './scim-error-answers.js';
import { pageOf, ScimError } from './scim-messages.js';
import { patchedUser, userFilterOf, userInputOf, type UserInput } from './scim-users.js';

const ada: UserInput = { userName: 'ada@acme.example', active: true, givenName: 'Ada' };
const patch = (...Operations: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations,
});

function refusal(work: () => unknown): { status: number; scimType: string | undefined } | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof ScimError ? { status: error.status, scimType: error.scimType } : undefined;
  }
}

describe('a SCIM User read', () => {
  it('keeps what Chorus keeps, case-insensitively, and accepts what it does not keep', () => {
    expect(
      userInputOf({
        UserName: 'bob@acme.example',
        ACTIVE: 'False',
        name: { GivenName: 'Bob' },
        emails: [
          { type: 'home', value: 'b@home.example' },
          { type: 'work', value: 'bob@acme.example' },
        ],
        title: 'CTO',
      }),
    ).toEqual({ userName: 'bob@acme.example', active: false, givenName: 'Bob', email: 'bob@acme.example' });
    expect(refusal(() => userInputOf({ active: true }))).toEqual({ status: 400, scimType: 'invalidValue' });
    expect(refusal(() => userInputOf({ userName: 'a@acme.example', active: 'yes' }))).toEqual({
      status: 400,
      scimType: 'invalidValue',
    });
    expect(refusal(() => userInputOf([]))).toEqual({ status: 400, scimType: 'invalidSyntax' });
  });
});

describe('a PatchOp', () => {
  it('takes Okta’s value object and Entra ID’s path with string booleans', () => {
    expect(patchedUser(ada, patch({ op: 'replace', value: { active: false } }))).toEqual({ ...ada, active: false });
    expect(patchedUser(ada, patch({ op: 'Replace', path: 'active', value: 'False' }))).toEqual({
      ...ada,
      active: false,
    });
    expect(
      patchedUser(
        ada,
        patch(
          { op: 'Add', path: 'name.familyName', value: 'Lovelace' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'al@acme.example' },
        ),
      ),
    ).toEqual({
      ...ada,
      familyName: 'Lovelace',
      email: 'al@acme.example',
    });
    expect(patchedUser(ada, patch({ op: 'Remove', path: 'name.givenName' }))).toEqual({
      userName: 'ada@acme.example',
      active: true,
    });
    expect(
      patchedUser(
        ada,
        patch({
          op: 'replace',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'R&D',
        }),
      ),
    ).toEqual(ada);
  });

  it('refuses what cannot change and what is not a PatchOp', () => {
    expect(refusal(() => patchedUser(ada, patch({ op: 'replace', path: 'id', value: 'x' })))).toEqual({
      status: 400,
      scimType: 'mutability',
    });
    expect(refusal(() => patchedUser(ada, patch({ op: 'remove', path: 'userName' })))).toEqual({
      status: 400,
      scimType: 'mutability',
    });
    expect(refusal(() => patchedUser(ada, patch({ op: 'move', path: 'active' })))).toEqual({
      status: 400,
      scimType: 'invalidSyntax',
    });
    expect(refusal(() => patchedUser(ada, { Operations: [] }))).toEqual({ status: 400, scimType: 'invalidSyntax' });
  });
});

describe('filters and pages', () => {
  it('reads the three equality filters providers send, and refuses the rest', () => {
    expect(userFilterOf('userName eq "ada@acme.example"')).toEqual({
      attribute: 'userName',
      value: 'ada@acme.example',
    });
    expect(userFilterOf('externalId EQ "00u\\"1"')).toEqual({ attribute: 'externalId', value: '00u"1' });
    expect(userFilterOf('emails[type eq "work"].value eq "a@acme.example"')).toEqual({
      attribute: 'email',
      value: 'a@acme.example',
    });
    for (const filter of ['userName co "a"', 'userName eq "a" or userName eq "b"', 'displayName eq "Ada"', '']) {
      expect(refusal(() => userFilterOf(filter))).toEqual({ status: 400, scimType: 'invalidFilter' });
    }
  });

  it('pages from 1, at most the maximum', () => {
    expect(pageOf(undefined, undefined, 200)).toEqual({ start: 1, count: 200 });
    expect(pageOf('0', '1000', 200)).toEqual({ start: 1, count: 200 });
    expect(pageOf('3', '0', 200)).toEqual({ start: 3, count: 0 });
    expect(refusal(() => pageOf('x', undefined, 200))).toEqual({ status: 400, scimType: 'invalidValue' });
  });
});

describe('a group PatchOp', () => {
  const admins: GroupInput = { displayName: 'Admins', members: ['a', 'b'] };

  it('adds, removes by filter or by list, replaces and renames', () => {
    expect(
      patchedGroup(admins, patch({ op: 'add', path: 'members', value: [{ value: 'c' }, { value: 'a' }] })).members,
    ).toEqual(['a', 'b', 'c']);
    expect(patchedGroup(admins, patch({ op: 'remove', path: 'members[value eq "a"]' })).members).toEqual(['b']);
    expect(patchedGroup(admins, patch({ op: 'Remove', path: 'members', value: [{ value: 'b' }] })).members).toEqual([
      'a',
    ]);
    expect(patchedGroup(admins, patch({ op: 'remove', path: 'members' })).members).toEqual([]);
    expect(patchedGroup(admins, patch({ op: 'replace', path: 'members', value: [{ value: 'z' }] })).members).toEqual([
      'z',
    ]);
    expect(patchedGroup(admins, patch({ op: 'replace', value: { id: 'g1', displayName: 'Administrators' } }))).toEqual({
      ...admins,
      displayName: 'Administrators',
    });
    expect(patchedGroup(admins, patch({ op: 'Replace', path: 'displayName', value: 'Ops' })).displayName).toBe('Ops');
  });

  it('refuses what a group does not keep and members without ids', () => {
    expect(refusal(() => patchedGroup(admins, patch({ op: 'replace', path: 'owner', value: 'x' })))).toEqual({
      status: 400,
      scimType: 'invalidPath',
    });
    expect(
      refusal(() => patchedGroup(admins, patch({ op: 'add', path: 'members', value: [{ display: 'no id' }] }))),
    ).toEqual({ status: 400, scimType: 'invalidValue' });
    expect(refusal(() => patchedGroup(admins, patch({ op: 'remove', path: 'displayName' })))).toEqual({
      status: 400,
      scimType: 'mutability',
    });
    expect(refusal(() => groupFilterOf('displayName sw "Ad"'))).toEqual({ status: 400, scimType: 'invalidFilter' });
  });
});

describe('errors on /scim/v2', () => {
  it('answers a write that lost a race past its retry 503 in SCIM’s schema, with Retry-After, so the provider sends it again', () => {
    const request = { path: '/scim/v2/Users' } as Request;
    expect(answerScimErrors(new WrongExpectedRevisionError('directory-acme', 3n, 4n), request)).toEqual({
      status: 503,
      contentType: 'application/scim+json',
      headers: { 'Retry-After': '1' },
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '503',
        detail: expect.stringContaining('send it again'),
      },
    });
    expect(
      answerScimErrors(new WrongExpectedRevisionError('directory-acme', 3n, 4n), {
        path: '/organizations/acme',
      } as Request),
    ).toBeUndefined();
  });
});
