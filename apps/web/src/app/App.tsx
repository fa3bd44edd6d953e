import { ROUTE_PERMISSIONS, type GuardedPath } from '@obol/contract';
import { Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { setSessionExpiredHandler } from '../lib/api.ts';
import { useSession } from '../lib/session.ts';
import { RouteFallback } from '../ui/RouteFallback.tsx';
import { SkipLink } from '../ui/SkipLink.tsx';
import { Guard, RequireAuth } from './guards.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';
import { firstPermittedPath, isBuilt } from './paths.ts';
import {
  AuthenticationPage,
  ConsentApprovePage,
  ForgotPasswordPage,
  MerchantSitePage,
  NewPasswordPage,
  PasswordSuccessPage,
  SCREENS,
  Shell,
  SignInPage,
} from './screens.tsx';
import { useExpireSession } from './sessionActions.ts';

/** Redirect rules of the route table that depend on the current batch. */
function BatchRedirect({ path, children }: { path: GuardedPath; children: ReactNode }) {
  const session = useSession();
  if (path === '/payments/transactions' && !session?.batch) return <Navigate to="/payments" replace />;
  if (path === '/transactions-history' && !session?.batch) return <Navigate to="/batch-transactions" replace />;
  return <>{children}</>;
}

/** The default and unknown paths: Payments, or the first screen the user may open. */
function Home() {
  const session = useSession();
  return <Navigate to={firstPermittedPath(session?.permissions ?? [])} replace />;
}

/** What a 401 on an authenticated call does. */
function SessionExpiry() {
  const expire = useExpireSession();
  useEffect(() => {
    setSessionExpiredHandler(expire);
    return () => setSessionExpiredHandler(() => undefined);
  }, [expire]);
  return null;
}

/** A guarded path: its screen behind its permission, or "Page not found" while the screen is not built. */
function guarded(path: GuardedPath) {
  if (!isBuilt(path)) return <NotFoundPage />;
  return (
    <Guard permission={ROUTE_PERMISSIONS[path]}>
      <BatchRedirect path={path}>{SCREENS[path].element}</BatchRedirect>
    </Guard>
  );
}

export function App() {
  return (
    <>
      <SkipLink />
      <SessionExpiry />
      <Suspense fallback={<RouteFallback />}>
        <Routes>
          <Route path="/signin" element={<SignInPage />} />
          <Route path="/merchant-signin" element={<SignInPage merchant />} />
          <Route path="/signin/authentication" element={<AuthenticationPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/new-password/:token/:email" element={<NewPasswordPage />} />
          <Route path="/password-success" element={<PasswordSuccessPage />} />
          <Route path="/merchant-site" element={<MerchantSitePage />} />
          <Route path="/consent-approve" element={<ConsentApprovePage />} />
          <Route
            element={
              <RequireAuth>
                <Shell />
              </RequireAuth>
            }
          >
            {(Object.keys(ROUTE_PERMISSIONS) as GuardedPath[]).map((path) => (
              <Route key={path} path={path} element={guarded(path)} />
            ))}
            <Route path="/" element={<Home />} />
            <Route path="*" element={<Home />} />
          </Route>
        </Routes>
      </Suspense>
    </>
  );
}
