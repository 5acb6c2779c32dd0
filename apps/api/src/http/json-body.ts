import type { NextFunction, Request, Response } from 'express';
import { ProblemError } from './problem-error.js';

/** Request bodies are JSON only; API bodies are small (the biggest is a member or a site). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];
export const BODY_LIMIT = '16kb';

/** An empty body (e.g. POST /logout with Content-Length: 0) needs no media type. */
function hasContent(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';
}

/** Refuses a body in any other media type with 415 instead of leaving it unparsed. */
export function requireJsonBody(request: Request, _response: Response, next: NextFunction): void {
  if (hasContent(request) && request.is(JSON_MEDIA_TYPES) === false) {
    next(
      new ProblemError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type', 'Request bodies must be JSON (Content-Type: application/json).'),
    );
    return;
  }
  next();
}
