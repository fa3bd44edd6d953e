export interface HolderOption {
  id: number;
  parent_id: number | null;
  name: string;
  email: string;
  roles: { name: string }[];
  fee: number;
  accounts: { account_reference: string | null; account_id: string | null };
  active_brands: HolderOption[];
}
export interface AccountChoice {
  merchant_name: string;
  account_id: string;
  account_reference: string;
  balance: number;
}
export interface Selection {
  type: 'manual' | 'batch' | null;
  holder: HolderOption | null;
  account: AccountChoice | null;
  balance: number | null;
  fee: number;
}
