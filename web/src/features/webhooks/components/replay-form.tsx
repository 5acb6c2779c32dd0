import { useId, useState, type FormEvent } from 'react';
import type { Problem } from '../../../api/contract';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useReplayWebhookMutation, type ReplayFrom, type WebhookEndpoint } from '../api/webhooks-api';
import { formatTimeIn, instantOf, localTimeZone, webhookRefusal } from '../webhook-words';

type Mode = 'position' | 'time';
type Zone = 'local' | 'UTC';

function replayRefusal(problem: Problem, mode: Mode): string {
  if (problem.future === true) return 'Choose a moment in the past: a replay sends again what has already happened.';
  // The server's refusal of either shape points at no one field: the one shown is the one meant.
  if (problem.code === 'VALIDATION_FAILED')
    return webhookRefusal(fieldRefusal(mode === 'position' ? 'fromPosition' : 'fromTime'));
  return webhookRefusal(problem);
}

/**
 * From a position (an event's `position`, as deliveries and History show it) or an instant, with its time zone said.
 */
export function ReplayForm({
  organizationId,
  endpoint,
  id,
  onClose,
}: {
  organizationId: string;
  endpoint: WebhookEndpoint;
  id: string;
  onClose: () => void;
}) {
  const [replay, { isLoading }] = useReplayWebhookMutation();
  const [mode, setMode] = useState<Mode>('position');
  const [position, setPosition] = useState('');
  const [time, setTime] = useState('');
  const zoneName = localTimeZone();
  const [zone, setZone] = useState<Zone>('local');
  const { problem, done, run, refuse } = useCommand();
  const messageId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let from: ReplayFrom;
    let said: string;
    if (mode === 'position') {
      const value = position.trim();
      if (!/^\d{1,20}$/.test(value)) return refuse(fieldRefusal('fromPosition'));
      from = { fromPosition: value };
      said = `position ${value}`;
    } else {
      const instant = instantOf(time, zone === 'UTC' ? 'UTC' : zoneName);
      if (instant === undefined) return refuse(fieldRefusal('fromTime'));
      if (Date.parse(instant) > Date.now()) return refuse(fieldRefusal('fromTime', { future: true }));
      from = { fromTime: instant };
      said = `${formatTimeIn(instant, zone === 'UTC' ? 'UTC' : zoneName)} (${zone === 'UTC' ? 'UTC' : zoneName})`;
    }
    await run(
      () => replay({ organizationId, webhookId: endpoint.id, from }).unwrap(),
      (answer) =>
        `Replaying from ${said}, revision ${answer.fromRevision} of the history: every event from there is sent again to ${endpoint.url}, in order, then new ones.`,
    );
  }

  const invalid = problem !== null || undefined;
  const describedBy = problem ? messageId : undefined;
  return (
    <form
      className="webhook-panel form form--inline"
      id={id}
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={isLoading}
      aria-label={`Replay to ${endpoint.url}`}
    >
      <h3 className="webhook-panel__title">Replay from…</h3>
      <p className="field__hint">
        Every event from that point on, the one at it included, is sent again in order; then new ones follow. Your
        receiver tells repeats apart by their <code>webhook-id</code>.
      </p>
      <FormAlert id={messageId}>{problem && <p>{replayRefusal(problem, mode)}</p>}</FormAlert>
      <fieldset className="choice choice--inline">
        <legend className="visually-hidden">Replay from</legend>
        <label className="checkbox">
          <input
            className="checkbox__input"
            type="radio"
            name={`${id}-mode`}
            checked={mode === 'position'}
            onChange={() => setMode('position')}
          />
          <span className="checkbox__label">A position</span>
        </label>
        <label className="checkbox">
          <input
            className="checkbox__input"
            type="radio"
            name={`${id}-mode`}
            checked={mode === 'time'}
            onChange={() => setMode('time')}
          />
          <span className="checkbox__label">A date and time</span>
        </label>
      </fieldset>
      {mode === 'position' ? (
        <TextField
          label="Position"
          name="fromPosition"
          inputMode="numeric"
          autoComplete="off"
          placeholder="1042"
          hint="An event’s position, as the deliveries and the body’s data.position show it."
          value={position}
          onChange={(event) => setPosition(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      ) : (
        <div className="form__row form__row--even">
          <TextField
            label="Date and time"
            name="fromTime"
            type="datetime-local"
            step={1}
            hint={`Read in the time zone you choose (yours is ${zoneName}).`}
            value={time}
            onChange={(event) => setTime(event.target.value)}
            aria-invalid={invalid}
            aria-describedby={describedBy}
          />
          <SelectField
            label="Time zone"
            name="zone"
            value={zone}
            onChange={(event) => setZone(event.target.value as Zone)}
            options={[
              { value: 'local', label: `Your time zone (${zoneName})` },
              ...(zoneName === 'UTC' ? [] : [{ value: 'UTC', label: 'UTC' }]),
            ]}
          />
        </div>
      )}
      <div className="form__actions">
        <Button type="submit" busy={isLoading}>
          Replay
        </Button>
        <Button type="button" variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
      <p className="form__status" role="status">
        {done}
      </p>
    </form>
  );
}
