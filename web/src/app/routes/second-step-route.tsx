import { useLocation } from 'react-router';
import { sameOriginPath } from '@libs/web-rules/safe-redirect-path';
import '../console-store';
import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config-slice';
import { SecondStep } from '../../features/two-step/components/second-step';
import { useAppSelector } from '../../lib/store-hooks';

/** Loaded on demand, with the console's data layer. */
export default function SecondStepRoute() {
  const { search } = useLocation();
  const productName = useAppSelector(selectProductName);
  const redirect = sameOriginPath(new URLSearchParams(search).get('redirect')) ?? '/';
  return (
    <AuthLayout productName={productName}>
      <SecondStep redirect={redirect} productName={productName} />
    </AuthLayout>
  );
}
