// An organization's webhook endpoints, all on one stream so that its limit of ten is decided in one place. No secret
// is ever in the log: each generation's secret is a key of the key store, made on first use (docs/webhooks.md).
import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';
import { cursorOf, type WebhookCursor, type WebhookCursorData } from './webhook-deliveries.js';

export const MAX_WEBHOOK_ENDPOINTS = 10;
/** Both secrets sign for this long after a rotation, so that a receiver can switch without losing a delivery. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;
/**
 * `standard`: one signed request per event; the others batch the history's sentences as those products' intake APIs
 * take them.
 */
export const WEBHOOK_FORMATS = ['standard', 'splunk-hec', 'datadog'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const webhookEndpointsStreamPrefix = 'webhooks-';
export const webhookEndpointsStream = (organizationId: string): string =>
  `${webhookEndpointsStreamPrefix}${organizationId}`;

/** `startAfter`: where the first delivery comes after (-1 and -1: from the organization's beginning). */
export type WebhookEndpointCreated = {
  type: 'WebhookEndpointCreated';
  data: {
    endpointId: string;
    url: string;
    events: string[];
    format: WebhookFormat;
    description: string;
    startAfter: WebhookCursorData;
    at: string;
    sealedToken?: string;
  };
};
export type WebhookEndpointChanged = {
  type: 'WebhookEndpointChanged';
  data: {
    endpointId: string;
    url?: string;
    events?: string[];
    description?: string;
    enabled?: boolean;
    sealedToken?: string;
  };
};
/** `generation` names the new secret's key; the one before it signs too until `previousUntil`. */
export type WebhookSecretRotated = {
  type: 'WebhookSecretRotated';
  data: { endpointId: string; generation: number; previousUntil: string };
};
/** By the deliveries (a receiver answering 410, or failing for 3 days): enabling it again is a change by a person. */
export type WebhookEndpointDisabled = {
  type: 'WebhookEndpointDisabled';
  data: { endpointId: string; reason: string; at: string };
};
/** Deliveries go on after `after` (every event from the one asked for, inclusive). */
export type WebhookReplayRequested = {
  type: 'WebhookReplayRequested';
  data: { endpointId: string; after: WebhookCursorData; replayId: string; at: string };
};
export type WebhookEndpointDeleted = { type: 'WebhookEndpointDeleted'; data: { endpointId: string; at: string } };

export type WebhookEndpointEvent =
  | WebhookEndpointCreated
  | WebhookEndpointChanged
  | WebhookSecretRotated
  | WebhookEndpointDisabled
  | WebhookReplayRequested
  | WebhookEndpointDeleted;

export type WebhookEndpoint = {
  endpointId: string;
  url: string;
  events: string[];
  format: WebhookFormat;
  description: string;
  /**
   * The product's token (Splunk's HEC token, Datadog's API key), sealed under the endpoint's own key
   * (`webhookTokenSubject`).
   */
  sealedToken: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  generation: number;
  previousUntil: string | null;
  startAfter: WebhookCursor;
  /** The latest replay asked for: deliveries restart after its cursor once they have seen its id. */
  replay: { replayId: string; after: WebhookCursor } | null;
};

export type WebhookEndpoints = { endpoints: readonly WebhookEndpoint[] };

export const noWebhookEndpoints: WebhookEndpoints = { endpoints: [] };

const changeOne = (
  state: WebhookEndpoints,
  endpointId: string,
  change: (endpoint: WebhookEndpoint) => WebhookEndpoint,
): WebhookEndpoints => ({
  endpoints: state.endpoints.map((endpoint) => (endpoint.endpointId === endpointId ? change(endpoint) : endpoint)),
});

export function evolveWebhookEndpoints(state: WebhookEndpoints, event: WebhookEndpointEvent): WebhookEndpoints {
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { endpointId, url, events, format, description, startAfter, at, sealedToken } = event.data;
      const endpoint: WebhookEndpoint = {
        endpointId,
        url,
        events,
        format,
        description,
        sealedToken: sealedToken ?? null,
        enabled: true,
        disabledReason: null,
        createdAt: at,
        generation: 1,
        previousUntil: null,
        startAfter: cursorOf(startAfter),
        replay: null,
      };
      return { endpoints: [...state.endpoints, endpoint] };
    }
    case 'WebhookEndpointChanged': {
      const { endpointId, enabled, ...changed } = event.data;
      return changeOne(state, endpointId, (endpoint) => ({
        ...endpoint,
        ...changed,
        ...(enabled === undefined ? {} : { enabled, disabledReason: enabled ? null : endpoint.disabledReason }),
      }));
    }
    case 'WebhookSecretRotated':
      return changeOne(state, event.data.endpointId, (endpoint) => ({
        ...endpoint,
        generation: event.data.generation,
        previousUntil: event.data.previousUntil,
      }));
    case 'WebhookEndpointDisabled':
      return changeOne(state, event.data.endpointId, (endpoint) => ({
        ...endpoint,
        enabled: false,
        disabledReason: event.data.reason,
      }));
    case 'WebhookReplayRequested':
      return changeOne(state, event.data.endpointId, (endpoint) => ({
        ...endpoint,
        replay: { replayId: event.data.replayId, after: cursorOf(event.data.after) },
      }));
    case 'WebhookEndpointDeleted':
      return { endpoints: state.endpoints.filter((endpoint) => endpoint.endpointId !== event.data.endpointId) };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export type WebhookEndpointCommand =
  | { type: 'CreateWebhookEndpoint'; data: WebhookEndpointCreated['data'] }
  | { type: 'ChangeWebhookEndpoint'; data: WebhookEndpointChanged['data'] }
  | { type: 'RotateWebhookSecret'; data: { endpointId: string; at: Date } }
  | { type: 'DisableWebhookEndpoint'; data: WebhookEndpointDisabled['data'] }
  | { type: 'ReplayWebhookEndpoint'; data: WebhookReplayRequested['data'] }
  | { type: 'DeleteWebhookEndpoint'; data: { endpointId: string; at: Date } };

export const endpointNotFound = (endpointId: string): DomainError =>
  new DomainError('NOT_FOUND', `This organization has no webhook endpoint ${endpointId}.`, { entity: 'webhook' });

function existing(state: WebhookEndpoints, endpointId: string): WebhookEndpoint {
  const endpoint = state.endpoints.find((candidate) => candidate.endpointId === endpointId);
  if (endpoint === undefined) throw endpointNotFound(endpointId);
  return endpoint;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((value, index) => value === b[index]);

export function decideWebhookEndpoints(
  command: WebhookEndpointCommand,
  state: WebhookEndpoints,
): WebhookEndpointEvent[] {
  switch (command.type) {
    case 'CreateWebhookEndpoint': {
      if (state.endpoints.length >= MAX_WEBHOOK_ENDPOINTS) {
        throw new DomainError(
          'LIMIT_EXCEEDED',
          `An organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first.`,
          {
            resource: 'webhookEndpoints',
            limit: MAX_WEBHOOK_ENDPOINTS,
            count: state.endpoints.length,
          },
        );
      }
      // An endpoint id is 96 random bits, so one there already is a bug, not a refusal.
      if (state.endpoints.some((endpoint) => endpoint.endpointId === command.data.endpointId))
        throw new Error(`Webhook endpoint id ${command.data.endpointId} is already in use`);
      return [{ type: 'WebhookEndpointCreated', data: command.data }];
    }
    case 'ChangeWebhookEndpoint': {
      const endpoint = existing(state, command.data.endpointId);
      const { endpointId, url, events, description, enabled, sealedToken } = command.data;
      const changed = {
        ...(sealedToken === undefined ? {} : { sealedToken }),
        ...(url === undefined || url === endpoint.url ? {} : { url }),
        ...(events === undefined || sameList(events, endpoint.events) ? {} : { events }),
        ...(description === undefined || description === endpoint.description ? {} : { description }),
        ...(enabled === undefined || enabled === endpoint.enabled ? {} : { enabled }),
      };
      return Object.keys(changed).length === 0
        ? []
        : [{ type: 'WebhookEndpointChanged', data: { endpointId, ...changed } }];
    }
    case 'RotateWebhookSecret': {
      const endpoint = existing(state, command.data.endpointId);
      const previousUntil = new Date(command.data.at.getTime() + WEBHOOK_SECRET_OVERLAP_MS).toISOString();
      return [
        {
          type: 'WebhookSecretRotated',
          data: { endpointId: endpoint.endpointId, generation: endpoint.generation + 1, previousUntil },
        },
      ];
    }
    case 'DisableWebhookEndpoint': {
      const endpoint = existing(state, command.data.endpointId);
      return endpoint.enabled ? [{ type: 'WebhookEndpointDisabled', data: command.data }] : [];
    }
    case 'ReplayWebhookEndpoint':
      existing(state, command.data.endpointId);
      return [{ type: 'WebhookReplayRequested', data: command.data }];
    case 'DeleteWebhookEndpoint': {
      const endpoint = existing(state, command.data.endpointId);
      return [
        {
          type: 'WebhookEndpointDeleted',
          data: { endpointId: endpoint.endpointId, at: command.data.at.toISOString() },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const webhookEndpointsDecider: Decider<WebhookEndpoints, WebhookEndpointCommand, WebhookEndpointEvent> = {
  streamOf: webhookEndpointsStream,
  initialState: noWebhookEndpoints,
  evolve: evolveWebhookEndpoints,
  decide: decideWebhookEndpoints,
};

/** The key-store subject of a generation's secret: deleting the endpoint erases every generation's key. */
export const webhookSecretSubject = (endpointId: string, generation: number): string =>
  `webhook-secret:${endpointId}:${generation}`;

/** The key-store subject that seals a product's token; erased with the endpoint. */
export const webhookTokenSubject = (endpointId: string): string => `webhook-token:${endpointId}`;

/** The generations that sign at `now`: the current one, and the one before it during the overlap after a rotation. */
export function signingGenerations(
  endpoint: Pick<WebhookEndpoint, 'generation' | 'previousUntil'>,
  now: Date,
): number[] {
  const overlapping =
    endpoint.previousUntil !== null && now.getTime() < Date.parse(endpoint.previousUntil) && endpoint.generation > 1;
  return overlapping ? [endpoint.generation, endpoint.generation - 1] : [endpoint.generation];
}
