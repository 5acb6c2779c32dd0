// An answer sent as JSON made beforehand: a cached answer is serialized and encoded once, when it is
// made, not again on every request that is given it.
import type { Response } from 'express';

/** The UTF-8 bytes of a `T` as JSON: what the route answers, said by its type. */
export type JsonBytes<T> = Buffer & { readonly jsonOf?: T };

export const jsonBytes = <T>(value: T): JsonBytes<T> => Buffer.from(JSON.stringify(value)) as JsonBytes<T>;

/**
 * Sends the bytes as Express's `res.json` sends a body, header for header: the content type with its
 * charset, then the length (`res.send`, which also answers HEAD and 304 as for any body). Express would
 * otherwise encode a string of the answer again per request, and Nest check and pass it on first.
 */
export function sendJsonBytes<T>(response: Response, bytes: JsonBytes<T>): void {
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.send(bytes);
}
