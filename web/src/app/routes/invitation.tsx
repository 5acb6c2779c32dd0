import { useParams } from 'react-router';
import '../console-store';
import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config';
import { AcceptInvitation } from '../../features/invitations/components/accept-invitation';
import { useAppSelector } from '../../lib/store-hooks';

/** /invite/:token, loaded on demand: the sign-in page's sibling, with the console's data layer. */
export default function InvitationRoute() {
  const { token = '' } = useParams();
  const productName = useAppSelector(selectProductName);
  return (
    <AuthLayout productName={productName}>
      <AcceptInvitation token={token} productName={productName} />
    </AuthLayout>
  );
}
