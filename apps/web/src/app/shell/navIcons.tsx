import AccountBalanceOutlined from '@mui/icons-material/AccountBalanceOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import MoreHorizOutlined from '@mui/icons-material/MoreHorizOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import PercentOutlined from '@mui/icons-material/PercentOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import SellOutlined from '@mui/icons-material/SellOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import type { SvgIconComponent } from '@mui/icons-material';

/** The icon of each menu of the navigation, by its label (imported one by one to keep the bundle small). */
export const NAV_ICONS: Record<string, SvgIconComponent> = {
  Payments: PaymentsOutlined,
  Approvals: FactCheckOutlined,
  Reports: AssessmentOutlined,
  Transactions: ReceiptLongOutlined,
  Users: PeopleOutlined,
  Merchants: StorefrontOutlined,
  'Roles & Permissions': AdminPanelSettingsOutlined,
  'API Keys': VpnKeyOutlined,
  Brands: SellOutlined,
  'Activity Logs': HistoryOutlined,
  'Fee Module': PercentOutlined,
  Accounts: AccountBalanceOutlined,
  More: MoreHorizOutlined,
};
