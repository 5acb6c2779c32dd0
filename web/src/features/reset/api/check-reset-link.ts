import type { HttpClient } from '../../../lib/http-client';

/** Asked without using the token; undefined when the answer does not say, and the form's submit will tell. */
export async function isResetLinkValid(http: HttpClient, token: string): Promise<boolean | undefined> {
  const { data } = await http.post<unknown>('/reset/validity', { token });
  const valid = typeof data === 'object' && data !== null && 'valid' in data ? data.valid : undefined;
  return typeof valid === 'boolean' ? valid : undefined;
}
