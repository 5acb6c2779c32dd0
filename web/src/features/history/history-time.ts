// To the second: an audit is about which came first.
const local = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

/** "12 Mar 2030, 09:41:05" */
export const formatLocalTime = (iso: string): string => local.format(new Date(iso));

/** "2030-03-12 08:41:05.123 UTC" */
export const formatUtc = (iso: string): string =>
  `${new Date(iso).toISOString().replace('T', ' ').replace('Z', '')} UTC`;

export function instantOfLocalInput(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function localInputOf(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
