import { useId, useState, type FormEvent } from 'react';
import type { Organization } from '../../../api/contract';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { useAddWebhookMutation } from '../api/webhooks-api';
import { ALL_EVENTS, EVENT_TYPE_NAMES, WEBHOOK_EVENT_TYPES, refusedField, webhookRefusal, type WebhookEventType } from '../webhook-words';
import { SecretOnce } from './secret-once';

const MESSAGE_ID = 'add-endpoint-message';

/** The browser's own check, in the words of the server's refusal: an http(s) address. */
function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

type Added = { url: string; secret: string };

export function AddEndpointForm({ organization }: { organization: Organization }) {
  const [addWebhook, { isLoading }] = useAddWebhookMutation();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<WebhookEventType[]>([]);
  const [startFrom, setStartFrom] = useState<'now' | 'beginning'>('now');
  const [added, setAdded] = useState<Added | null>(null);
  const { problem, done, run, refuse } = useCommand();
  const refused = refusedField(problem);
  const names = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = url.trim();
    if (!isHttpUrl(address)) return refuse(fieldRefusal('url'));
    if (!all && chosen.length === 0) return refuse(fieldRefusal('events'));
    const events = all ? [ALL_EVENTS] : WEBHOOK_EVENT_TYPES.filter((type) => chosen.includes(type));
    setAdded(null);
    const history = `Every event of ${organization.name}’s history is sent to it, in order, then new ones.`;
    const from = startFrom === 'now' ? 'Events are sent to it from now on.' : history;
    const ok = await run(async () => {
      const endpoint = { url: address, events, description: description.trim(), startFrom };
      const answer = await addWebhook({ organizationId: organization.id, endpoint }).unwrap();
      setAdded({ url: answer.url, secret: answer.secret });
    }, `${address} is added. ${from}`);
    if (!ok) return;
    setUrl('');
    setDescription('');
    setAll(true);
    setChosen([]);
    setStartFrom('now');
  }

  const toggle = (type: WebhookEventType, on: boolean) => setChosen((current) => (on ? [...current, type] : current.filter((other) => other !== type)));
  const describedBy = problem ? MESSAGE_ID : undefined;
  return (
    <div className="add-form">
      <form className="form form--inline" noValidate onSubmit={(event) => void submit(event)} aria-busy={isLoading} aria-label="Add endpoint">
        <FormAlert id={MESSAGE_ID}>{problem && <p>{webhookRefusal(problem)}</p>}</FormAlert>
        <div className="form__row">
          <TextField
            label="URL"
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="https://hooks.example.com/chorus"
            hint="Where each event is sent, as a POST. No user name or password in it: the address is recorded in the history."
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            aria-invalid={refused === 'url' || undefined}
            aria-describedby={describedBy}
          />
          <TextField
            label="Description (optional)"
            name="description"
            autoComplete="off"
            maxLength={500}
            placeholder="Provisioning scripts"
            hint="For you and the other admins: what receives these events."
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            aria-invalid={refused === 'description' || undefined}
            aria-describedby={describedBy}
          />
        </div>
        <fieldset className="choice" aria-describedby={refused === 'events' ? MESSAGE_ID : undefined}>
          <legend className="field__label">Events</legend>
          <label className="checkbox">
            <input className="checkbox__input" type="radio" name="events" checked={all} onChange={() => setAll(true)} />
            <span className="checkbox__label">
              All events
              <span className="checkbox__hint">Every type there is, and the types added later.</span>
            </span>
          </label>
          <label className="checkbox">
            <input className="checkbox__input" type="radio" name="events" checked={!all} onChange={() => setAll(false)} aria-controls={names} />
            <span className="checkbox__label">
              Only the types I choose
              <span className="checkbox__hint">Events of other types are passed over, not sent.</span>
            </span>
          </label>
          <div className="choice__types" id={names} hidden={all} role="group" aria-label="Event types">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label className="checkbox choice__type" key={type}>
                <input
                  className="checkbox__input"
                  type="checkbox"
                  name="eventType"
                  value={type}
                  checked={chosen.includes(type)}
                  onChange={(event) => toggle(type, event.target.checked)}
                  aria-invalid={refused === 'events' || undefined}
                />
                <span className="checkbox__label">
                  {EVENT_TYPE_NAMES[type]}
                  <code className="checkbox__hint choice__code">{type}</code>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="choice">
          <legend className="field__label">Start</legend>
          <label className="checkbox">
            <input className="checkbox__input" type="radio" name="startFrom" checked={startFrom === 'now'} onChange={() => setStartFrom('now')} />
            <span className="checkbox__label">
              From now
              <span className="checkbox__hint">Only what happens after you add it.</span>
            </span>
          </label>
          <label className="checkbox">
            <input className="checkbox__input" type="radio" name="startFrom" checked={startFrom === 'beginning'} onChange={() => setStartFrom('beginning')} />
            <span className="checkbox__label">
              From the beginning of the history
              <span className="checkbox__hint">Every event {organization.name} has had, in order, then new ones: to fill a new system.</span>
            </span>
          </label>
        </fieldset>
        <div className="form__actions">
          <Button type="submit" busy={isLoading}>
            Add endpoint
          </Button>
        </div>
        <p className="form__status" role="status">
          {done}
        </p>
      </form>
      {added !== null && (
        <SecretOnce title={`Signing secret for ${added.url}`} secret={added.secret} onDone={() => setAdded(null)}>
          <p>
            Shown only now: Chorus cannot show it again. Give it to your receiver, which checks each delivery’s signature with it (any
            Standard Webhooks library does).
          </p>
        </SecretOnce>
      )}
    </div>
  );
}
