import { ROUTE_PERMISSIONS, type GuardedPath } from '@obol/contract';
import { useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { setSessionExpiredHandler } from '../lib/api.ts';
import { useSession } from '../lib/session.ts';
import { AuthenticationPage } from '../features/auth/AuthenticationPage.tsx';
import { ForgotPasswordPage, NewPasswordPage, PasswordSuccessPage } from '../features/auth/PasswordPages.tsx';
import { SignInPage } from '../features/auth/SignInPage.tsx';
import { NotYetPage } from '../features/placeholder/NotYetPage.tsx';
import { ProfilePage } from '../features/profile/ProfilePage.tsx';
import { UsersPage } from '../features/users/UsersPage.tsx';
import { PaymentsPage } from '../features/payments/PaymentsPage.tsx';
import { ReviewPage } from '../features/payments/ReviewPage.tsx';
import { RecentBatchesPage } from '../features/batches/RecentBatchesPage.tsx';
import { DownloadsPage } from '../features/downloads/DownloadsPage.tsx';
import { BatchTransactionsPage } from './routes/BatchTransactionsPage.tsx';
import { PayoutTransactionsPage } from '../features/transactions/PayoutTransactionsPage.tsx';
import { TransactionHistoryPage } from '../features/transactions/TransactionHistoryPage.tsx';
import { Guard, RequireAuth } from './guards.tsx';
import { TITLES } from './paths.ts';
import { useExpireSession } from './sessionActions.ts';
import { Shell } from './Shell.tsx';

/** Screens built so far; every other guarded path shows its title and says it is not available yet. */
export const SCREENS: Partial<Record<GuardedPath, ReactNode>> = {
  '/users': <UsersPage />,
  '/user-profile': <ProfilePage />,
  '/payments': <PaymentsPage />,
  '/payments/transactions': <ReviewPage />,
  '/recent-batches': <RecentBatchesPage />,
  '/payout-transactions': <PayoutTransactionsPage />,
  '/batch-transactions': <BatchTransactionsPage />,
  '/transactions-history': <TransactionHistoryPage />,
  // one component for the three download lists; the key gives each its own state
  '/download-transactions': (
    <DownloadsPage key="transactions" type={0} accounting={false} title={TITLES['/download-transactions']} />
  ),
  '/download-reports': <DownloadsPage key="reports" type={1} accounting={false} title={TITLES['/download-reports']} />,
  '/download-accounting-transactions': (
    <DownloadsPage key="accounting" type={0} accounting title={TITLES['/download-accounting-transactions']} />
  ),
};

/** Redirect rules of the route table that depend on the current batch. */
function BatchRedirect({ path, children }: { path: GuardedPath; children: ReactNode }) {
  const session = useSession();
  if (path === '/payments/transactions' && !session?.batch) return <Navigate to="/payments" replace />;
  if (path === '/transactions-history' && !session?.batch) return <Navigate to="/batch-transactions" replace />;
  return <>{children}</>;
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

export function App() {
  return (
    <>
      <SessionExpiry />
      <Routes>
        <Route path="/signin" element={<SignInPage />} />
        <Route path="/merchant-signin" element={<SignInPage merchant />} />
        <Route path="/signin/authentication" element={<AuthenticationPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/new-password/:token/:email" element={<NewPasswordPage />} />
        <Route path="/password-success" element={<PasswordSuccessPage />} />
        <Route
          element={
            <RequireAuth>
              <Shell />
            </RequireAuth>
          }
        >
          {(Object.keys(ROUTE_PERMISSIONS) as GuardedPath[]).map((path) => (
            <Route
              key={path}
              path={path}
              element={
                <Guard permission={ROUTE_PERMISSIONS[path]}>
                  <BatchRedirect path={path}>{SCREENS[path] ?? <NotYetPage title={TITLES[path]} />}</BatchRedirect>
                </Guard>
              }
            />
          ))}
          <Route path="/" element={<Navigate to="/payments" replace />} />
          <Route path="*" element={<Navigate to="/payments" replace />} />
        </Route>
      </Routes>
    </>
  );
}
