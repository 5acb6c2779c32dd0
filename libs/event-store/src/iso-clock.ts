/** Formatted once per millisecond: toISOString() costs as much as the rest of an append's checks. */
export function isoClock(): () => string {
  let formattedAt = Number.NaN;
  let formatted = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formatted = new Date(now).toISOString();
      formattedAt = now;
    }
    return formatted;
  };
}
