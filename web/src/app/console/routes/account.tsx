import type { Membership, SessionAnswer } from '../../../api/contract';
import { selectProductName } from '../../../config/page-config';
import { Account } from '../../../features/account/components/account';
import { ConsoleLayout } from '../../../features/console-shell/components/console-layout';
import { useAppSelector } from '../../../lib/store-hooks';
import { useConsoleTitle } from '../console-context';

export function AccountRoute({ session, current }: { session: SessionAnswer; current: Membership | undefined }) {
  useConsoleTitle('Account', current?.name);
  return (
    <ConsoleLayout productName={useAppSelector(selectProductName)} user={session.user} organizations={session.organizations} current={current}>
      <Account user={session.user} />
    </ConsoleLayout>
  );
}
