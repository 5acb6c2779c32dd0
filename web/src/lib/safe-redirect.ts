/**
 * The `redirect` query value if it is a path on this origin, else null (the caller falls back to '/').
 * Rejected: '//host' and '/\host' (browsers read both as another host), schemes, anything not
 * starting with a single '/', and control characters (browsers drop tabs and newlines inside a
 * URL, which would turn '/\t/host' into '//host').
 */
export function safeRedirect(value: string | null, origin: string): string | null {
  if (value === null || !value.startsWith('/') || value[1] === '/' || value[1] === '\\') return null;
  for (const character of value) if (character < ' ' || character === '\x7f') return null;
  try {
    return new URL(value, origin).origin === origin ? value : null;
  } catch {
    return null;
  }
}
