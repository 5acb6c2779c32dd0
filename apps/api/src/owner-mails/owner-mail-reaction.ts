// The owners' mails (docs/entitlements.md, docs/billing.md), and the one mail a person gets about an organization they
// could not join (docs/directory.md): each mail has a stream of its own (threshold-mail.ts); the node that claims it
// sends it, the others take it over if the claim runs out. Few mails, so handled one after the other.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { handleCommand, inSpan, loadStream, spanPlaceFor } from '#application';
import { CONFIG, type Config } from '#config';
import {
  joinRefusalNoticeStreamPrefix,
  organizationStreamPrefix,
  ownerMailDecider,
  ownerMailId,
  thresholdMailDuty,
  webhookEndpointsDecider,
  webhookEndpointsStreamPrefix,
  type JoinRefusalNoticeOwed,
} from '#domain';
import { EVENT_STORE, type EventStore, type RecordedEvent, type Subscription } from '#event-store';
import { createMailer, isPermanentMailFailure, loadNodeName, type Identity, type Mailer } from '#identity';
import { ReactionCheckpoints } from '#read-models';
import { IDENTITY } from '../auth/identity.provider.js';
import { PINO } from '../logging/pino.js';
import { Organizations } from '../organizations/organizations.service.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import {
  joinRefusedPersonMail,
  OWNER_MAIL_EVENT_TYPES,
  ownerMail,
  owesOwnerMail,
  type OwnerMailEvent,
} from './owner-mail-text.js';

// Kept from when it mailed thresholds only, so that running nodes resume where they were.
const CHECKPOINT = 'traffic-threshold-mails';
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;
const CLAIM_LOOK_MS = 1_000;

@Injectable()
export class OwnerMailReaction implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | undefined;
  private storeId = '';
  private closing = false;
  private readonly sender: string;
  private readonly mailer: Mailer;
  private readonly logger: Logger;
  private wake: (() => void) | undefined;
  private checkpoints: ReactionCheckpoints | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) pino: Logger,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
  ) {
    this.logger = pino.child({ component: 'owner-mails' });
    this.sender = loadNodeName(config.dataDir);
    this.mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      logger: this.logger,
      logMessageText: config.nodeEnv !== 'production',
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runMode !== 'server') return;
    this.storeId = await this.store.storeId();
    const checkpoints = ReactionCheckpoints.open(this.config.dataDir);
    this.checkpoints = checkpoints;
    const saved = checkpoints.read(CHECKPOINT);
    let from: bigint | undefined;
    if (saved !== undefined && saved.storeId === this.storeId) {
      from = saved.position;
    } else {
      from = await this.store.headPosition();
      if (!(await checkpoints.saveStart(CHECKPOINT, { storeId: this.storeId, position: from }))) {
        this.logger.warn(
          'The owner mails checkpoint could not be saved: its file is held by another writer (a rebuild); the next mail saves it',
        );
      }
    }
    this.subscription = this.store.subscribeToAll({
      ...(from === undefined ? {} : { fromPosition: from }),
      filter: {
        streamPrefixes: [organizationStreamPrefix, webhookEndpointsStreamPrefix, joinRefusalNoticeStreamPrefix],
        eventTypes: OWNER_MAIL_EVENT_TYPES,
      },
      onEvent: async (event) => {
        // Stopped before the mail was settled: the checkpoint stays before it, so the next start mails it.
        const attributes = {
          'chorus.reaction': CHECKPOINT,
          'chorus.event_id': event.id,
          'chorus.position': event.position.toString(),
        };
        const mailed = await inSpan('reaction owner-mails', { ...spanPlaceFor([event]), attributes }, () =>
          this.mail(event),
        );
        if (mailed) this.advance(event.position);
      },
      onError: (error) => {
        if (!this.closing) this.logger.error({ err: error }, 'Owner mails stopped: owed mails go out after a restart');
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    this.wake?.();
    await this.subscription?.close();
    this.checkpoints?.close();
  }

  /** True once sent by any node; false when this node stops. */
  private async mail(reached: RecordedEvent): Promise<boolean> {
    const event = { type: reached.type, data: reached.data } as OwnerMailEvent;
    if (!owesOwnerMail(event)) return true;
    const organizationId = organizationOf(reached.streamId, event);
    const mail = ownerMailId(reached.type, reached.id);
    const context = {
      actor: 'system:owner-mails',
      correlationId: reached.metadata.correlationId,
      causationId: reached.id,
      origin: {},
    };
    // So that a retry after a later owner's failure does not mail them twice.
    const mailed: string[] = [];
    for (let retryMs = RETRY_FIRST_MS; !this.closing;) {
      try {
        const now = new Date();
        const claim = {
          type: 'ClaimOwnerMail',
          data: { organizationId, sender: this.sender, now, claimMs: this.config.mailClaimMs },
        } as const;
        const claimed = await handleCommand(this.store, ownerMailDecider, mail, claim, context);
        const duty = thresholdMailDuty(claimed.state, this.sender, now, this.config.mailClaimMs);
        if (duty.kind === 'settled') return true;
        if (duty.kind === 'theirs') {
          await this.sleep(Math.min(duty.until.getTime() - now.getTime(), CLAIM_LOOK_MS));
          continue;
        }
        await this.send(organizationId, event, mailed);
        const sent = {
          type: 'RecordOwnerMailSent',
          data: { organizationId, to: mailed, at: new Date().toISOString() },
        } as const;
        await handleCommand(this.store, ownerMailDecider, mail, sent, context);
        return true;
      } catch (error) {
        // A throw would stop the subscription for good.
        this.logger.warn({ err: error, organizationId, retryMs }, 'An owner mail could not be sent: trying again');
        await this.sleep(retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
    }
    return false;
  }

  /** An address refused for good is skipped; anything else is thrown to try again. */
  private async send(organizationId: string, event: OwnerMailEvent, mailed: string[]): Promise<void> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists) return;
    if (event.type === 'JoinRefusalNoticeOwed')
      return this.tellRefusedPerson({ organizationId, organizationName: state.name }, event, mailed);
    const webhookUrl =
      event.type === 'WebhookEndpointDisabled'
        ? await this.webhookUrl(organizationId, event.data.endpointId)
        : undefined;
    const owners = state.members
      .toArray()
      .filter((member) => member.role === 'owner' && !mailed.includes(member.email))
      .map((member) => member.email);
    for (const to of owners) {
      try {
        const mail = ownerMail(this.config, { organizationId, organizationName: state.name }, event, webhookUrl);
        if (mail === undefined) return;
        await this.mailer.send({ to, ...mail });
        mailed.push(to);
      } catch (error) {
        if (!isPermanentMailFailure(error)) throw error;
        this.logger.warn({ err: error, organizationId }, 'An owner address was refused for good: the mail skips it');
      }
    }
  }

  /**
   * To the person's address as it is now: none once they are erased (or, without an account, once the month's key is).
   */
  private async tellRefusedPerson(
    about: { organizationId: string; organizationName: string },
    event: JoinRefusalNoticeOwed,
    mailed: string[],
  ): Promise<void> {
    const { userId, email } = event.data;
    const to = userId === undefined ? email : (await this.identity.directory.profile(userId))?.email;
    // An erased person's address reads as a pseudonym, a month's expired one as "removed": neither is an address.
    if (to === undefined || !to.includes('@') || mailed.includes(to)) return;
    try {
      await this.mailer.send({ to, ...joinRefusedPersonMail(this.config, about, event.data) });
      mailed.push(to);
    } catch (error) {
      if (!isPermanentMailFailure(error)) throw error;
      this.logger.warn(
        { err: error, organizationId: about.organizationId, userId },
        'A refused person’s address was refused for good: no mail',
      );
    }
  }

  private async webhookUrl(organizationId: string, endpointId: string): Promise<string | undefined> {
    const { state } = await loadStream(this.store, webhookEndpointsDecider, organizationId);
    return state.endpoints.find((endpoint) => endpoint.endpointId === endpointId)?.url;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(ms, 0));
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private advance(position: bigint): void {
    if (this.closing) return;
    try {
      this.checkpoints?.save(CHECKPOINT, { storeId: this.storeId, position }, false);
    } catch (error) {
      // A lagging checkpoint only makes a restart look at more mails, each settled once on its stream.
      this.logger.warn({ err: error }, 'The owner mails checkpoint could not be saved');
    }
  }
}

/** The organization a mail is about: named by its stream, or by the notice to a person. */
function organizationOf(streamId: string, event: OwnerMailEvent): string {
  if (event.type === 'JoinRefusalNoticeOwed') return event.data.organizationId;
  const prefix = streamId.startsWith(webhookEndpointsStreamPrefix)
    ? webhookEndpointsStreamPrefix
    : organizationStreamPrefix;
  return streamId.slice(prefix.length);
}
