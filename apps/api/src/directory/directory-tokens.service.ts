// An organization's SCIM tokens (docs/directory.md): made and revoked by its owners, checked on every SCIM request.
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type CommandContext } from '#application';
import { directoryDecider, type ScimToken } from '#domain';
import { AppClock } from '../config/app-clock.js';
import { DirectoryStreams } from './directory-streams.js';

/**
 * `chscim_<organization id>.<token id>.<secret>`: the organization and token find the stored hash; 256 random bits of
 * secret.
 */
const SCIM_TOKEN = /^chscim_([a-z0-9][a-z0-9-]{0,62})\.([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/;
const TOKEN_USE_GRANULARITY_MS = 60_000;
const digestOf = (secret: string): string => `sha256:${hash('sha256', secret, 'hex')}`;

export type ScimCaller = { organizationId: string; tokenId: string };
export type TokenSummary = Omit<ScimToken, 'secretHash'>;

@Injectable()
export class DirectoryTokens {
  constructor(
    private readonly streams: DirectoryStreams,
    private readonly clock: AppClock,
  ) {}

  async createToken(
    organizationId: string,
    name: string,
    context: CommandContext,
  ): Promise<TokenSummary & { token: string }> {
    await this.streams.enterprise(organizationId, 'refuse');
    const tokenId = randomBytes(12).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const at = this.clock.now().toISOString();
    await this.streams.decide(
      organizationId,
      { type: 'CreateScimToken', data: { tokenId, name, secretHash: digestOf(secret), at } },
      context,
    );
    return {
      tokenId,
      name,
      createdAt: at,
      revokedAt: null,
      lastUsedAt: null,
      token: `chscim_${organizationId}.${tokenId}.${secret}`,
    };
  }

  async tokens(organizationId: string): Promise<TokenSummary[]> {
    await this.streams.existing(organizationId);
    return (await this.streams.load(organizationId)).tokens.map(({ secretHash: _, ...token }) => token);
  }

  async revokeToken(organizationId: string, tokenId: string, context: CommandContext): Promise<void> {
    await this.streams.decide(
      organizationId,
      { type: 'RevokeScimToken', data: { tokenId, at: this.clock.now().toISOString() } },
      context,
    );
  }

  /**
   * The caller a bearer token stands for; undefined for anything but a live token. Read from the organization's
   * directory stream on every request (only the events after the cached fold), so a revocation holds at once on every
   * node.
   */
  async authenticate(bearer: string, context: CommandContext): Promise<ScimCaller | undefined> {
    const match = SCIM_TOKEN.exec(bearer);
    if (match === null) return undefined;
    const [, organizationId = '', tokenId = '', secret = ''] = match;
    const directory = await this.streams.load(organizationId);
    const token = directory.tokens.find((candidate) => candidate.tokenId === tokenId);
    const offered = Buffer.from(digestOf(secret));
    const stored = Buffer.from(token?.secretHash ?? digestOf(randomUUID()));
    if (
      token === undefined ||
      token.revokedAt !== null ||
      offered.length !== stored.length ||
      !timingSafeEqual(offered, stored)
    )
      return undefined;
    const use = {
      type: 'RecordScimTokenUse',
      data: { tokenId, at: this.clock.now(), useGranularityMs: TOKEN_USE_GRANULARITY_MS },
    } as const;
    // The use is decided on the fold just read, so most requests (a use recorded within the minute) read the stream
    // once.
    if (directoryDecider.decide(use, directory).length > 0)
      await this.streams.decide(organizationId, use, context).catch(() => undefined);
    return { organizationId, tokenId };
  }
}
