import { useParams } from 'react-router';
import '../console-store';
import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config-slice';
import { AgreeToReset } from '../../features/two-step/components/agree-to-reset';
import { useAppSelector } from '../../lib/store-hooks';

/** Loaded on demand, with the console's data layer. */
export default function TwoStepResetRoute() {
  const { token = '' } = useParams();
  const productName = useAppSelector(selectProductName);
  return (
    <AuthLayout productName={productName}>
      <AgreeToReset token={token} productName={productName} />
    </AuthLayout>
  );
}
