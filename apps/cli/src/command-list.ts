// Every command of the command line, with what its listing in `chorus --help` says, and how to load it.
// A call loads only the module of the command it names (and that module what it needs: Nest and the
// store for most), so `--version`, `--help` and a usage error start in a fraction of a second (bench/cli).
import type { Command } from 'commander';
import type { GetCliContext } from './cli-context.js';

export type Register = (program: Command, getContext: GetCliContext) => void;

export type CommandEntry = {
  name: string;
  /** The arguments, as the command's own registration declares them (checked by commands.unit.spec.ts). */
  args: string;
  /** The start of the command's description: its line in the top-level help. */
  summary: string;
  load: () => Promise<Register>;
  /** Runs beside serving nodes (a backup, a copy): it gives them the CPU first, from before its modules load. */
  besideServers?: true;
};

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'org:create',
    args: '',
    summary: 'create an organization and print its id',
    load: async () => (await import('./commands/org-create.command.js')).registerOrgCreateCommand,
  },
  {
    name: 'org:list',
    args: '',
    summary: 'list the organizations: id, name, plans, members and sites',
    load: async () => (await import('./commands/org-list.command.js')).registerOrgListCommand,
  },
  {
    name: 'org:members',
    args: '<id>',
    summary: "list one page of an organization's members, in the order they joined",
    load: async () => (await import('./commands/org-members.command.js')).registerOrgMembersCommand,
  },
  {
    name: 'org:plan',
    args: '<id>',
    summary: 'assign a plan to an organization',
    load: async () => (await import('./commands/org-plan.command.js')).registerOrgPlanCommand,
  },
  {
    name: 'org:chorus',
    args: '<id>',
    summary: "turn an organization's Chorus line on or off",
    load: async () => (await import('./commands/org-chorus.command.js')).registerOrgChorusCommand,
  },
  {
    name: 'org:member:add',
    args: '<id>',
    summary: 'add an existing user to an organization, with a role',
    load: async () => (await import('./commands/org-member-add.command.js')).registerOrgMemberAddCommand,
  },
  {
    name: 'org:sso',
    args: '<id>',
    summary: "set or turn off an organization's single sign-on (OpenID Connect or SAML 2.0)",
    load: async () => (await import('./commands/org-sso.command.js')).registerOrgSsoCommand,
  },
  {
    name: 'org:sso:verify',
    args: '<id> <domain>',
    summary: "check a single sign-on domain's DNS record now",
    load: async () => (await import('./commands/org-sso.command.js')).registerOrgSsoVerifyCommand,
  },
  {
    name: 'org:scim:token',
    args: '<id>',
    summary: "make a SCIM token for an organization's identity provider and print it once (enterprise plans)",
    load: async () => (await import('./commands/org-scim-token.command.js')).registerOrgScimTokenCommand,
  },
  {
    name: 'api-key:create',
    args: '',
    summary: 'create an API key and print it once',
    load: async () => (await import('./commands/api-key-create.command.js')).registerApiKeyCreateCommand,
  },
  {
    name: 'api-key:list',
    args: '',
    summary: 'list API keys: id, name, scopes, organization, created, revoked, last used',
    load: async () => (await import('./commands/api-key-list.command.js')).registerApiKeyListCommand,
  },
  {
    name: 'api-key:revoke',
    args: '<id>',
    summary: 'revoke an API key',
    load: async () => (await import('./commands/api-key-revoke.command.js')).registerApiKeyRevokeCommand,
  },
  {
    name: 'org:history',
    args: '<id>',
    summary: "an organization's events, oldest first",
    load: async () => (await import('./commands/org-history.command.js')).registerOrgHistoryCommand,
  },
  {
    name: 'org:state',
    args: '<id>',
    summary: 'the state of an organization, now or as it was at a revision or an instant',
    load: async () => (await import('./commands/org-state.command.js')).registerOrgStateCommand,
  },
  {
    name: 'projections:rebuild',
    args: '',
    summary: 'drop and rebuild every read model from the events',
    load: async () => (await import('./commands/projections-rebuild.command.js')).registerProjectionsRebuildCommand,
  },
  {
    name: 'projections:verify',
    args: '',
    summary: 'rebuild every read model in memory and report any difference from the stored one',
    load: async () => (await import('./commands/projections-verify.command.js')).registerProjectionsVerifyCommand,
  },
  {
    name: 'projector:run',
    args: '',
    summary: 'run the projector in this process until interrupted',
    load: async () => (await import('./commands/projector-run.command.js')).registerProjectorRunCommand,
  },
  {
    name: 'user:create',
    args: '',
    summary: 'create a user who can sign in, optionally as a member of an organization',
    load: async () => (await import('./commands/user-create.command.js')).registerUserCreateCommand,
  },
  {
    name: 'user:export',
    args: '<person>',
    summary: 'print every fact Chorus holds about a person, as JSON',
    load: async () => (await import('./commands/user-export.command.js')).registerUserExportCommand,
  },
  {
    name: 'user:erase',
    args: '<person>',
    summary: "erase a person's personal data for good",
    load: async () => (await import('./commands/user-erase.command.js')).registerUserEraseCommand,
  },
  {
    name: 'store:backup',
    args: '',
    summary: 'take a backup of the store while servers run',
    besideServers: true,
    load: async () => (await import('./commands/store-backup.command.js')).registerStoreBackupCommand,
  },
  {
    name: 'store:restore',
    args: '',
    summary: 'restore a backup into the configured store, which must be empty',
    load: async () => (await import('./commands/store-restore.command.js')).registerStoreRestoreCommand,
  },
  {
    name: 'store:copy',
    args: '',
    summary: 'copy another store into the configured one while the source serves',
    besideServers: true,
    load: async () => (await import('./commands/store-copy.command.js')).registerStoreCopyCommand,
  },
  {
    name: 'store:verify',
    args: '',
    summary: "prove the configured store's log by its chain, or with --against compare it with another store's",
    load: async () => (await import('./commands/store-verify.command.js')).registerStoreVerifyCommand,
  },
  {
    name: 'store:chain',
    args: '',
    summary: 'chain the events a Chorus before the chain wrote',
    load: async () => (await import('./commands/store-chain.command.js')).registerStoreChainCommand,
  },
  {
    name: 'store:seal-personal-data',
    args: '',
    summary: 'seal the personal data an older Chorus wrote in clear',
    load: async () =>
      (await import('./commands/store-seal-personal-data.command.js')).registerStoreSealPersonalDataCommand,
  },
  {
    name: 'history:checkpoint',
    args: '',
    summary: "sign a checkpoint of the log's chain now",
    load: async () => (await import('./commands/history-checkpoint.command.js')).registerHistoryCheckpointCommand,
  },
  {
    name: 'history:public-key',
    args: '',
    summary: "print the public key (PEM) that checks the history's signed checkpoints",
    load: async () => (await import('./commands/history-public-key.command.js')).registerHistoryPublicKeyCommand,
  },
  {
    name: 'history:verify',
    args: '<file>',
    summary: 'check an exported history with its proof offline',
    load: async () => (await import('./commands/history-verify.command.js')).registerHistoryVerifyCommand,
  },
  {
    name: 'billing:sign',
    args: '[file]',
    summary: 'print the Billing-Signature header value for a billing event body',
    load: async () => (await import('./commands/billing-sign.command.js')).registerBillingSignCommand,
  },
  {
    name: 'billing:unmatched',
    args: '',
    summary: 'list the Stripe events Chorus could not place',
    load: async () => (await import('./commands/billing-unmatched.command.js')).registerBillingUnmatchedCommand,
  },
];

/** The command a call names: the first word that is not an option (`chorus help X` names X). */
export function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  const words = argv.filter((word) => !word.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((entry) => entry.name === name);
}
