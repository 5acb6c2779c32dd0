import { readFile } from 'node:fs/promises';
import { CommandBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import { parseSsoDomain } from '#domain';
import {
  ChangeOrganizationCommand,
  commandAnswer,
  ConfigureSsoCommand,
  configureSsoRequest,
  organizationIdSchema,
  ProblemError,
  SsoDomainVerification,
} from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { CliContext, GetCliContext } from '../cli-context.js';

const usageError = (detail: string): ProblemError =>
  new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail);

type SsoOptions = {
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  domains?: string;
  enforce?: boolean;
  trustProviderMfa?: boolean;
  samlMetadata?: string;
  allowIdpInitiated?: boolean;
  disable?: boolean;
  json?: boolean;
};

/** A URL is fetched by the server as an owner's would be (bounded, public addresses only); anything else is a file. */
async function samlMetadataFrom(value: string): Promise<{ metadataUrl: string } | { metadataXml: string }> {
  if (/^https?:\/\//i.test(value)) return { metadataUrl: value };
  try {
    return { metadataXml: await readFile(value, 'utf8') };
  } catch {
    throw usageError(`--saml-metadata: ${value} is neither an http(s) URL nor a readable file`);
  }
}

const domainList = (domains: string): string[] =>
  domains
    .split(',')
    .map((domain) => domain.trim())
    .filter((domain) => domain !== '');

/** `-` reads the secret from standard input: it then stays out of the process list and the shell's history. */
async function secretFrom(value: string | undefined): Promise<string | undefined> {
  if (value !== '-') return value;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/**
 * `chorus org:sso ID --issuer URL --client-id X --client-secret Y --domains a,b [--enforce] [--trust-provider-mfa]`
 * sets the
 * organization's single sign-on (the issuer is checked by OIDC discovery); `--saml-metadata <file|url> --domains a,b
 * [--enforce] [--allow-idp-initiated]` sets SAML instead; `chorus org:sso ID --disable` turns it off.
 */
export function registerOrgSsoCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:sso')
    .description("set or turn off an organization's single sign-on (OpenID Connect or SAML 2.0)")
    .argument('<id>', 'the organization id')
    .option('--issuer <url>', "the identity provider's issuer (https://)")
    .option('--client-id <id>', 'the client id the provider gave Chorus')
    .option(
      '--client-secret <secret>',
      'its client secret; - reads it from standard input; leave out to keep the one configured',
    )
    .option('--domains <domains>', 'the e-mail domains it signs in, comma-separated')
    .option('--enforce', 'addresses of those domains may only sign in through it')
    .option('--trust-provider-mfa', "take the provider's MFA for Chorus's second step at sign-ons through it")
    .option(
      '--saml-metadata <file|url>',
      "SAML 2.0 instead of OpenID Connect: the identity provider's metadata, a file or an https:// URL",
    )
    .option('--allow-idp-initiated', 'SAML: sign-ins started at the identity provider (its app tiles) are allowed')
    .option('--disable', 'turn single sign-on off')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, id: string, options: SsoOptions) => {
        const organizationId = parseInput(organizationIdSchema, id, '<id>');
        const commands = context.app.get(CommandBus);
        if (options.disable === true) {
          const { disable: _disable, json: _json, ...others } = options;
          if (Object.values(others).some((option) => option !== undefined))
            throw usageError('--disable takes no other option');
          const result = await commands.execute(
            new ChangeOrganizationCommand(
              organizationId,
              { type: 'DisableSso', data: {} },
              context.commandContext('org:sso'),
            ),
          );
          return {
            json: commandAnswer(result),
            text: `Single sign-on is off for ${result.id} (revision ${result.revision}, position ${result.position}).`,
          };
        }
        if (options.samlMetadata !== undefined)
          return configureSaml(context, organizationId, options, options.samlMetadata);
        if (options.allowIdpInitiated === true) throw usageError('--allow-idp-initiated is for SAML (--saml-metadata)');
        if (options.issuer === undefined || options.clientId === undefined || options.domains === undefined) {
          throw usageError('--issuer, --client-id and --domains are required (or --disable)');
        }
        const clientSecret = await secretFrom(options.clientSecret);
        const settings = parseInput(configureSsoRequest, {
          issuer: options.issuer,
          clientId: options.clientId,
          ...(clientSecret === undefined ? {} : { clientSecret }),
          domains: domainList(options.domains),
          enforce: options.enforce === true,
          trustProviderMfa: options.trustProviderMfa === true,
        });
        const result = await commands.execute(
          new ConfigureSsoCommand(organizationId, settings, context.commandContext('org:sso')),
        );
        return {
          json: commandAnswer(result),
          text:
            `Single sign-on for ${result.id}: ${options.issuer}, domains ${settings.domains.join(', ')}${settings.enforce ? ', enforced' : ''}${settings.trustProviderMfa === true ? ", the provider's MFA trusted" : ''} ` +
            `(revision ${result.revision}, position ${result.position}). A new domain signs no one in until its DNS record is published ` +
            `and checked (the SSO page shows it; chorus org:sso:verify ${result.id} <domain>).`,
        };
      }),
    );
}

async function configureSaml(context: CliContext, organizationId: string, options: SsoOptions, metadata: string) {
  if (options.issuer ?? options.clientId ?? options.clientSecret) {
    throw usageError('--saml-metadata takes no --issuer, --client-id or --client-secret');
  }
  if (options.domains === undefined) throw usageError('--domains is required');
  const settings = parseInput(configureSsoRequest, {
    protocol: 'saml',
    ...(await samlMetadataFrom(metadata)),
    domains: domainList(options.domains),
    enforce: options.enforce === true,
    trustProviderMfa: options.trustProviderMfa === true,
    allowIdpInitiated: options.allowIdpInitiated === true,
  });
  const result = await context.app
    .get(CommandBus)
    .execute(new ConfigureSsoCommand(organizationId, settings, context.commandContext('org:sso')));
  return {
    json: commandAnswer(result),
    text:
      `SAML single sign-on for ${result.id}: domains ${settings.domains.join(', ')}${settings.enforce === true ? ', enforced' : ''} ` +
      `(revision ${result.revision}, position ${result.position}). Give your identity provider the entity id ${context.config.publicUrl}/auth/saml/${result.id}/metadata ` +
      `and the ACS URL ${context.config.publicUrl}/auth/saml/${result.id}/acs. A new domain signs no one in until its DNS record is published ` +
      `and checked (chorus org:sso:verify ${result.id} <domain>).`,
  };
}

/**
 * `chorus org:sso:verify ID DOMAIN`: looks the domain's `_chorus-verification` TXT record up now, and records what
 * changed.
 */
export function registerOrgSsoVerifyCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:sso:verify')
    .description("check a single sign-on domain's DNS record now (the record the SSO page shows)")
    .argument('<id>', 'the organization id')
    .argument('<domain>', 'one of its single sign-on domains')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, id: string, domain: string) => {
        const organizationId = parseInput(organizationIdSchema, id, '<id>');
        const parsed = parseSsoDomain(domain);
        if (parsed === null) throw usageError(`<domain>: ${domain} is not an e-mail domain`);
        const check = await context.app
          .get(SsoDomainVerification)
          .check(organizationId, parsed.ascii, context.commandContext('org:sso:verify'));
        const found = {
          found: 'the record holds the token',
          absent: 'the record is not there (or holds another value)',
          unknown: 'DNS did not answer; nothing changed',
        };
        return {
          json: { ...check, domain: parsed.unicode },
          text: `${parsed.unicode}: ${check.status}; ${found[check.lookup]}.`,
        };
      }),
    );
}
