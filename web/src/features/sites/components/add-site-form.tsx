import { useState, type FormEvent } from 'react';
import { readHostname } from '@libs/domain/hostnames/parse-hostname';
import type { Organization, Role } from '../../../api/contract';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { AddForm } from '../../../components/console/add-form';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useAddSiteMutation } from '../api/sites-api';

const MESSAGE_ID = 'add-site-message';

/** The seed's hostname rule (section 5), as the person typing needs it. */
export const HOSTNAME_RULE =
  'A hostname such as shop.example.com, or an address starting with http:// or https:// (anything else gets https:// in front). It needs a dot, unless it is localhost.';

export function AddSiteForm({ organization, role }: { organization: Organization; role: Role }) {
  const [addSite, { isLoading }] = useAddSiteMutation();
  const [name, setName] = useState('');
  const [hostname, setHostname] = useState('');
  const { problem, done, run, refuse } = useCommand();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The server still checks everything.
    const read = readHostname(hostname);
    if (name.trim() === '') return refuse(fieldRefusal('name'));
    if ('fault' in read)
      return refuse({
        status: 400,
        code: 'INVALID_HOSTNAME',
        detail: '',
        field: 'hostname',
        value: hostname.trim(),
        reason: read.fault,
      });
    if (
      !(await run(
        () => addSite({ organizationId: organization.id, name: name.trim(), hostname: hostname.trim() }).unwrap(),
        `${name.trim()} is added.`,
      ))
    )
      return;
    setName('');
    setHostname('');
  }

  const hostnameRefused = problem !== null && (problem.code === 'INVALID_HOSTNAME' || problem.code === 'DUPLICATE');
  return (
    <AddForm
      label="Add site"
      organization={organization}
      role={role}
      resource="contentSections"
      problem={problem}
      messageId={MESSAGE_ID}
      busy={isLoading}
      done={done}
      onSubmit={(event) => void submit(event)}
    >
      <div className="form__row form__row--even">
        <TextField
          label="Name"
          name="name"
          autoComplete="off"
          placeholder="Web shop"
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={problem?.code === 'VALIDATION_FAILED' || undefined}
          aria-describedby={problem ? MESSAGE_ID : undefined}
        />
        <TextField
          label="Hostname"
          name="hostname"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="url"
          placeholder="shop.example.com"
          hint={HOSTNAME_RULE}
          value={hostname}
          onChange={(event) => setHostname(event.target.value)}
          aria-invalid={hostnameRefused || undefined}
          aria-describedby={problem ? MESSAGE_ID : undefined}
        />
      </div>
      <div className="form__actions">
        <Button type="submit" busy={isLoading}>
          Add site
        </Button>
      </div>
    </AddForm>
  );
}
