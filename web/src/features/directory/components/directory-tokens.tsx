import { useState, type FormEvent } from 'react';
import type { Organization } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormAlert } from '../../../components/ui/form-alert';
import { SecretOnce } from '../../../components/ui/secret-once';
import { TextField } from '../../../components/ui/text-field';
import { formatDateTime } from '../../../lib/date-time';
import {
  useCreateScimTokenMutation,
  useRevokeScimTokenMutation,
  useScimTokensQuery,
  type ScimToken,
} from '../api/directory-api';
import { directoryRefusal } from '../directory-words';

const usedWords = (token: ScimToken): string =>
  `Made ${formatDateTime(token.createdAt)}. ${token.lastUsedAt === null ? 'Not used yet.' : `Last used ${formatDateTime(token.lastUsedAt)}.`}`;

/** The tokens the identity provider holds: made here (shown once), listed with their last use, revoked at once. */
export function DirectoryTokens({ organization }: { organization: Organization }) {
  const { data, error } = useScimTokensQuery(organization.id);
  const [createToken, creating] = useCreateScimTokenMutation();
  const [revokeToken, revoking] = useRevokeScimTokenMutation();
  const [name, setName] = useState('');
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const [revoke, setRevoke] = useState<ScimToken | null>(null);
  const { problem, done, run, refuse } = useCommand();
  const live = (data?.tokens ?? []).filter((token) => token.revokedAt === null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      refuse(fieldRefusal('name'));
      return;
    }
    await run(async () => {
      const answer = await createToken({ organizationId: organization.id, name: name.trim() }).unwrap();
      setMade({ name: answer.name, token: answer.token });
      setName('');
    });
  }

  async function confirmRevoke(token: ScimToken) {
    await run(
      () => revokeToken({ organizationId: organization.id, tokenId: token.id }).unwrap(),
      `The token “${token.name}” no longer works.`,
    );
    setRevoke(null);
  }

  return (
    <>
      <FormAlert>{error !== undefined && directoryRefusal(problemOf(error))}</FormAlert>
      {data === undefined && error === undefined && (
        <p className="muted" role="status">
          Reading the tokens…
        </p>
      )}
      {data !== undefined && live.length === 0 && (
        <p className="muted">No token yet: make one below for your identity provider.</p>
      )}
      {live.length > 0 && (
        <ul className="rows" aria-label="Tokens">
          {live.map((token) => (
            <li className="row" key={token.id} aria-label={token.name}>
              <div className="row__main">
                <span className="row__title">{token.name}</span>
                <span className="row__detail">{usedWords(token)}</span>
              </div>
              <div className="row__actions">
                <Button
                  type="button"
                  variant="danger"
                  className="button--small"
                  aria-label={`Revoke the token “${token.name}”`}
                  onClick={() => setRevoke(token)}
                >
                  Revoke
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {made !== null && (
        <SecretOnce
          title={`Token “${made.name}”`}
          secret={made.token}
          what="the token"
          pasteInto="your identity provider’s provisioning settings"
          onDone={() => setMade(null)}
        >
          Give it to your identity provider now, with the base URL above. It is shown only this once: Chorus keeps only
          a fingerprint of it.
        </SecretOnce>
      )}
      <form
        className="form directory-token-form"
        aria-label="New token"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <FormAlert>{problem !== null && directoryRefusal(problem)}</FormAlert>
        <TextField
          label="Token name"
          hint="What holds it, e.g. Okta or Entra ID."
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
        <div className="form__actions">
          <Button type="submit" busy={creating.isLoading}>
            Make token
          </Button>
        </div>
        <p className="form__status" role="status">
          {done}
        </p>
      </form>
      {revoke !== null && (
        <ConfirmDialog
          title={`Revoke the token “${revoke.name}”?`}
          confirm="Revoke"
          busy={revoking.isLoading}
          onConfirm={() => void confirmRevoke(revoke)}
          onCancel={() => setRevoke(null)}
        >
          Your identity provider can no longer provision anyone with it, from this moment. People it provisioned stay as
          they are.
        </ConfirmDialog>
      )}
    </>
  );
}
