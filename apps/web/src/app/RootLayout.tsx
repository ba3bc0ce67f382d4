import { Outlet } from 'react-router';
import { ExperimentalShortcuts } from '../features/experimental/ExperimentalShortcuts.tsx';
import { StatusNotices } from '../features/status-notices/StatusNotices.tsx';
import { RouteProgress } from './shell/RouteProgress.tsx';

/** Around every route, public or not: the route-change loader, the experimental shortcuts and the status notices. */
export function RootLayout() {
  return (
    <>
      <RouteProgress />
      <Outlet />
      <ExperimentalShortcuts />
      <StatusNotices />
    </>
  );
}
