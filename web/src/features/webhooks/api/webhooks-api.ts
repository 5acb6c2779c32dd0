// An organization's webhook endpoints (docs/api.md, Webhooks). They live in the event store's own stream, not the
// read model, so their reads name no position: each answer is as of the command before it.
import { consoleApi } from '../../../api/console-api';
import type { Position } from '../../../api/contract';
import type { WebhookFormat } from '@libs/domain/webhooks/webhook-endpoints';

export type { WebhookFormat };
/** Splunk's and Datadog's: batched, sent with the product's own token instead of a signature. */
export type BatchingFormat = Exclude<WebhookFormat, 'standard'>;

/** `events: ["*"]` takes every type, today's and later ones. */
export type WebhookEndpoint = {
  id: string;
  url: string;
  events: string[];
  format: WebhookFormat;
  description: string;
  enabled: boolean;
  /** Why the deliveries turned it off (410, or failing for 3 days); null when a person did, or while on. */
  disabledReason: string | null;
  createdAt: string;
  /** While the secret before the last rotation still signs too. */
  secretRotatedUntil: string | null;
};

/** `token` only with a batching format: the server refuses it for `standard`. */
export type NewWebhookEndpoint = {
  url: string;
  events: string[];
  format: WebhookFormat;
  description: string;
  startFrom: 'now' | 'beginning';
  token?: string;
};

export type WebhookDelivery = {
  outcome: 'delivered' | 'failed';
  eventId: string;
  eventType: string;
  position: string;
  revision: string;
  attempt: number;
  /** null: no answer (refused, timed out, not a public address). */
  status: number | null;
  ms: number;
  /** The answer's first 200 characters. */
  excerpt: string;
  at: string;
  reason?: string;
  nextAttemptAt?: string;
};

/** A `webhook.test` event sent at once, outside the queue and the delivery log; `reason` is '' when delivered. */
export type WebhookTestResult = {
  eventId: string;
  delivered: boolean;
  status: number | null;
  ms: number;
  excerpt: string;
  reason: string;
};

export type ReplayFrom = { fromPosition: string } | { fromTime: string };

const webhooksUrl = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/webhooks`;
const webhookUrl = (organizationId: string, webhookId: string) =>
  `${webhooksUrl(organizationId)}/${encodeURIComponent(webhookId)}`;

type One = { organizationId: string; webhookId: string };

const listTag = (organizationId: string) => [{ type: 'Webhooks' as const, id: organizationId }];
const deliveriesTag = (webhookId: string) => [{ type: 'WebhookDeliveries' as const, id: webhookId }];

export const webhooksApi = consoleApi
  .enhanceEndpoints({ addTagTypes: ['Webhooks', 'WebhookDeliveries'] })
  .injectEndpoints({
    endpoints: (build) => ({
      listWebhooks: build.query<{ endpoints: WebhookEndpoint[] }, string>({
        query: (organizationId) => ({ url: webhooksUrl(organizationId) }),
        providesTags: (_result, _error, organizationId) => listTag(organizationId),
      }),
      webhookDeliveries: build.query<{ deliveries: WebhookDelivery[] }, One>({
        query: ({ organizationId, webhookId }) => ({ url: `${webhookUrl(organizationId, webhookId)}/deliveries` }),
        providesTags: (_result, _error, { webhookId }) => deliveriesTag(webhookId),
      }),
      addWebhook: build.mutation<
        WebhookEndpoint & { secret: string },
        { organizationId: string; endpoint: NewWebhookEndpoint }
      >({
        query: ({ organizationId, endpoint }) => ({ url: webhooksUrl(organizationId), method: 'POST', body: endpoint }),
        invalidatesTags: (_result, _error, { organizationId }) => listTag(organizationId),
      }),
      changeWebhook: build.mutation<WebhookEndpoint, One & { change: { enabled?: boolean } }>({
        query: ({ organizationId, webhookId, change }) => ({
          url: webhookUrl(organizationId, webhookId),
          method: 'PATCH',
          body: change,
        }),
        invalidatesTags: (_result, _error, { organizationId, webhookId }) => [
          ...listTag(organizationId),
          ...deliveriesTag(webhookId),
        ],
      }),
      deleteWebhook: build.mutation<void, One>({
        query: ({ organizationId, webhookId }) => ({ url: webhookUrl(organizationId, webhookId), method: 'DELETE' }),
        invalidatesTags: (_result, _error, { organizationId }) => listTag(organizationId),
      }),
      rotateWebhookSecret: build.mutation<{ secret: string; previousSecretValidUntil: string }, One>({
        query: ({ organizationId, webhookId }) => ({
          url: `${webhookUrl(organizationId, webhookId)}/secret`,
          method: 'POST',
          body: {},
        }),
        invalidatesTags: (_result, _error, { organizationId }) => listTag(organizationId),
      }),
      replayWebhook: build.mutation<{ replayId: string; fromRevision: Position }, One & { from: ReplayFrom }>({
        query: ({ organizationId, webhookId, from }) => ({
          url: `${webhookUrl(organizationId, webhookId)}/replay`,
          method: 'POST',
          body: from,
        }),
        invalidatesTags: (_result, _error, { webhookId }) => deliveriesTag(webhookId),
      }),
      // Outside the queue and the delivery log, so nothing is read again; a refusal may mean the endpoint is gone.
      sendTestWebhookEvent: build.mutation<WebhookTestResult, One>({
        query: ({ organizationId, webhookId }) => ({
          url: `${webhookUrl(organizationId, webhookId)}/test`,
          method: 'POST',
        }),
        invalidatesTags: (_result, error, { organizationId }) => (error === undefined ? [] : listTag(organizationId)),
      }),
    }),
  });

export const {
  useListWebhooksQuery,
  useWebhookDeliveriesQuery,
  useAddWebhookMutation,
  useChangeWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useReplayWebhookMutation,
  useSendTestWebhookEventMutation,
} = webhooksApi;
