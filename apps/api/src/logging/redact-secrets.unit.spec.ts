import { describe, expect, it } from '@jest/globals';
import { CENSORED, redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('answers a line without secrets as it is, without copying it', () => {
    const line = {
      correlationId: 'c-1',
      method: 'GET',
      path: '/health',
      status: 200,
      durationMs: 1.5,
      nested: { a: [1, 2] },
    };
    expect(redactSecrets(line)).toBe(line);
  });

  it('censors secret fields at the top and two levels below, in objects and arrays, leaving the logged objects unchanged', () => {
    const headers = { authorization: 'Bearer chrs_x', accept: 'text/html' };
    const line = {
      password: 'hunter2',
      headers,
      body: { user: { token: 'reset-token' } },
      list: [{ apiKey: 'k' }],
      deep: { a: { b: { secret: 'too deep' } } },
    };
    expect(redactSecrets(line)).toEqual({
      password: CENSORED,
      headers: { authorization: CENSORED, accept: 'text/html' },
      body: { user: { token: CENSORED } },
      list: [{ apiKey: CENSORED }],
      // Three levels of keys, as pino's `*.*["secret"]` path did.
      deep: { a: { b: { secret: 'too deep' } } },
    });
    expect(headers.authorization).toBe('Bearer chrs_x');
    expect(line.password).toBe('hunter2');
  });

  it('censors the single sign-on secrets: the client secret (either spelling) and the PKCE verifier', () => {
    const line = {
      sso: { clientSecret: 's1' },
      tokenRequest: { client_secret: 's2', code_verifier: 'v', grant_type: 'authorization_code' },
    };
    expect(redactSecrets(line)).toEqual({
      sso: { clientSecret: CENSORED },
      tokenRequest: { client_secret: CENSORED, code_verifier: CENSORED, grant_type: 'authorization_code' },
    });
  });

  it('keeps an error an error, with its message and stack, when it censors a field of it', () => {
    const error = Object.assign(new TypeError('request failed'), { headers: { cookie: 'session=abc' } });
    const { err } = redactSecrets({ err: error });
    expect(err).toBeInstanceOf(TypeError);
    expect(err).toMatchObject({ message: 'request failed', stack: error.stack, headers: { cookie: CENSORED } });
    expect(error.headers.cookie).toBe('session=abc');
  });
});

describe('addresses in log lines', () => {
  it('are removed from any text, an error message and stack included, and email or username fields are censored', () => {
    const error = new Error('550 mailbox ada.lovelace@analytical.example refused');
    const line = redactSecrets({
      detail: 'no organization signs ada@x.example in',
      email: 'ada@x.example',
      username: 'ada',
      nested: { to: 'grace@y.example' },
      err: error,
    });
    expect(JSON.stringify(line)).not.toMatch(/ada@|grace@|lovelace@/);
    expect(line).toMatchObject({
      detail: 'no organization signs [address] in',
      email: '[REDACTED]',
      username: '[REDACTED]',
      nested: { to: '[address]' },
    });
    expect((line.err as Error).message).toBe('550 mailbox [address] refused');
    expect(error.message).toContain('ada.lovelace@analytical.example');
  });

  it('leave a line without one as the same object', () => {
    const line = { path: '/organizations/:id', status: 200 };
    expect(redactSecrets(line)).toBe(line);
  });
});
