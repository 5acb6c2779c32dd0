import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../errors.js';
import { foldEvents } from '../decider.js';
import { samlAssertionDecider, samlRequestDecider, type SamlRequestStarted } from './saml-sign-on.js';

const started: SamlRequestStarted = {
  type: 'SamlRequestStarted',
  data: { organizationId: 'acme', redirect: '/app/orgs', at: '2030-01-01T00:00:00.000Z' },
};
const answer = (organizationId: string, at: string) =>
  ({ type: 'AnswerSamlRequest', data: { organizationId, at } }) as const;
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? { code: error.code, message: error.message } : error;
  }
  return undefined;
};

describe('a SAML request', () => {
  const open = foldEvents(samlRequestDecider, [started]);

  it('is answered once, by its organization, within 10 minutes, keeping where the browser goes', () => {
    const events = samlRequestDecider.decide(answer('acme', '2030-01-01T00:09:59.000Z'), open);
    expect(events).toEqual([{ type: 'SamlRequestAnswered', data: { at: '2030-01-01T00:09:59.000Z' } }]);
    const answered = foldEvents(samlRequestDecider, [started, ...events]);
    expect(answered).toMatchObject({ status: 'answered', redirect: '/app/orgs' });
    expect(
      refusal(() => samlRequestDecider.decide(answer('acme', '2030-01-01T00:01:00.000Z'), answered)),
    ).toMatchObject({ code: 'SAML_RESPONSE_REFUSED' });
  });

  it('refuses an answer for another organization, a late one, and one to no request', () => {
    expect(refusal(() => samlRequestDecider.decide(answer('globex', '2030-01-01T00:01:00.000Z'), open))).toMatchObject({
      message: expect.stringContaining('another organization'),
    });
    expect(refusal(() => samlRequestDecider.decide(answer('acme', '2030-01-01T00:10:01.000Z'), open))).toMatchObject({
      message: expect.stringContaining('lifetime'),
    });
    expect(
      refusal(() =>
        samlRequestDecider.decide(answer('acme', '2030-01-01T00:01:00.000Z'), samlRequestDecider.initialState),
      ),
    ).toMatchObject({
      code: 'SAML_RESPONSE_REFUSED',
    });
  });

  it('bound to a browser, is answered only with that browser’s binding', () => {
    const bound = foldEvents(samlRequestDecider, [
      { ...started, data: { ...started.data, browserBinding: 'digest-of-the-cookie' } },
    ]);
    const at = '2030-01-01T00:01:00.000Z';
    expect(refusal(() => samlRequestDecider.decide(answer('acme', at), bound))).toMatchObject({
      message: expect.stringContaining('another browser'),
    });
    const other = {
      type: 'AnswerSamlRequest',
      data: { organizationId: 'acme', at, browserBinding: 'another-digest' },
    } as const;
    expect(refusal(() => samlRequestDecider.decide(other, bound))).toMatchObject({ code: 'SAML_RESPONSE_REFUSED' });
    const same = {
      type: 'AnswerSamlRequest',
      data: { organizationId: 'acme', at, browserBinding: 'digest-of-the-cookie' },
    } as const;
    expect(samlRequestDecider.decide(same, bound)).toHaveLength(1);
  });

  it('never starts twice under one id', () => {
    expect(
      refusal(() => samlRequestDecider.decide({ type: 'StartSamlRequest', data: started.data }, open)),
    ).toMatchObject({ code: 'DUPLICATE' });
  });
});

describe('a SAML assertion', () => {
  it('is accepted once, ever: the second time is a replay', () => {
    const accept = {
      type: 'AcceptSamlAssertion',
      data: { organizationId: 'acme', notOnOrAfter: null, at: '2030-01-01T00:00:00.000Z' },
    } as const;
    const events = samlAssertionDecider.decide(accept, samlAssertionDecider.initialState);
    expect(events).toHaveLength(1);
    expect(refusal(() => samlAssertionDecider.decide(accept, foldEvents(samlAssertionDecider, events)))).toMatchObject({
      code: 'SAML_RESPONSE_REFUSED',
    });
  });
});
