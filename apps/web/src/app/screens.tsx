/** Every screen as its own chunk: a page's code loads when the page is first opened (or its menu item hovered). */
import type { ReactNode } from 'react';
import { lazyScreen } from '../lib/lazyScreen.ts';
import { guardedPathOf, isBuilt, TITLES, type BuiltPath } from './paths.ts';

export const Shell = lazyScreen(() => import('./Shell.tsx').then((m) => ({ default: m.Shell })));

export const SignInPage = lazyScreen(() =>
  import('../features/auth/SignInPage.tsx').then((m) => ({ default: m.SignInPage })),
);
export const AuthenticationPage = lazyScreen(() =>
  import('../features/auth/AuthenticationPage.tsx').then((m) => ({ default: m.AuthenticationPage })),
);
export const ForgotPasswordPage = lazyScreen(() =>
  import('../features/auth/PasswordPages.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
export const NewPasswordPage = lazyScreen(() =>
  import('../features/auth/PasswordPages.tsx').then((m) => ({ default: m.NewPasswordPage })),
);
export const PasswordSuccessPage = lazyScreen(() =>
  import('../features/auth/PasswordPages.tsx').then((m) => ({ default: m.PasswordSuccessPage })),
);
/** The demo storefront (public): a merchant's shop paying through the merchant API. */
export const MerchantSitePage = lazyScreen(() =>
  import('../features/merchant-site/MerchantSitePage.tsx').then((m) => ({ default: m.MerchantSitePage })),
);
/** An account holder approves a company's access to its accounts (public, from the mailed link). */
export const ConsentApprovePage = lazyScreen(() =>
  import('../features/accounting/ConsentApprovePage.tsx').then((m) => ({ default: m.ConsentApprovePage })),
);

const UsersPage = lazyScreen(() => import('../features/users/UsersPage.tsx').then((m) => ({ default: m.UsersPage })));
const ProfilePage = lazyScreen(() =>
  import('../features/profile/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })),
);
const PaymentsPage = lazyScreen(() =>
  import('../features/payments/PaymentsPage.tsx').then((m) => ({ default: m.PaymentsPage })),
);
const ReviewPage = lazyScreen(() =>
  import('../features/payments/ReviewPage.tsx').then((m) => ({ default: m.ReviewPage })),
);
const RecentBatchesPage = lazyScreen(() =>
  import('../features/batches/RecentBatchesPage.tsx').then((m) => ({ default: m.RecentBatchesPage })),
);
const PayoutTransactionsPage = lazyScreen(() =>
  import('../features/transactions/PayoutTransactionsPage.tsx').then((m) => ({ default: m.PayoutTransactionsPage })),
);
const BatchTransactionsPage = lazyScreen(() =>
  import('./routes/BatchTransactionsPage.tsx').then((m) => ({ default: m.BatchTransactionsPage })),
);
const TransactionHistoryPage = lazyScreen(() =>
  import('../features/transactions/TransactionHistoryPage.tsx').then((m) => ({ default: m.TransactionHistoryPage })),
);
const DownloadsPage = lazyScreen(() =>
  import('../features/downloads/DownloadsPage.tsx').then((m) => ({ default: m.DownloadsPage })),
);
const ActivityLogsPage = lazyScreen(() =>
  import('../features/activity/ActivityLogsPage.tsx').then((m) => ({ default: m.ActivityLogsPage })),
);
const RolesPage = lazyScreen(() => import('../features/roles/RolesPage.tsx').then((m) => ({ default: m.RolesPage })));
const UsersByRolePage = lazyScreen(() =>
  import('../features/roles/UsersByRolePage.tsx').then((m) => ({ default: m.UsersByRolePage })),
);

const ApiKeysPage = lazyScreen(() =>
  import('../features/api-keys/ApiKeysPage.tsx').then((m) => ({ default: m.ApiKeysPage })),
);
const MerchantsPage = lazyScreen(() =>
  import('../features/merchants/MerchantsPage.tsx').then((m) => ({ default: m.MerchantsPage })),
);
const BrandsPage = lazyScreen(() =>
  import('../features/brands/BrandsPage.tsx').then((m) => ({ default: m.BrandsPage })),
);
const FeeModulePage = lazyScreen(() =>
  import('../features/fees/FeeModulePage.tsx').then((m) => ({ default: m.FeeModulePage })),
);
const ViewBalancePage = lazyScreen(() =>
  import('../features/balance/ViewBalancePage.tsx').then((m) => ({ default: m.ViewBalancePage })),
);
const AmountTransferPage = lazyScreen(() =>
  import('../features/transfers/AmountTransferPage.tsx').then((m) => ({ default: m.AmountTransferPage })),
);
const MerchantsPayoutPage = lazyScreen(() =>
  import('../features/transfers/MerchantsPayoutPage.tsx').then((m) => ({ default: m.MerchantsPayoutPage })),
);
const TransferTransactionsPage = lazyScreen(() =>
  import('../features/transfers/TransferTransactionsPage.tsx').then((m) => ({ default: m.TransferTransactionsPage })),
);
const PayinTransactionsPage = lazyScreen(() =>
  import('../features/payins/PayinTransactionsPage.tsx').then((m) => ({ default: m.PayinTransactionsPage })),
);
const GenerateReportsPage = lazyScreen(() =>
  import('../features/reports/GenerateReportsPage.tsx').then((m) => ({ default: m.GenerateReportsPage })),
);
const PayinRewardsPage = lazyScreen(() =>
  import('../features/payins/PayinRewardsPage.tsx').then((m) => ({ default: m.PayinRewardsPage })),
);
const RefundTransactionsPage = lazyScreen(() =>
  import('../features/payins/RefundTransactionsPage.tsx').then((m) => ({ default: m.RefundTransactionsPage })),
);
const CompaniesPage = lazyScreen(() =>
  import('../features/accounting/CompaniesPage.tsx').then((m) => ({ default: m.CompaniesPage })),
);
const AccountingPaymentPage = lazyScreen(() =>
  import('../features/accounting/AccountingPaymentPage.tsx').then((m) => ({ default: m.AccountingPaymentPage })),
);
const RulesPage = lazyScreen(() =>
  import('../features/accounting/RulesPage.tsx').then((m) => ({ default: m.RulesPage })),
);
const AccountingTransactionsPage = lazyScreen(() =>
  import('../features/accounting/AccountingTransactionsPage.tsx').then((m) => ({
    default: m.AccountingTransactionsPage,
  })),
);

const ApprovalsPage = lazyScreen(() =>
  import('../features/approvals/ApprovalsPage.tsx').then((m) => ({ default: m.ApprovalsPage })),
);

/** A built screen: what it renders, and how to load its code ahead. */
interface Screen {
  element: ReactNode;
  preload: () => Promise<unknown>;
}

/** The built screens, one per BUILT_PATHS entry (the type keeps both lists in step). */
export const SCREENS: Record<BuiltPath, Screen> = {
  '/users': { element: <UsersPage />, preload: UsersPage.preload },
  '/user-profile': { element: <ProfilePage />, preload: ProfilePage.preload },
  '/payments': { element: <PaymentsPage />, preload: PaymentsPage.preload },
  '/payments/transactions': { element: <ReviewPage />, preload: ReviewPage.preload },
  '/recent-batches': { element: <RecentBatchesPage />, preload: RecentBatchesPage.preload },
  '/payout-transactions': { element: <PayoutTransactionsPage />, preload: PayoutTransactionsPage.preload },
  '/batch-transactions': { element: <BatchTransactionsPage />, preload: BatchTransactionsPage.preload },
  '/transactions-history': { element: <TransactionHistoryPage />, preload: TransactionHistoryPage.preload },
  // one component for the three download lists; the key gives each its own state
  '/download-transactions': {
    element: <DownloadsPage key="transactions" type={0} accounting={false} title={TITLES['/download-transactions']} />,
    preload: DownloadsPage.preload,
  },
  '/generate-reports': { element: <GenerateReportsPage />, preload: GenerateReportsPage.preload },
  '/download-reports': {
    element: <DownloadsPage key="reports" type={1} accounting={false} title={TITLES['/download-reports']} />,
    preload: DownloadsPage.preload,
  },
  '/download-accounting-transactions': {
    element: <DownloadsPage key="accounting" type={0} accounting title={TITLES['/download-accounting-transactions']} />,
    preload: DownloadsPage.preload,
  },
  '/activity-logs': { element: <ActivityLogsPage />, preload: ActivityLogsPage.preload },
  '/roles-permissions': { element: <RolesPage />, preload: RolesPage.preload },
  '/roles-permissions/:role': { element: <UsersByRolePage />, preload: UsersByRolePage.preload },
  '/view-balance': { element: <ViewBalancePage />, preload: ViewBalancePage.preload },
  '/merchants': { element: <MerchantsPage />, preload: MerchantsPage.preload },
  '/api-keys': { element: <ApiKeysPage />, preload: ApiKeysPage.preload },
  '/brands': { element: <BrandsPage />, preload: BrandsPage.preload },
  '/fee-module': { element: <FeeModulePage />, preload: FeeModulePage.preload },
  '/amount-transfer': { element: <AmountTransferPage />, preload: AmountTransferPage.preload },
  '/merchants-payout': { element: <MerchantsPayoutPage />, preload: MerchantsPayoutPage.preload },
  '/transfer-transactions': { element: <TransferTransactionsPage />, preload: TransferTransactionsPage.preload },
  // one component for the pay-in and CardEye lists; the key gives each its own state
  '/payin': { element: <PayinTransactionsPage key="payin" />, preload: PayinTransactionsPage.preload },
  '/cardeye': {
    element: <PayinTransactionsPage key="cardeye" channel="CardEye" />,
    preload: PayinTransactionsPage.preload,
  },
  '/refund': { element: <RefundTransactionsPage />, preload: RefundTransactionsPage.preload },
  '/payin-rewards': { element: <PayinRewardsPage />, preload: PayinRewardsPage.preload },
  '/companies': { element: <CompaniesPage />, preload: CompaniesPage.preload },
  '/accounting-payment': { element: <AccountingPaymentPage />, preload: AccountingPaymentPage.preload },
  '/accounting-rules': { element: <RulesPage />, preload: RulesPage.preload },
  '/accounting-transactions': { element: <AccountingTransactionsPage />, preload: AccountingTransactionsPage.preload },
  // one component for both; the key gives each its own state
  '/approvals': { element: <ApprovalsPage key="payments" group="payments" />, preload: ApprovalsPage.preload },
  '/accounting-approvals': { element: <ApprovalsPage key="2d" group="2d" />, preload: ApprovalsPage.preload },
};

/** Loads the code of every screen (tests render them without a Suspense fallback). */
export const preloadAll = () =>
  Promise.all([
    Shell.preload(),
    SignInPage.preload(),
    AuthenticationPage.preload(),
    ForgotPasswordPage.preload(),
    NewPasswordPage.preload(),
    PasswordSuccessPage.preload(),
    ConsentApprovePage.preload(),
    ...Object.values(SCREENS).map((s) => s.preload()),
  ]);

/**
 * A signed-in first load: fetches the shell's and the page's code at once instead of one after the other (the
 * shell would ask for the page only once it renders).
 */
export function preloadSignedIn(pathname: string) {
  void Shell.preload();
  const path = guardedPathOf(pathname);
  if (path && isBuilt(path)) void SCREENS[path].preload();
}
