// `enforce`: the members of an organization whose addresses are in its verified SSO domains sign in
// through its provider only. Password sign-in for them is refused with the usual failure, and a reset mail
// is not sent (a password they could not use). Anyone else of the domain (not a member) keeps their
// password: an organization decides for its own people only. Kept apart from the sign-in code, which it
// only asks one question.
import { Inject, Injectable } from '@nestjs/common';
import { emailDomain, InvalidCredentials, memberWithAddress } from '#domain';
import type { Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import type { PasswordGate } from '../auth/password-gate.js';
import { Organizations } from '../organizations/organizations.service.js';
import { SsoDomainClaims } from './sso-domain-claims.js';

@Injectable()
export class SsoEnforcement implements PasswordGate {
  constructor(
    private readonly claims: SsoDomainClaims,
    private readonly organizations: Organizations,
    @Inject(IDENTITY) private readonly identity: Identity,
  ) {}

  /** Whether this login name (an address, or a username whose account has one) must sign in through SSO. */
  async requiresSso(loginName: string): Promise<boolean> {
    const email = loginName.includes('@') ? loginName.trim() : await this.emailOfUsername(loginName);
    return email !== undefined && (await this.enforcingOrganizationOf(email)) !== undefined;
  }

  async enforcingOrganizationOf(email: string): Promise<string | undefined> {
    const domain = emailDomain(email);
    if (domain === null) return undefined;
    const organizationId = await this.claims.organizationOf(domain);
    if (organizationId === undefined) return undefined;
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists || state.sso?.enforce !== true) return undefined;
    return memberWithAddress(state, email.trim()) !== undefined ? organizationId : undefined;
  }

  /** The usual refusal of POST /login, after as much work as a wrong password costs, so it cannot be told apart. */
  async refusePassword(password: string): Promise<never> {
    await this.identity.hasher.verifyNobody(password);
    throw new InvalidCredentials();
  }

  private async emailOfUsername(username: string): Promise<string | undefined> {
    return (await this.identity.directory.profileByUsername(username))?.email;
  }
}
