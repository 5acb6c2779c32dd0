import type { Membership, SessionAnswer } from '../../../api/contract';
import { selectProductName } from '../../../config/page-config-slice';
import { Section } from '../../../components/layout/section';
import { Account } from '../../../features/account/components/account';
import { useGetSecondFactorsQuery } from '../../../features/two-step/api/two-step-api';
import { TwoStepSettings } from '../../../features/two-step/components/two-step-settings';
import { ConsoleLayout } from '../../../features/console-shell/components/console-layout';
import { useAppSelector } from '../../../lib/store-hooks';
import { useConsoleTitle } from '../console-context';

export function AccountRoute({ session, current }: { session: SessionAnswer; current: Membership | undefined }) {
  useConsoleTitle('Account', current?.name);
  const productName = useAppSelector(selectProductName);
  // The same read as the two-step card's: it says whether the person confirms with a password or a code.
  const { data: factors } = useGetSecondFactorsQuery();
  const twoStep = (
    <Section
      className="account__two-step"
      title="Two-step sign-in"
      description="A second step after you sign in: a code from an app, or a passkey."
    >
      <TwoStepSettings productName={productName} />
    </Section>
  );
  return (
    <ConsoleLayout
      productName={productName}
      user={session.user}
      organizations={session.organizations}
      current={current}
    >
      <Account user={session.user} twoStep={twoStep} proof={factors?.confirmWith} />
    </ConsoleLayout>
  );
}
