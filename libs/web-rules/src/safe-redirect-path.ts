// The `redirect` target is only ever a path on this origin; anything else becomes '/' (docs/api.md,
// Sign-in). One rule for the server and the SPA. Normalise first, then judge: the value is resolved
// as a browser resolves it (the WHATWG URL parser: dot segments, '%2e', backslashes), and it is the
// resolved path that must be a plain path, again after each percent-decoding a later reader might do.

/** Resolved against a base nobody owns, so that only a path can keep its origin. */
const probeOrigin = 'https://same-origin.invalid';
const maxLength = 2048;
/** '%252F' is '%2F' once decoded and '/' twice; a real link never needs more than that. */
const maxDecodings = 3;

/** The normalised path (with query and fragment) `value` leads to on this origin; undefined when absent or unsafe. */
export function sameOriginPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) return undefined;
  const normalised = resolvedPath(value);
  if (normalised === undefined) return undefined;
  // '/%2F%2Fevil.example' stays on this origin as it is, but leaves it once something decodes it.
  let form = normalised;
  for (let decoding = 0; decoding < maxDecodings; decoding += 1) {
    const decoded = decodedOnce(form);
    if (decoded === form) return normalised;
    if (resolvedPath(decoded) === undefined) return undefined;
    form = decoded;
  }
  return undefined;
}

/** The target to redirect to: the normalised same-origin path, else '/'. */
export function safeRedirectPath(value: unknown): string {
  return sameOriginPath(value) ?? '/';
}

/** Where a browser would go for `value`, if that is a plain path of this origin. */
function resolvedPath(value: string): string | undefined {
  if (!isPlainPath(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, probeOrigin);
  } catch {
    return undefined;
  }
  if (url.origin !== probeOrigin) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // '/.//evil.example', '/..//evil.example' and '/%2e//evil.example' all resolve to '//evil.example'.
  return isPlainPath(path) ? path : undefined;
}

/**
 * One leading '/', not two ('//host' is another origin); no backslash (browsers read '/\host' as
 * '//host'); no control character (browsers drop tabs and newlines: '/\t/host' is '//host').
 */
function isPlainPath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//')) return false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return false;
  }
  return true;
}

/** The value with its percent-escapes decoded once; itself when there is nothing (valid) to decode. */
function decodedOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A lone '%' decodes to nothing else, here or in any reader.
    return value;
  }
}
