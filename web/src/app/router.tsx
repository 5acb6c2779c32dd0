import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { ForgotRoute } from './routes/forgot-route';
import { LoginRoute } from './routes/login-route';
import { ResetRoute } from './routes/reset-route';

// Loaded only when a page needs them, so the sign-in page keeps its weight (bench/web).
const ConsoleApp = lazy(() => import('./console/console-app'));
const InvitationRoute = lazy(() => import('./routes/invitation-route'));
const SecondStepRoute = lazy(() => import('./routes/second-step-route'));
const TwoStepResetRoute = lazy(() => import('./routes/two-step-reset-route'));

/** The seed's order, /forgot first; '/' is not an exact match, so more specific routes come before it. */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path={paths.console.path}
        element={
          <Suspense fallback={<PageLoading />}>
            <ConsoleApp />
          </Suspense>
        }
      />
      <Route
        path={paths.invite.path}
        element={
          <Suspense fallback={<PageLoading />}>
            <InvitationRoute />
          </Suspense>
        }
      />
      <Route
        path={paths.twoStepReset.path}
        element={
          <Suspense fallback={<PageLoading />}>
            <TwoStepResetRoute />
          </Suspense>
        }
      />
      <Route
        path={paths.secondStep.path}
        element={
          <Suspense fallback={<PageLoading />}>
            <SecondStepRoute />
          </Suspense>
        }
      />
      <Route path={paths.forgot.path} element={<ForgotRoute />} />
      <Route path={paths.reset.path} element={<ResetRoute />} />
      <Route path={paths.login.path} element={<LoginRoute />} />
      <Route path={paths.home.path} element={<LoginRoute />} />
    </Routes>
  );
}

/** A screen reader hears that something is coming. */
function PageLoading() {
  return <div className="page-loading" role="status" aria-label="Loading" />;
}
