/** "chorus-account-2030-03-12.json": the day it was downloaded, where the person is. */
export function dataFileName(now: Date = new Date()): string {
  const day = [now.getFullYear(), now.getMonth() + 1, now.getDate()]
    .map((part) => String(part).padStart(2, '0'))
    .join('-');
  return `chorus-account-${day}.json`;
}

/** Offers the JSON as a download, as a link with `download` would. */
export function saveJson(fileName: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked at once, Chromium can lose the download it has not started reading yet.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
