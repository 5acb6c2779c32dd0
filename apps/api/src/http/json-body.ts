import type { NextFunction, Request, Response } from 'express';
import { ProblemError } from './problem-error.js';

/** Request bodies are JSON only; API bodies are small (the biggest is a member or a site). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];
/** The largest request body, in bytes (16 KiB): body-parser's `limit`, and the plain JSON reader's below. */
export const BODY_LIMIT = 16 * 1024;
/**
 * The larger bodies: POST /usage carries up to 1,000 reports (about 100 bytes each, 600 at most), and Stripe's
 * events are its whole objects (a real customer.subscription.updated was 17.7 KB). Read by the plain JSON
 * reader only, so they need a Content-Length (Stripe sends one); any other form stays under BODY_LIMIT.
 */
export const USAGE_BODY_LIMIT = 1024 * 1024;
export const STRIPE_BODY_LIMIT = 1024 * 1024;

const LARGER_BODY_LIMITS: ReadonlyMap<string, number> = new Map([
  ['/usage', USAGE_BODY_LIMIT],
  ['/billing/stripe', STRIPE_BODY_LIMIT],
]);

const bodyLimitOf = (request: Request): number => (request.method === 'POST' ? LARGER_BODY_LIMITS.get(request.path) : undefined) ?? BODY_LIMIT;

/**
 * The Content-Type of nearly every JSON body (browsers, the console, curl, the SDKs), lower-cased: read by
 * readPlainJson below. Any other (another charset or parameter, `+json`, odd spacing) goes to body-parser.
 */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
/** A Content-Length within the larger limits: 1 to 7 digits, no sign or leading zero (checked against the route's limit after). */
const SMALL_LENGTH = /^[1-9][0-9]{0,6}$/;
/** JSON's whitespace, then the first other character (body-parser's strict mode: only an object or an array). */
const FIRST_JSON_CHARACTER = /^[ \t\n\r]*([^ \t\n\r])/;

/** An empty body (e.g. POST /logout with Content-Length: 0) needs no media type. */
function hasContent(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';
}

/** A body of a plain JSON type, not compressed, whose declared length is within the limit. */
function isPlainJson(request: Request): boolean {
  const { headers } = request;
  const type = headers['content-type'];
  const length = headers['content-length'];
  return (
    type !== undefined &&
    length !== undefined &&
    headers['transfer-encoding'] === undefined &&
    headers['content-encoding'] === undefined &&
    PLAIN_JSON_TYPES.has(type.toLowerCase()) &&
    SMALL_LENGTH.test(length) &&
    Number(length) <= bodyLimitOf(request)
  );
}

/** A body that is not JSON (or, strict, neither an object nor an array): read here, or by body-parser (problem.ts). */
export const invalidJsonBody = (): ProblemError =>
  new ProblemError(400, 'INVALID_JSON', 'The request body is not valid JSON', 'The request body could not be parsed as JSON.');

/** body-parser's `json()` as configured (strict, UTF-8, a leading BOM dropped) on the whole body. */
function parseJson(body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const first = FIRST_JSON_CHARACTER.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw invalidJsonBody();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidJsonBody();
  }
}

/**
 * Reads a plain JSON body (isPlainJson) as body-parser would: `request.body` parsed, `request.rawBody` its
 * bytes (Nest's `rawBody: true`, which /billing/events checks signatures with). body-parser then finds the
 * request read and leaves it. Its whole path (type-is, content-type, iconv-lite, raw-body, on-finished,
 * http-errors) was a visible share of a sign-in's main-thread CPU for a body of a few bytes.
 */
function readPlainJson(request: Request, next: NextFunction): void {
  const chunks: Buffer[] = [];
  let ended = false;
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.once('end', () => {
    ended = true;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    (request as Request & { rawBody?: Buffer }).rawBody = body;
    try {
      request.body = parseJson(body);
    } catch (error) {
      next(error);
      return;
    }
    next();
  });
  // A client gone before the end of its body: answered 400 as body-parser does (nobody is there to read it).
  request.once('close', () => {
    if (!ended) next(new ProblemError(400, 'BAD_REQUEST', 'Bad request', 'The request body ended before its Content-Length.'));
  });
}

/**
 * Refuses a body in any other media type with 415 instead of leaving it unparsed; reads a plain JSON body
 * itself (readPlainJson), and leaves any other JSON body to body-parser, the next layer.
 */
export function requireJsonBody(request: Request, _response: Response, next: NextFunction): void {
  if (!hasContent(request)) {
    next();
    return;
  }
  if (isPlainJson(request)) {
    readPlainJson(request, next);
    return;
  }
  if (request.is(JSON_MEDIA_TYPES) === false) {
    next(
      new ProblemError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type', 'Request bodies must be JSON (Content-Type: application/json).'),
    );
    return;
  }
  next();
}
