import { useState } from 'react';
import type { Organization } from '../../../api/contract';
import { useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { SelectField } from '../../../components/ui/select-field';
import { useSetDomainJoinMutation, type JoinRole } from '../api/directory-api';
import { directoryRefusal } from '../directory-words';

type Choice = 'invitation' | JoinRole;

const CHOICES: readonly { value: Choice; label: string }[] = [
  { value: 'invitation', label: 'By invitation only' },
  { value: 'member', label: 'On signing in, as members' },
  { value: 'auditor', label: 'On signing in, as auditors' },
  { value: 'admin', label: 'On signing in, as admins' },
];

const choiceWords = (choice: Choice): string =>
  CHOICES.find((option) => option.value === choice)?.label.toLowerCase() ?? choice;

/** One setting per verified domain; owners only. */
export function DomainJoins({ organization, isOwner }: { organization: Organization; isOwner: boolean }) {
  const verified = (organization.sso.settings?.domainStates ?? []).filter((state) => state.status === 'verified');
  const [setDomainJoin, saving] = useSetDomainJoinMutation();
  const [chosen, setChosen] = useState<Record<string, Choice>>({});
  const { problem, done, run } = useCommand();

  if (verified.length === 0) {
    return (
      <p className="muted">
        No verified domain yet: verify one under SSO, then its people can join here without an invitation each.
      </p>
    );
  }
  return (
    <>
      <FormAlert>{problem !== null && directoryRefusal(problem)}</FormAlert>
      <ul className="rows" aria-label="Verified domains">
        {verified.map((state) => {
          const current: Choice = state.joinRole === null || state.joinRole === 'owner' ? 'invitation' : state.joinRole;
          const choice = chosen[state.domain] ?? current;
          return (
            <li className="row directory-join" key={state.domain} aria-label={state.domain}>
              <SelectField
                label={`People of ${state.domain} join`}
                value={choice}
                disabled={!isOwner}
                options={CHOICES}
                onChange={(event) => setChosen({ ...chosen, [state.domain]: event.target.value as Choice })}
              />
              {isOwner && (
                <Button
                  type="button"
                  variant="secondary"
                  className="button--small"
                  aria-label={`Save for ${state.domain}`}
                  busy={saving.isLoading}
                  disabled={choice === current}
                  onClick={() =>
                    void run(
                      () =>
                        setDomainJoin({
                          organizationId: organization.id,
                          domain: state.domain,
                          role: choice === 'invitation' ? null : choice,
                        }).unwrap(),
                      `People of ${state.domain} now join ${choiceWords(choice)}.`,
                    )
                  }
                >
                  Save
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {!isOwner && <p className="muted">Only owners change how people join.</p>}
      <p className="form__status" role="status">
        {done}
      </p>
    </>
  );
}
