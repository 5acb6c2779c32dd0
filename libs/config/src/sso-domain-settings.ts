import { isIP } from 'node:net';

export type SsoDomainSettings = {
  /** undefined: the system's resolvers. */
  dnsServers: string[] | undefined;
  /** How long a verified domain's record may be missing before it is unverified. */
  graceMs: number;
  checkEveryMs: number;
};

/** As node's Resolver.setServers takes it. */
function dnsServer(entry: string): string | null {
  if (isIP(entry) !== 0) return entry;
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry);
  const plain = /^([^:]+):(\d{1,5})$/.exec(entry);
  const [host, port] =
    bracketed !== null ? [bracketed[1], bracketed[2]] : plain !== null ? [plain[1], plain[2]] : [undefined, undefined];
  if (host === undefined || port === undefined || isIP(host) === 0 || Number(port) < 1 || Number(port) > 65535)
    return null;
  return entry;
}

export function parseSsoDomainSettings(
  setting: { DNS_SERVERS: string | undefined; SSO_DOMAIN_GRACE_HOURS: number; SSO_DOMAIN_CHECK_SECONDS: number },
  problems: string[],
): SsoDomainSettings {
  let dnsServers: string[] | undefined;
  if (setting.DNS_SERVERS !== undefined) {
    dnsServers = [];
    for (const entry of setting.DNS_SERVERS.split(',').map((value) => value.trim())) {
      const server = dnsServer(entry);
      if (server === null)
        problems.push(
          `DNS_SERVERS: "${entry}" is not an IP address with an optional port (e.g. 192.0.2.53 or 192.0.2.53:5353)`,
        );
      else dnsServers.push(server);
    }
  }
  return {
    dnsServers,
    graceMs: setting.SSO_DOMAIN_GRACE_HOURS * 3_600_000,
    checkEveryMs: setting.SSO_DOMAIN_CHECK_SECONDS * 1000,
  };
}
