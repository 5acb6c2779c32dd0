// Where two JSON values differ, as `path: stored X, rebuilt Y` lines (for projections:verify).
export function jsonDifferences(stored: unknown, rebuilt: unknown, path = ''): string[] {
  if (Object.is(stored, rebuilt)) return [];
  if (isObject(stored) && isObject(rebuilt) && Array.isArray(stored) === Array.isArray(rebuilt)) {
    const keys = new Set([...Object.keys(stored), ...Object.keys(rebuilt)]);
    return [...keys].flatMap((key) => jsonDifferences(stored[key], rebuilt[key], path === '' ? key : `${path}.${key}`));
  }
  return [`${path === '' ? '(value)' : path}: stored ${show(stored)}, rebuilt ${show(rebuilt)}`];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function show(value: unknown): string {
  return value === undefined
    ? '(absent)'
    : JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
}
