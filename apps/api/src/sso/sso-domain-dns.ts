// The DNS half of SSO domain verification: the TXT records of `_chorus-verification.<domain>`, through
// node's resolver with the servers of DNS_SERVERS (the system's when unset). Every query is bounded: a
// per-try timeout and a number of tries, so a server that never answers costs at most seconds.
import { Resolver } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '#config';
import { ssoVerificationRecordName } from '#domain';

/**
 * found: a TXT record holds the token; absent: the name has no such record; unknown: DNS did not answer (nothing is
 * decided).
 */
export type RecordLookup = 'found' | 'absent' | 'unknown';

const timeoutMs = 2_000;
const tries = 2;
/** Answers that say the record is not there, as opposed to a server that failed to answer. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

@Injectable()
export class SsoDomainDns {
  private readonly resolver = new Resolver({ timeout: timeoutMs, tries });

  constructor(@Inject(CONFIG) config: Config) {
    if (config.ssoDomains.dnsServers !== undefined) this.resolver.setServers(config.ssoDomains.dnsServers);
  }

  /**
   * Whether the domain's verification record holds the token (records split in strings are joined, as RFC 7208 reads
   * them).
   */
  async lookUp(domain: string, token: string): Promise<RecordLookup> {
    try {
      const records = await this.resolver.resolveTxt(ssoVerificationRecordName(domain));
      return records.some((chunks) => chunks.join('').trim() === token) ? 'found' : 'absent';
    } catch (error) {
      return ABSENT.has((error as NodeJS.ErrnoException).code ?? '') ? 'absent' : 'unknown';
    }
  }
}
