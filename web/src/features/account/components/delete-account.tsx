import { Fragment, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Problem } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { leaveTo } from '../../../lib/navigation';
import { useAppDispatch } from '../../../lib/store-hooks';
import { useDeleteAccountMutation, type AccountDeletion } from '../api/account-api';

/** How the person proves it is them: what GET /account/two-step calls `confirmWith`. */
export type DeletionProof = 'password' | 'code' | 'recent-sign-in';

const MESSAGE_ID = 'delete-account-message';

const PROOF_WORDS: Record<Exclude<DeletionProof, 'recent-sign-in'>, { label: string; missing: string }> = {
  password: { label: 'Your password', missing: 'Enter your password.' },
  code: {
    label: 'A code from your authenticator app, or a recovery code',
    missing: 'Enter a code from your authenticator app, or a recovery code.',
  },
};

export function DeleteAccount({ proof = 'password' }: { proof?: DeletionProof }) {
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const closed = useRef(false);
  useEffect(() => {
    if (asking || !closed.current) return;
    closed.current = false;
    opener.current?.focus();
  }, [asking]);

  function cancel() {
    closed.current = true;
    setAsking(false);
  }

  return (
    <>
      <Consequences />
      {asking ? (
        <DeleteAccountForm proof={proof} onCancel={cancel} />
      ) : (
        <div className="form__actions">
          <Button
            ref={opener}
            type="button"
            variant="secondary"
            className="button--danger-outline"
            onClick={() => setAsking(true)}
          >
            Delete my account
          </Button>
        </div>
      )}
    </>
  );
}

function Consequences() {
  return (
    <div className="account__consequences">
      <p>If you delete your account:</p>
      <ul>
        <li>Your e-mail address and username are erased for good.</li>
        <li>Your memberships end: you leave every organization you belong to.</li>
        <li>You are signed out everywhere.</li>
        <li>
          Your organizations’ history keeps what happened, with you shown as “Erased person” and a short code instead of
          your address.
        </li>
        <li>You can sign up again with the same address, but as a new person: nothing of this account comes back.</li>
      </ul>
      <p className="account__final">This cannot be undone. Download your data first if you want a copy.</p>
    </div>
  );
}

function DeleteAccountForm({ proof, onCancel }: { proof: DeletionProof; onCancel: () => void }) {
  const dispatch = useAppDispatch();
  const [deleteAccount, { isLoading, isSuccess }] = useDeleteAccountMutation();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<Problem | 'missing' | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (proof !== 'recent-sign-in' && value === '') return setProblem('missing');
    setProblem(null);
    const deletion: AccountDeletion =
      proof === 'recent-sign-in' ? {} : proof === 'password' ? { password: value } : { code: value.trim() };
    try {
      await deleteAccount(deletion).unwrap();
      dispatch(leaveTo(paths.login.getHref()));
    } catch (error) {
      setProblem(problemOf(error));
    }
  }

  const message =
    problem === null
      ? null
      : problem === 'missing'
        ? PROOF_WORDS[proof as keyof typeof PROOF_WORDS].missing
        : deletionRefusal(problem);
  const wrong =
    problem === 'missing' ||
    (typeof problem === 'object' &&
      ['WRONG_PASSWORD', 'INVALID_CODE', 'CODE_ALREADY_USED'].includes(problem?.code ?? ''));
  return (
    <form
      className="form account__delete-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={isLoading}
      aria-label="Delete my account"
    >
      <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
      {proof === 'recent-sign-in' ? (
        <p className="muted">
          Your account has no password or second step, so a sign-in of the last 5 minutes confirms it is you: if you are
          asked, sign out and sign in again.
        </p>
      ) : (
        <TextField
          label={PROOF_WORDS[proof].label}
          name={proof === 'password' ? 'password' : 'code'}
          type={proof === 'password' ? 'password' : 'text'}
          autoComplete={proof === 'password' ? 'current-password' : 'one-time-code'}
          hint="To be sure it is you."
          autoFocus
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={wrong || undefined}
          aria-describedby={message ? MESSAGE_ID : undefined}
        />
      )}
      <div className="form__actions">
        <Button
          type="button"
          variant="secondary"
          onClick={onCancel}
          disabled={isLoading || isSuccess}
          autoFocus={proof === 'recent-sign-in'}
        >
          Cancel
        </Button>
        <Button type="submit" variant="danger" busy={isLoading || isSuccess}>
          Delete my account for good
        </Button>
      </div>
    </form>
  );
}

function deletionRefusal(problem: Problem): ReactNode {
  const owned = lastOwnerOf(problem);
  if (owned.length === 0) return refusalMessage(problem);
  return (
    <>
      You are the last owner of{' '}
      {owned.map(({ id, name }, index) => (
        <Fragment key={id}>
          {index === 0 ? '' : index === owned.length - 1 ? ' and ' : ', '}
          <Link to={paths.console.members.getHref(id)}>{name}</Link>
        </Fragment>
      ))}
      {owned.length === 1 ? '. Make someone else an owner there first' : '. Make someone else an owner of each first'},
      then delete your account.
    </>
  );
}

function lastOwnerOf(problem: Problem): { id: string; name: string }[] {
  if (problem.code !== 'LAST_OWNER' || !Array.isArray(problem.organizations)) return [];
  return (problem.organizations as unknown[]).filter(
    (organization): organization is { id: string; name: string } =>
      typeof organization === 'object' &&
      organization !== null &&
      typeof (organization as { id?: unknown }).id === 'string' &&
      typeof (organization as { name?: unknown }).name === 'string',
  );
}
