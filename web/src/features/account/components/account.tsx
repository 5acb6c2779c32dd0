import type { ReactNode } from 'react';
import type { SessionUser } from '../../../api/contract';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccount, type DeletionProof } from './delete-account';
import { DownloadMyData } from './download-my-data';
import { SessionList } from './session-list';

/** `twoStep` and `proof` (how the person confirms it is them, from the two-step feature) come from the route. */
export function Account({ user, twoStep, proof }: { user: SessionUser; twoStep?: ReactNode; proof?: DeletionProof }) {
  return (
    <>
      <PageHeader title="Account">Your sign-in details, the browsers you are signed in with, and your data.</PageHeader>
      <div className="account">
        <Section className="account__you" title="You">
          <dl className="facts">
            <div className="fact fact--wide">
              <dt>E-mail</dt>
              <dd className="fact__email" title={user.email}>
                <EmailAddress email={user.email} />
              </dd>
            </div>
            <div className="fact">
              <dt>Username</dt>
              <dd>{user.username ?? 'None'}</dd>
            </div>
          </dl>
        </Section>
        <Section
          className="account__password"
          title="Change password"
          description="Changing it signs you out everywhere else."
        >
          <ChangePasswordForm />
        </Section>
        <Section className="account__sessions" title="Sessions" description="Where you are signed in now.">
          <SessionList />
        </Section>
        {twoStep}
        <Section className="account__data" title="Your data" description="A copy of everything Chorus holds about you.">
          <DownloadMyData />
        </Section>
        <Section
          className="account__delete"
          title="Delete my account"
          description="Erase what Chorus holds about you, for good."
        >
          <DeleteAccount proof={proof} />
        </Section>
      </div>
    </>
  );
}

/** Wraps only before its "@", not at a hyphen or inside a word. */
function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span className="fact__email-part">{email}</span>;
  return (
    <>
      <span className="fact__email-part">{email.slice(0, at)}</span>
      <wbr />
      <span className="fact__email-part">{email.slice(at)}</span>
    </>
  );
}
