/** libpq's URL form, which the pg driver reads too. Never echoes a password. */
export function databaseUrlProblems(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return ['must be a URL: postgres://user:password@host:port/database'];
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return [`must start with postgres:// or postgresql:// (got ${url.protocol}//)`];
  if (url.hostname === '') return ['names no host: postgres://user:password@host:port/database'];
  if (url.pathname.length <= 1) return ['names no database: postgres://user:password@host:port/database'];
  return [];
}
