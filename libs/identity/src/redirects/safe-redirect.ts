// The `redirect` target is only ever a path on this origin (API.md, Sign-in); anything else is '/'.

const probeOrigin = 'http://same-origin.invalid';

export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return '/';
  // '//host' and '/\host' are other origins to a browser; controls are stripped by browsers ('/\t/host').
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  if ([...value].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)) return '/';
  let parsed: URL;
  try {
    parsed = new URL(value, probeOrigin);
  } catch {
    return '/';
  }
  if (parsed.origin !== probeOrigin) return '/';
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}
