/** A revision or position in a JSON answer: a number while it is a safe integer, a decimal string beyond. */
export function jsonSafe(value: bigint): number | string {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}
