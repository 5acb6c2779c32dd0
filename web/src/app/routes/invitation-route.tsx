import { useParams } from 'react-router';
import '../console-store';
import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config-slice';
import { AcceptInvitation } from '../../features/invitations/components/accept-invitation';
import { useAppSelector } from '../../lib/store-hooks';

/** Loaded on demand, with the console's data layer. */
export default function InvitationRoute() {
  const { token = '' } = useParams();
  const productName = useAppSelector(selectProductName);
  return (
    <AuthLayout productName={productName}>
      <AcceptInvitation token={token} productName={productName} />
    </AuthLayout>
  );
}
