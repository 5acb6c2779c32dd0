// What every endpoint's sender on a node shares (webhook-deliveries.ts is the one host).
import type { Logger } from 'pino';
import type { LoadedStream } from '#application';
import type { OrganizationState, WebhookDeliveryCommand, WebhookDeliveryState } from '#domain';
import type { EventStore } from '#event-store';
import type { ProviderFetch } from '#identity';
import type { AppClock } from '../config/app-clock.js';
import type { Organizations } from '../organizations/organizations.service.js';
import type { WebhookEndpoints } from './webhook-endpoints.service.js';
import type { WebhookSource } from './webhook-source.js';

/** What every sender of a node shares. */
export interface SenderHost {
  readonly store: EventStore;
  readonly endpoints: WebhookEndpoints;
  readonly organizations: Organizations;
  readonly source: WebhookSource;
  readonly clock: AppClock;
  readonly senderName: string;
  readonly sendingFetch: ProviderFetch;
  readonly log: Logger;
  readonly isClosing: boolean;
  loadDeliveries(endpointId: string): Promise<LoadedStream<WebhookDeliveryState>>;
  record(
    endpointId: string,
    known: LoadedStream<WebhookDeliveryState>,
    command: WebhookDeliveryCommand,
  ): Promise<boolean>;
  disable(organizationId: string, endpointId: string, reason: string): Promise<void>;
  /** Undefined: the change left every flag as it was (traffic held equal). */
  entitlementsChange(
    organizationId: string,
    before: OrganizationState,
    after: OrganizationState,
  ): { etag: string; changed: string[] } | undefined;
}
