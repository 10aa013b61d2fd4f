import { Suspense, lazy } from 'react';
import { Route, Routes } from '../lib/router';
import { paths } from '../config/paths';
import { PageLoading } from './page-loading';

// Every screen is its own chunk: the position page never loads the join form's code.
const RemoteWaitlistRoute = lazy(() => import('./routes/remote-waitlist'));
const PositionRoute = lazy(() => import('./routes/waitlist'));
const TermsRoute = lazy(() => import('./routes/terms'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));
const FallbackRoute = lazy(() => import('./routes/fallback'));
// The host console: loaded only under /host.
const HostRoute = lazy(() => import('./routes/host'));

/** Routes of docs/product.md §12, exact match; anything else gets the fallback screen. */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route path={paths.position.path} element={<PositionRoute />} />
        <Route path={paths.join.path} element={<RemoteWaitlistRoute />} />
        <Route path={paths.terms.path} element={<TermsRoute />} />
        <Route path={paths.notFound.path} element={<NotFoundRoute />} />
        <Route path={paths.host.path} element={<HostRoute />} />
        <Route path="*" element={<FallbackRoute />} />
      </Routes>
    </Suspense>
  );
}
