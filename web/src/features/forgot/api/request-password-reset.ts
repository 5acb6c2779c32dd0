import type { HttpClient } from '../../../lib/http-client';

// The answer is not read (seed, section 7): the server answers the same for known and unknown addresses.
export async function requestPasswordReset(http: HttpClient, email: string): Promise<void> {
  await http.post('/forgot', { email });
}
