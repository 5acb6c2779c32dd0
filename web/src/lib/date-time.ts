const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** "12 Mar 2030, 09:41" in the browser's time zone; the ISO value goes in a <time> element's dateTime. */
export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));
