import { useEffect, useRef } from 'react';
import { useCommand } from '../../../api/use-command';
import { FormAlert } from '../../../components/ui/form-alert';
import {
  useChangeWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  type WebhookEndpoint,
} from '../api/webhooks-api';
import { webhookRefusal } from '../webhook-words';
import { EndpointItem, type EndpointActions } from './endpoint-item';

const rowId = (webhookId: string) => `webhook-${webhookId}`;

export function EndpointList({
  organizationId,
  endpoints,
  readAt,
}: {
  organizationId: string;
  endpoints: WebhookEndpoint[];
  readAt: number;
}) {
  const [changeWebhook, changing] = useChangeWebhookMutation();
  const [deleteWebhook] = useDeleteWebhookMutation();
  const [rotateSecret] = useRotateWebhookSecretMutation();
  const { problem, done, run } = useCommand();
  const list = useRef<HTMLUListElement>(null);
  // Its buttons go with it: the focus needs somewhere to go.
  const removed = useRef<{ id: string; next: string | null } | null>(null);

  useEffect(() => {
    const gone = removed.current;
    if (gone === null || endpoints.some((endpoint) => endpoint.id === gone.id)) return;
    removed.current = null;
    (gone.next === null ? list.current : document.getElementById(rowId(gone.next)))?.focus();
  }, [endpoints]);

  const one = (endpoint: WebhookEndpoint) => ({ organizationId, webhookId: endpoint.id });
  const actions: EndpointActions = {
    setEnabled: (endpoint, enabled) =>
      run(
        () => changeWebhook({ ...one(endpoint), change: { enabled } }).unwrap(),
        enabled
          ? `${endpoint.url} is on again: it goes on from where it stopped.`
          : `${endpoint.url} is off: nothing is sent to it until it is turned on again. It then goes on from where it stopped.`,
      ),
    remove: async (endpoint) => {
      const index = endpoints.findIndex((candidate) => candidate.id === endpoint.id);
      const next = endpoints[index + 1] ?? endpoints[index - 1];
      removed.current = { id: endpoint.id, next: next?.id ?? null };
      const ok = await run(
        () => deleteWebhook(one(endpoint)).unwrap(),
        `${endpoint.url} is deleted: nothing more is sent to it, and its secrets are erased.`,
      );
      if (!ok) removed.current = null;
      return ok;
    },
    rotate: async (endpoint) => {
      const answered: { rotated?: { secret: string; previousSecretValidUntil: string } } = {};
      await run(async () => {
        answered.rotated = await rotateSecret(one(endpoint)).unwrap();
      });
      return answered.rotated ?? null;
    },
  };

  return (
    <>
      <FormAlert>{problem && <p>{webhookRefusal(problem)}</p>}</FormAlert>
      <p className="form__status" role="status">
        {done}
      </p>
      <ul className="webhooks" aria-label="Endpoints" ref={list} tabIndex={-1}>
        {endpoints.map((endpoint) => (
          <EndpointItem
            key={endpoint.id}
            organizationId={organizationId}
            endpoint={endpoint}
            readAt={readAt}
            busy={changing.isLoading}
            actions={actions}
            rowId={rowId(endpoint.id)}
          />
        ))}
      </ul>
    </>
  );
}
