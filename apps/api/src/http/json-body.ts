import { urlencoded, type NextFunction, type Request, type Response } from 'express';
import { ProblemError } from './problem-error.js';

export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];
/** In bytes. */
export const BODY_LIMIT = 16 * 1024;
/**
 * Read by the plain JSON reader only, so they need a Content-Length (Stripe sends one); any other form stays under
 * BODY_LIMIT.
 */
export const USAGE_BODY_LIMIT = 1024 * 1024;
export const STRIPE_BODY_LIMIT = 1024 * 1024;

const LARGER_BODY_LIMITS: ReadonlyMap<string, number> = new Map([
  ['/usage', USAGE_BODY_LIMIT],
  ['/billing/stripe', STRIPE_BODY_LIMIT],
]);

const bodyLimitOf = (request: Request): number =>
  (request.method === 'POST' ? LARGER_BODY_LIMITS.get(request.path) : undefined) ?? BODY_LIMIT;

/** Nearly every JSON body's Content-Type, read by readPlainJson; any other goes to body-parser. */
const PLAIN_JSON_TYPES = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);
const SMALL_LENGTH = /^[1-9][0-9]{0,6}$/;
/** body-parser's strict mode: only an object or an array. */
const FIRST_JSON_CHARACTER = /^[ \t\n\r]*([^ \t\n\r])/;

/** An empty body (e.g. POST /logout with Content-Length: 0) needs no media type. */
function hasContent(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';
}

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

export const invalidJsonBody = (): ProblemError =>
  new ProblemError(
    400,
    'INVALID_JSON',
    'The request body is not valid JSON',
    'The request body could not be parsed as JSON.',
  );

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

/** As body-parser would, with `request.rawBody` (Stripe signatures); body-parser's path is costly for a few bytes. */
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
    if (!ended)
      next(new ProblemError(400, 'BAD_REQUEST', 'Bad request', 'The request body ended before its Content-Length.'));
  });
}

/**
 * A SAML identity provider POSTs a form (the HTTP-POST binding); a large directory's response with its groups runs to
 * tens of kB.
 */
export const SAML_RESPONSE_BODY_LIMIT = 512 * 1024;
export const SAML_ACS_PATH = /^\/auth\/saml\/[^/]+\/acs\/?$/i;
const readSamlForm = urlencoded({ extended: false, limit: SAML_RESPONSE_BODY_LIMIT, parameterLimit: 10 });

/**
 * 415 for any other media type rather than leaving it unparsed (a form only at a SAML ACS); JSON bodies not read here
 * go to body-parser.
 */
export function requireJsonBody(request: Request, response: Response, next: NextFunction): void {
  if (!hasContent(request)) {
    next();
    return;
  }
  if (
    request.method === 'POST' &&
    SAML_ACS_PATH.test(request.path) &&
    request.is('application/x-www-form-urlencoded') !== false
  ) {
    readSamlForm(request, response, next);
    return;
  }
  if (isPlainJson(request)) {
    readPlainJson(request, next);
    return;
  }
  if (request.is(JSON_MEDIA_TYPES) === false) {
    next(
      new ProblemError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported media type',
        'Request bodies must be JSON (Content-Type: application/json).',
      ),
    );
    return;
  }
  next();
}
