import { useId, useState, type FormEvent } from 'react';
import type { Organization } from '../../../api/contract';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { useAddWebhookMutation, type WebhookFormat } from '../api/webhooks-api';
import {
  ALL_EVENTS,
  EVENT_TYPE_NAMES,
  FORMAT_NAMES,
  TOKEN_NAMES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_FORMATS,
  isBatching,
  refusedField,
  tokenRefusal,
  webhookRefusal,
  type WebhookEventType,
} from '../webhook-words';
import { SecretOnce } from '../../../components/ui/secret-once';

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

/** What each format is for, beside its name. */
const FORMAT_HINTS: Record<WebhookFormat, string> = {
  standard: 'One request per event, signed, for a receiver of your own: it checks each one with the secret shown once.',
  'splunk-hec': 'Events in batches, as Splunk’s HTTP Event Collector takes them, sent with its token.',
  datadog: 'Events in batches, as Datadog’s log intake takes them, sent with your API key.',
};

const RECORDED = 'No user name or password in it: the address is recorded in the history.';

/** Where each format's events go, said where the URL is typed. */
const URL_WORDS: Record<WebhookFormat, { placeholder: string; hint: string }> = {
  standard: {
    placeholder: 'https://hooks.example.com/chorus',
    hint: `Where each event is sent, as a POST. ${RECORDED}`,
  },
  'splunk-hec': {
    placeholder: 'https://splunk.example.com:8088/services/collector/event',
    hint: `Your HTTP Event Collector’s address, ending in /services/collector/event. ${RECORDED}`,
  },
  datadog: {
    placeholder: 'https://http-intake.logs.datadoghq.eu/api/v2/logs',
    hint: `The log intake of your Datadog site, ending in /api/v2/logs. ${RECORDED}`,
  },
};

const TOKEN_HINTS: Record<keyof typeof TOKEN_NAMES, string> = {
  'splunk-hec':
    'The token of an HTTP Event Collector input in Splunk. Chorus keeps it sealed and never shows it again.',
  datadog: 'An API key of your Datadog organization. Chorus keeps it sealed and never shows it again.',
};

export function AddEndpointForm({ organization }: { organization: Organization }) {
  const [addWebhook, { isLoading }] = useAddWebhookMutation();
  const [format, setFormat] = useState<WebhookFormat>('standard');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
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
    // A token is pasted: the spaces or line break around it are not part of it. Checked in the form's order.
    const key = token.trim();
    if (isBatching(format) && key === '') return refuse(fieldRefusal('token'));
    if (!isHttpUrl(address)) return refuse(fieldRefusal('url'));
    if (!all && chosen.length === 0) return refuse(fieldRefusal('events'));
    const events = all ? [ALL_EVENTS] : WEBHOOK_EVENT_TYPES.filter((type) => chosen.includes(type));
    setAdded(null);
    const history = `Every event of ${organization.name}’s history is sent to it, in order, then new ones.`;
    const from = startFrom === 'now' ? 'Events are sent to it from now on.' : history;
    const how = isBatching(format) ? ` They go in batches, with the ${TOKEN_NAMES[format]} you gave.` : '';
    const ok = await run(async () => {
      // Only a batching format takes a token: the server refuses one for `standard`.
      const endpoint = {
        url: address,
        events,
        format,
        description: description.trim(),
        startFrom,
        ...(isBatching(format) ? { token: key } : {}),
      };
      const answer = await addWebhook({ organizationId: organization.id, endpoint }).unwrap();
      // A batching endpoint's deliveries are not signed: its secret is of no use to anyone.
      if (answer.format === 'standard') setAdded({ url: answer.url, secret: answer.secret });
    }, `${address} is added. ${from}${how}`);
    if (!ok) return;
    setFormat('standard');
    setUrl('');
    setToken('');
    setDescription('');
    setAll(true);
    setChosen([]);
    setStartFrom('now');
  }

  const toggle = (type: WebhookEventType, on: boolean) =>
    setChosen((current) => (on ? [...current, type] : current.filter((other) => other !== type)));
  const describedBy = problem ? MESSAGE_ID : undefined;
  const message =
    problem === null
      ? null
      : refused === 'token' && isBatching(format)
        ? tokenRefusal(format)
        : webhookRefusal(problem);
  return (
    <div className="add-form">
      <form
        className="form form--inline"
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-busy={isLoading}
        aria-label="Add endpoint"
      >
        <FormAlert id={MESSAGE_ID}>{message !== null && <p>{message}</p>}</FormAlert>
        <fieldset className="choice">
          <legend className="field__label">Format</legend>
          {WEBHOOK_FORMATS.map((each) => (
            <label className="checkbox" key={each}>
              <input
                className="checkbox__input"
                type="radio"
                name="format"
                value={each}
                checked={format === each}
                onChange={() => setFormat(each)}
              />
              <span className="checkbox__label">
                {FORMAT_NAMES[each]}
                <span className="checkbox__hint">{FORMAT_HINTS[each]}</span>
              </span>
            </label>
          ))}
          {isBatching(format) && (
            <div className="choice__token">
              <TextField
                label={TOKEN_NAMES[format]}
                name="token"
                type="password"
                required
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={1000}
                hint={TOKEN_HINTS[format]}
                value={token}
                onChange={(event) => setToken(event.target.value)}
                aria-invalid={refused === 'token' || undefined}
                aria-describedby={describedBy}
              />
            </div>
          )}
        </fieldset>
        <div className="form__row">
          <TextField
            label="URL"
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={URL_WORDS[format].placeholder}
            hint={URL_WORDS[format].hint}
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
            <input
              className="checkbox__input"
              type="radio"
              name="events"
              checked={!all}
              onChange={() => setAll(false)}
              aria-controls={names}
            />
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
            <input
              className="checkbox__input"
              type="radio"
              name="startFrom"
              checked={startFrom === 'now'}
              onChange={() => setStartFrom('now')}
            />
            <span className="checkbox__label">
              From now
              <span className="checkbox__hint">Only what happens after you add it.</span>
            </span>
          </label>
          <label className="checkbox">
            <input
              className="checkbox__input"
              type="radio"
              name="startFrom"
              checked={startFrom === 'beginning'}
              onChange={() => setStartFrom('beginning')}
            />
            <span className="checkbox__label">
              From the beginning of the history
              <span className="checkbox__hint">
                Every event {organization.name} has had, in order, then new ones: to fill a new system.
              </span>
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
            Shown only now: Chorus cannot show it again. Give it to your receiver, which checks each delivery’s
            signature with it (any Standard Webhooks library does).
          </p>
        </SecretOnce>
      )}
    </div>
  );
}
