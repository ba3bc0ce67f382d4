import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Navigate, useLocation, useRouteError } from 'react-router';
import { selectorUrl } from '../../auth/organization-entry.ts';
import { SessionUnavailableError } from '../../auth/session.ts';
import { describeError } from '../../shared/http/describe.ts';
import { isSecurityFailure } from '../../shared/http/errors.ts';
import { ErrorScreen, FatalError } from './ErrorScreen.tsx';

/** Every error a route throws ends here: never a blank page. */
export function RouteError() {
  const error = useRouteError();
  const location = useLocation();
  const { t } = useTranslation();
  if (error instanceof SessionUnavailableError && error.startup.kind === 'fatal') {
    return <FatalError message={error.startup.message} />;
  }
  // Spec 8: a security failure sends the user to the selector with redirectTo and the query.
  if (isSecurityFailure(error)) return <Navigate to={selectorUrl(location)} replace />;
  if (isRouteErrorResponse(error) && error.status === 404) return <Navigate to="/404" replace />;
  console.error('route failed', error);
  return <ErrorScreen message={describeError(t, error)} />;
}
