// Domains anyone can get an address at: no organization may claim one for single sign-on. The list is
// domains.json of the npm package free-email-domains 1.12.6 (MIT, github.com/Kikobeats/free-email-domains),
// kept here rather than installed because that package's install script downloads and rewrites the list.
import list from './public-mail-domains.json' with { type: 'json' };

const publicMailDomains: ReadonlySet<string> = new Set(list as string[]);

/** Whether the domain (ASCII form, lower case) is a public mail provider's. */
export const isPublicMailDomain = (domain: string): boolean => publicMailDomains.has(domain);
