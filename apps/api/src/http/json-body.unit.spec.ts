import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import type { Request, Response } from 'express';
import { ProblemError } from './problem-error.js';
import { BODY_LIMIT, requireJsonBody, STRIPE_BODY_LIMIT } from './json-body.js';

type Sent = { request: Request & { rawBody?: Buffer }; stream: PassThrough; outcome: Promise<unknown> };

/** A request whose body is written to `stream`; `outcome` settles with what requireJsonBody passed to next. */
function arriving(headers: Record<string, string>, route: { method?: string; path?: string } = {}): Sent {
  const stream = new PassThrough();
  const request = Object.assign(stream, { headers, is: () => 'application/json', ...route }) as unknown as Request & {
    rawBody?: Buffer;
  };
  const outcome = new Promise((resolve) =>
    requireJsonBody(request, {} as Response, (error?: unknown) => resolve(error)),
  );
  return { request, stream, outcome };
}

function send(body: string | Buffer, headers: Record<string, string> = {}): Sent {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const sent = arriving({ 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  sent.stream.end(bytes);
  return sent;
}

const problemCode = (error: unknown) => (error instanceof ProblemError ? [error.getStatus(), error.code] : error);

describe('requireJsonBody', () => {
  it('reads a plain JSON body itself: parsed, and its bytes kept for the signature checks', async () => {
    const text = '{"username":"ada@example.com","password":"p\u00e4ss"}';
    const { request, outcome } = send(text, { 'content-type': 'application/json; charset=UTF-8' });

    expect(await outcome).toBeUndefined();
    expect(request.body).toEqual({ username: 'ada@example.com', password: 'p\u00e4ss' });
    expect(request.rawBody?.equals(Buffer.from(text, 'utf8'))).toBe(true);
    // body-parser, the next layer, finds the request read and leaves it.
    expect(request.readableEnded).toBe(true);
  });

  it('drops a leading byte order mark, as body-parser does', async () => {
    const { request, outcome } = send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[1,2]')]));

    expect(await outcome).toBeUndefined();
    expect(request.body).toEqual([1, 2]);
  });

  it.each([
    ['not JSON', '{"email": "a@example.com", '],
    ['a string', '"ada"'],
    ['a number', '  42'],
    ['only whitespace', ' \n '],
  ])('refuses %s as 400 INVALID_JSON, as body-parser in strict mode', async (_case, body) => {
    expect(problemCode(await send(body).outcome)).toEqual([400, 'INVALID_JSON']);
  });

  it.each([
    ['another charset', { 'content-type': 'application/json; charset=utf-16le' }],
    ['a +json type', { 'content-type': 'application/merge-patch+json' }],
    ['a compressed body', { 'content-encoding': 'gzip' }],
    ['a length past the limit', { 'content-length': String(BODY_LIMIT + 1) }],
  ])('leaves %s to body-parser, unread', async (_case, headers) => {
    const sent = arriving({ 'content-type': 'application/json', 'content-length': '2', ...headers });

    expect(await sent.outcome).toBeUndefined();
    expect(sent.request.body).toBeUndefined();
    expect(sent.stream.readableFlowing).toBeNull();
  });

  it('reads a Stripe event past BODY_LIMIT itself on POST /billing/stripe only, up to STRIPE_BODY_LIMIT', async () => {
    const headers = (length: number) => ({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(length),
    });
    const event = Buffer.from(JSON.stringify({ id: 'evt_1', padding: 'x'.repeat(100_000) }));
    const stripe = arriving(headers(event.length), { method: 'POST', path: '/billing/stripe' });
    stripe.stream.end(event);
    expect(await stripe.outcome).toBeUndefined();
    expect(stripe.request.rawBody?.equals(event)).toBe(true);

    for (const [route, length] of [
      [{ method: 'POST', path: '/organizations' }, event.length],
      [{ method: 'POST', path: '/billing/stripe' }, STRIPE_BODY_LIMIT + 1],
    ] as const) {
      const left = arriving(headers(length), route);
      expect(await left.outcome).toBeUndefined();
      expect(left.stream.readableFlowing).toBeNull();
    }
  });

  it('leaves a chunked body to body-parser, unread', async () => {
    const sent = arriving({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' });

    expect(await sent.outcome).toBeUndefined();
    expect(sent.stream.readableFlowing).toBeNull();
  });

  it('answers 400 when the client goes before the end of its body', async () => {
    const sent = arriving({ 'content-type': 'application/json', 'content-length': '100' });
    sent.stream.write('{"username":');
    sent.stream.destroy();

    expect(problemCode(await sent.outcome)).toEqual([400, 'BAD_REQUEST']);
  });
});
