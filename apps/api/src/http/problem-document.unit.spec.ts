import { describe, expect, it } from '@jest/globals';
import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { DomainError, InvalidCredentials, LimitExceeded, RateLimited } from '#domain';
import {
  AppendTooLargeError,
  EventStoreTimeoutError,
  StreamDeletedError,
  WrongExpectedRevisionError,
} from '#event-store';
import { ProblemError } from './problem-error.js';
import { ErrorAnswers } from './error-answers.js';
import { toProblem as toProblemWith } from './problem-document.js';

// The answers as features register them; which feature answers which code is the composed app's test.
const answers = new ErrorAnswers();
answers.registerRefusals({
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid', pointsAtField: true },
  NOT_FOUND: { status: 404, title: 'Not found' },
  LIMIT_EXCEEDED: { status: 409, title: 'A limit is reached' },
  INVALID_CREDENTIALS: { status: 401, title: 'Incorrect username or password' },
  RATE_LIMITED: { status: 429, title: 'Too many attempts' },
});
const toProblem = (error: unknown) => toProblemWith(error, answers);

describe('toProblem', () => {
  it('answers a DomainError with the status and title its feature registered, and its own words', () => {
    expect(toProblem(new DomainError('NOT_FOUND', 'No such site.', { siteId: 's1' }))).toEqual({
      document: {
        type: 'urn:chorus:problem:not-found',
        title: 'Not found',
        status: 404,
        detail: 'No such site.',
        code: 'NOT_FOUND',
        siteId: 's1',
      },
      unexpected: false,
    });
  });

  it('names a refused field as a JSON pointer where the code says it points at one', () => {
    expect(toProblem(new DomainError('VALIDATION_FAILED', 'Too short.', { field: 'password' })).document).toMatchObject(
      { status: 400, field: 'password', errors: [{ pointer: '#/password', detail: 'Too short.' }] },
    );
    expect(toProblem(new DomainError('NOT_FOUND', 'No such site.', { field: 'siteId' })).document).not.toHaveProperty(
      'errors',
    );
  });

  it('answers a refusal no feature registered as a fault of ours: 500, logged, without its words', () => {
    const problem = toProblem(new DomainError('LAST_OWNER', 'Alice is the last owner.'));

    expect(problem).toMatchObject({ unexpected: true, document: { status: 500, code: 'INTERNAL' } });
    expect(JSON.stringify(problem.document)).not.toContain('Alice');
  });

  it('refuses a second registration of one code, so two features cannot answer it two ways', () => {
    expect(() => answers.registerRefusals({ NOT_FOUND: { status: 410, title: 'Gone' } })).toThrow(
      'The refusal NOT_FOUND is registered twice',
    );
  });

  it('gives LIMIT_EXCEEDED the resource, the effective limit and the current count', () => {
    expect(toProblem(new LimitExceeded('users', 5, 5)).document).toMatchObject({
      status: 409,
      code: 'LIMIT_EXCEEDED',
      resource: 'users',
      limit: 5,
      count: 5,
    });
  });

  it("keeps the seed's sign-in message", () => {
    expect(toProblem(new InvalidCredentials()).document).toMatchObject({
      status: 401,
      detail: 'Incorrect username or password.',
    });
  });

  it('answers a lock with 429 RATE_LIMITED and when to try again (the filter sends it as Retry-After)', () => {
    const { document, retryAfterSeconds } = toProblem(new RateLimited(900));

    expect(document).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 900 });
    expect(retryAfterSeconds).toBe(900);
  });

  it('answers a concurrency conflict with 409 CONCURRENCY_CONFLICT, in words true of any record', () => {
    const { document } = toProblem(new WrongExpectedRevisionError('user-a', 3n, 4n));

    expect(document).toMatchObject({ status: 409, code: 'CONCURRENCY_CONFLICT' });
    expect(document.detail).not.toMatch(/organization|user-a/);
  });

  it.each([
    ['a stream deleted behind our back', new StreamDeletedError('organization-acme'), 409, 'STREAM_DELETED', undefined],
    [
      "an append over the store's limit",
      new AppendTooLargeError('organization-acme', 2_000_000, 1_048_576),
      413,
      'APPEND_TOO_LARGE',
      undefined,
    ],
    ['a store that did not answer in time', new EventStoreTimeoutError('append', 5_000), 503, 'EVENT_STORE_TIMEOUT', 1],
  ])(
    'answers %s with its own status and code, logged as a fault of ours',
    (_case, error, status, code, retryAfterSeconds) => {
      const problem = toProblem(error);

      expect(problem).toMatchObject({
        unexpected: true,
        document: { status, code, type: `urn:chorus:problem:${code.toLowerCase().replaceAll('_', '-')}` },
      });
      expect(problem.retryAfterSeconds).toBe(retryAfterSeconds);
      // The stream's name and the adapter's wording stay in the log.
      expect(problem.document.detail).not.toContain('organization-acme');
      expect(problem.document.detail).not.toBe(error.message);
    },
  );

  it('tells the size limit of a refused append', () => {
    expect(toProblem(new AppendTooLargeError('organization-acme', undefined, 1_048_576)).document).toMatchObject({
      limit: 1_048_576,
    });
  });

  it('keeps a ProblemError as thrown, its extensions unable to override the standard members', () => {
    const { document } = toProblem(
      new ProblemError(403, 'XSRF_INVALID', 'XSRF token wrong', 'Send X-XSRF-TOKEN.', {
        code: 'OTHER',
        hint: 'cookie',
      }),
    );

    expect(document).toEqual({
      type: 'urn:chorus:problem:xsrf-invalid',
      title: 'XSRF token wrong',
      status: 403,
      detail: 'Send X-XSRF-TOKEN.',
      code: 'XSRF_INVALID',
      hint: 'cookie',
    });
  });

  it('maps Nest HTTP exceptions to stable codes', () => {
    expect(toProblem(new NotFoundException('Cannot GET /x')).document).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      detail: 'Cannot GET /x',
    });
    expect(toProblem(new PayloadTooLargeException()).document).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(toProblem(new HttpException('Teapot', 418)).document).toMatchObject({ status: 418, code: 'HTTP_418' });
  });

  it("recognises body-parser's invalid JSON and too-large errors", () => {
    const invalidJson = new BadRequestException('Unexpected token', {
      cause: Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed' }),
    });
    const tooLarge = new HttpException('request entity too large', 413, {
      cause: Object.assign(new Error('too large'), { type: 'entity.too.large', limit: 16384 }),
    });

    expect(toProblem(invalidJson).document).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    expect(toProblem(tooLarge).document).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', limit: 16384 });
  });

  it('answers anything else with 500 INTERNAL, marked unexpected, without its message', () => {
    const { document, unexpected } = toProblem(new Error('SQLITE_CORRUPT at /var/data/events.sqlite'));

    expect(unexpected).toBe(true);
    expect(document).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(JSON.stringify(document)).not.toContain('SQLITE');
  });
});
