// So that a newcomer goes from clone to signed in with `npm start`: on an empty store (SEED_DEMO, on outside
// production)
// a demo organization on the Chorus enterprise plan, its limits the plan's own (no setting that add-ons and plans
// would not raise), and an owner whose password the banner prints once.
import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '#config';
import { DomainError } from '#domain';
import { newCommandContext } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import type { Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { PINO } from '../logging/pino.js';
import { AddMemberCommand } from '../organizations/add-member.command.js';
import { AddSiteCommand } from '../organizations/add-site.command.js';
import { ChangeOrganizationCommand } from '../organizations/change-organization.command.js';
import { CreateOrganizationCommand } from '../organizations/create-organization.command.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';

export const demoOrganizationId = 'demo';
export const demoOwnerEmail = 'owner@demo.chorus.localhost';

/** How to sign in on this store, as far as the demo knows. */
export type DemoSignIn =
  /** This start created the demo owner: its password is known now and never again. */
  | { kind: 'created'; email: string; password: string }
  /** The store was not empty: the demo owner's address, when that user is registered there. */
  | { kind: 'existing'; email: string | undefined };

@Injectable()
export class DemoSeed implements OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly commands: MeteredCommandBus,
    @Inject(PINO) private readonly logger: Logger,
  ) {}

  private created: { email: string; password: string } | undefined;

  async signIn(): Promise<DemoSignIn> {
    if (this.created !== undefined) return { kind: 'created', ...this.created };
    const demoOwner = await this.identity.directory.findUserIdByEmail(demoOwnerEmail);
    return { kind: 'existing', email: demoOwner === undefined ? undefined : demoOwnerEmail };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.seedDemo || this.runMode !== 'server' || (await this.store.headPosition()) !== undefined) return;
    try {
      await this.seed();
    } catch (error) {
      // Another node seeding the same empty store got there first.
      if (error instanceof DomainError && error.code === 'ALREADY_EXISTS') return;
      throw error;
    }
  }

  private async seed(): Promise<void> {
    const correlationId = randomUUID();
    const context = newCommandContext('system', { reason: 'demo seed' }, correlationId);
    await this.commands.execute(
      new CreateOrganizationCommand({ id: demoOrganizationId, name: 'Demo Organization' }, context),
    );
    const plan = { line: 'chorus', plan: 'enterprise' } as const;
    await this.commands.execute(
      new ChangeOrganizationCommand(demoOrganizationId, { type: 'AssignPlan', data: plan }, context),
    );
    await this.commands.execute(
      new ChangeOrganizationCommand(demoOrganizationId, { type: 'EnableChorus', data: {} }, context),
    );

    const password = randomBytes(15).toString('base64url');
    const { userId } = await this.identity.registration.register(
      { email: demoOwnerEmail, password },
      newCommandContext('system', {}, correlationId),
    );
    await this.commands.execute(
      new AddMemberCommand(
        demoOrganizationId,
        { email: demoOwnerEmail, role: 'owner', chorusUser: true, userId },
        context,
      ),
    );
    await this.commands.execute(
      new AddSiteCommand(demoOrganizationId, { name: 'Demo shop', hostname: 'shop.example.com' }, context),
    );
    await this.commands.execute(
      new AddSiteCommand(demoOrganizationId, { name: 'Demo blog', hostname: 'blog.example.com' }, context),
    );

    this.logger.info({ organizationId: demoOrganizationId, userId }, 'demo organization and owner created');
    this.created = { email: demoOwnerEmail, password };
  }
}
