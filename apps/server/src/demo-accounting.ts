import { createRuleRequest } from '@obol/contract';
import type { Deps } from './platform/deps.ts';
import { ApiError } from './platform/errors.ts';
import { userIdByEmail } from './seed.ts';
import { authContextOf } from './features/auth/sessions.ts';
import { accountsOfCompany, lockActiveCompany, resolveTransfer } from './features/accounting/accounts.ts';
import { registerCompany } from './features/accounting/companies.ts';
import { grantAccess } from './features/accounting/consent.ts';
import { createRule } from './features/accounting/rules.ts';
import { ACCOUNTING_KEY_PREFIX, recordAccountingTransaction } from './features/accounting/transfers.ts';

// The 2D (accounting) part of the demo data: companies, their rules and transfers, through the real paths.

/**
 * Company keys the provider simulator answers with three and two accounts (any ck_ key has accounts there); not
 * its documented Acme and Globex keys, which the e2e journey registers itself.
 */
const DEMO_COMPANIES = [
  { name: 'Initech Holding', email: 'finance@initech-holding.example', api_key: 'ck_initech000000003' },
  { name: 'Umbrella Group', email: 'treasury@umbrella-group.example', api_key: 'ck_umbrella00000003' },
];

interface DemoRule {
  company: number;
  rule_name: string;
  /** the source account and the other account (internal) or saved beneficiary (external), by the bank's ids */
  account: number;
  to: string;
  transfer_type: 'internal_transfer' | 'external_transfer';
  /** percentage (account_type true) or cents */
  account_type: boolean;
  amount: string;
  interval?: string;
  interval_type?: 'daily' | 'weekly' | 'monthly';
  interval_day?: string;
  reference: string;
}

interface DemoAccountingTransfer {
  company: number;
  account: number;
  to: string;
  transfer_type: 'internal_transfer' | 'external_transfer';
  amount: number;
  reference: string;
}

/** the provider's id of a company's nth account (1-based), as the simulator derives them from the key */
const accountIdOf = (bank: { providerAccountId: string }[], n: number) => bank[n - 1].providerAccountId;

/**
 * Waits for the provider simulator, which `npm start` starts beside the server: a call that finds it not yet
 * listening (503) is tried again for up to 30 s.
 */
async function whenProviderUp<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 503) || attempt >= 60) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * The accounting (2D) demo: two companies registered by the 2D admin with the simulator's demo keys and approved
 * as their holders would (their accounts open in the ledger with the balances the bank holds), standing rules of
 * both kinds, and 2D transactions written as the 2D Payments screen writes them: an internal one completes at once,
 * an external one is reserved and sent to the simulator, which pays it (BEN-3's closed account declines, so the
 * money goes back and the reason shows). Answers how many 2D transactions it made.
 */
export async function seedDemoAccounting(deps: Deps): Promise<number> {
  const adminId = (await userIdByEmail(deps.db, '2d-admin@obol.example'))!;
  const auth = (await authContextOf(deps, adminId))!;
  const ids: number[] = [];
  for (const c of DEMO_COMPANIES) {
    const { company } = await whenProviderUp(() => registerCompany(deps, auth, c));
    await whenProviderUp(() => grantAccess(deps, company));
    ids.push(company.id);
  }
  const rules: DemoRule[] = [
    {
      company: 0,
      rule_name: 'Sweep 10% to reserve',
      account: 1,
      to: '2',
      transfer_type: 'internal_transfer',
      account_type: true,
      amount: '10',
      interval: '18:00',
      reference: 'Daily reserve sweep',
    },
    {
      company: 0,
      rule_name: 'Monthly payroll funding',
      account: 1,
      to: '3',
      transfer_type: 'internal_transfer',
      account_type: false,
      amount: '1250000',
      interval_type: 'monthly',
      interval_day: '25',
      reference: 'Payroll funding',
    },
    {
      company: 0,
      rule_name: 'Weekly supplier payment',
      account: 1,
      to: 'BEN-1',
      transfer_type: 'external_transfer',
      account_type: false,
      amount: '250000',
      interval_type: 'weekly',
      interval_day: 'Friday',
      reference: 'Northwind standing order',
    },
    {
      company: 1,
      rule_name: 'Top up operating 5%',
      account: 2,
      to: '1',
      transfer_type: 'internal_transfer',
      account_type: true,
      amount: '5',
      interval: '06:00',
      reference: 'Operating top up',
    },
  ];
  for (const r of rules) {
    const bank = await accountsOfCompany(deps.db, ids[r.company]);
    const to = r.transfer_type === 'internal_transfer' ? accountIdOf(bank, Number(r.to)) : r.to;
    const { company, account, ...rest } = r;
    await createRule(
      deps,
      auth,
      createRuleRequest.parse({
        ...rest,
        company_id: ids[company],
        account_id: accountIdOf(bank, account),
        beneficiary_id: to,
      }),
    );
  }
  const transfers: DemoAccountingTransfer[] = [
    {
      company: 0,
      account: 1,
      to: '3',
      transfer_type: 'internal_transfer',
      amount: 450_000,
      reference: 'Payroll top up',
    },
    {
      company: 0,
      account: 1,
      to: 'BEN-1',
      transfer_type: 'external_transfer',
      amount: 125_000,
      reference: 'Invoice 2026 118',
    },
    {
      company: 0,
      account: 2,
      to: 'BEN-2',
      transfer_type: 'external_transfer',
      amount: 38_950,
      reference: 'Freight October',
    },
    {
      company: 0,
      account: 1,
      to: 'BEN-3',
      transfer_type: 'external_transfer',
      amount: 9_900,
      reference: 'Old supplier refund',
    },
    {
      company: 1,
      account: 2,
      to: '1',
      transfer_type: 'internal_transfer',
      amount: 200_000,
      reference: 'Working capital',
    },
    {
      company: 1,
      account: 1,
      to: 'BEN-2',
      transfer_type: 'external_transfer',
      amount: 74_500,
      reference: 'Warehouse rent',
    },
  ];
  let n = 0;
  for (const [i, t] of transfers.entries()) {
    const bank = await accountsOfCompany(deps.db, ids[t.company]);
    const input = {
      company_id: ids[t.company],
      account_id: accountIdOf(bank, t.account),
      beneficiary_id: t.transfer_type === 'internal_transfer' ? accountIdOf(bank, Number(t.to)) : t.to,
      transfer_type: t.transfer_type,
    };
    const { company, source, target, to } = await resolveTransfer(deps.db, input);
    await deps.db.transaction(async (tx) => {
      if (!(await lockActiveCompany(tx, company.id))) throw new Error(`demo company ${company.name} is not active`);
      await recordAccountingTransaction(tx, deps, {
        companyId: company.id,
        companyName: company.name,
        source,
        target,
        to,
        transferType: t.transfer_type,
        amount: t.amount,
        description: t.reference,
        transferBy: auth.user.name,
        createdBy: auth.user.id,
        idempotencyKey: `${ACCOUNTING_KEY_PREFIX}demo:${i + 1}`,
      });
    });
    n++;
  }
  return n;
}
