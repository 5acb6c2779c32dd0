import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import type { HistoryFilters, TimelineFilter } from '../api/history-contract';
import { instantOfLocalInput, localInputOf } from '../history-time';

type Fields = { type: string; actor: string; from: string; to: string };
const NO_FIELDS: Fields = { type: '', actor: '', from: '', to: '' };

const fieldsOf = (filter: TimelineFilter): Fields => ({
  type: filter.type ?? '',
  actor: filter.actor ?? '',
  from: filter.from === undefined ? '' : localInputOf(filter.from),
  to: filter.to === undefined ? '' : localInputOf(filter.to),
});

type TimelineFiltersProps = {
  choices: HistoryFilters | undefined;
  applied: TimelineFilter;
  onApply: (filter: TimelineFilter) => void;
};

export function TimelineFilters({ choices, applied, onApply }: TimelineFiltersProps) {
  const [fields, setFields] = useState<Fields>(() => fieldsOf(applied));
  const [message, setMessage] = useState('');
  const set = (name: keyof Fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const from = fields.from === '' ? undefined : instantOfLocalInput(fields.from);
    const to = fields.to === '' ? undefined : instantOfLocalInput(fields.to);
    if ((fields.from !== '' && from === undefined) || (fields.to !== '' && to === undefined))
      return setMessage('Enter a complete date and time.');
    if (from !== undefined && to !== undefined && from > to) return setMessage('“From” must not be after “To”.');
    setMessage('');
    onApply({
      ...(fields.type === '' ? {} : { type: fields.type }),
      ...(fields.actor === '' ? {} : { actor: fields.actor }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    });
  };

  const clear = () => {
    setFields(NO_FIELDS);
    setMessage('');
    onApply({});
  };

  return (
    <form className="history-filters" aria-label="Filter events" onSubmit={apply} noValidate>
      <SelectField
        label="Event type"
        value={fields.type}
        onChange={set('type')}
        options={[
          { value: '', label: 'All event types' },
          ...(choices?.types ?? []).map((choice) => ({ value: choice.type, label: choice.name })),
        ]}
      />
      <SelectField
        label="Actor"
        value={fields.actor}
        onChange={set('actor')}
        options={[
          { value: '', label: 'Everyone' },
          ...(choices?.actors ?? []).map((choice) => ({ value: choice.actor, label: choice.name })),
        ]}
      />
      <TextField
        label="From"
        type="datetime-local"
        step={1}
        value={fields.from}
        onChange={set('from')}
        aria-describedby={message === '' ? undefined : 'history-filters-message'}
      />
      <TextField
        label="To"
        type="datetime-local"
        step={1}
        value={fields.to}
        onChange={set('to')}
        aria-describedby={message === '' ? undefined : 'history-filters-message'}
      />
      <div className="history-filters__actions">
        <Button type="submit" variant="secondary">
          Apply filters
        </Button>
        <button type="button" className="link-button" onClick={clear}>
          Clear
        </button>
      </div>
      <p className="form__status history-filters__message" id="history-filters-message" role="alert">
        {message}
      </p>
    </form>
  );
}
