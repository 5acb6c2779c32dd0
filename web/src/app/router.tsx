import { Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { ForgotRoute } from './routes/forgot';
import { LoginRoute } from './routes/login';
import { ResetRoute } from './routes/reset';

/**
 * The seed's order, /forgot first. '/' is not an exact match, so the login screen also answers
 * /login/:error? and every unknown path.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path={paths.forgot.path} element={<ForgotRoute />} />
      <Route path={paths.reset.path} element={<ResetRoute />} />
      <Route path={paths.login.path} element={<LoginRoute />} />
      <Route path={paths.home.path} element={<LoginRoute />} />
    </Routes>
  );
}
