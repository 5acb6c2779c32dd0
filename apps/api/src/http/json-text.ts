// An answer sent as JSON text made beforehand: a cached answer is serialized once, when it is made,
// not again on every request that is given it.
import type { Response } from 'express';

/** The JSON text of a `T`: what the route answers, said by its type. */
export type JsonText<T> = string & { readonly jsonOf?: T };

export const jsonText = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

/** What a handler returns the text with: Nest sends a string as it is, and as text/html unless told. */
export function answerJsonText<T>(response: Response, text: JsonText<T>): JsonText<T> {
  response.setHeader('Content-Type', 'application/json');
  return text;
}
