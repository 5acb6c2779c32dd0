import type { ReactNode } from 'react';
import type { SessionUser } from '../../../api/contract';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { ChangePasswordForm } from './change-password-form';
import { SessionList } from './session-list';

/** `twoStep` is composed by the route. */
export function Account({ user, twoStep }: { user: SessionUser; twoStep?: ReactNode }) {
  return (
    <>
      <PageHeader title="Account">Your sign-in details and the browsers you are signed in with.</PageHeader>
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
        <Section className="account__password" title="Change password" description="Changing it signs you out everywhere else.">
          <ChangePasswordForm />
        </Section>
        <Section className="account__sessions" title="Sessions" description="Where you are signed in now.">
          <SessionList />
        </Section>
        {twoStep}
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
