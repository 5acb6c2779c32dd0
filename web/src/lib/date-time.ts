const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "31 December 2026": a billing date, in UTC as Stripe and the owners' mails count it. */
export const formatDay = (iso: string): string => day.format(new Date(iso));

export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));
