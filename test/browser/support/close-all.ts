// Closes every started resource in order, even when one fails, then reports the first failure.
export async function closeAll(...resources: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const resource of resources) {
    try {
      await resource?.close();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}
