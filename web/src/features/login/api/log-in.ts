import type { HttpClient } from '../../../lib/http-client';

export type Credentials = { username: string; password: string };

// On 2xx the browser moves on; the answer's body is not read (seed, section 7).
export async function logIn(http: HttpClient, credentials: Credentials, signal?: AbortSignal): Promise<void> {
  await http.post('/login', credentials, { signal });
}
