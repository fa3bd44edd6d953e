import { createRuleRequest, feeCents } from '@obol/contract';
import type { Deps } from './platform/deps.ts';
import { holderAccounts } from './features/ledger/accounts.ts';
import { batches } from './features/batches/tables.ts';
import { createPayout } from './features/payouts/service.ts';
import { recordTransfer } from './features/transfers/service.ts';
import { newBatchId } from './features/batches/batch-id.ts';
import { users } from './features/users/tables.ts';
import { eq } from 'drizzle-orm';
import { userIdByEmail } from './seed.ts';
import { ApiError } from './platform/errors.ts';
import { authContextOf } from './features/auth/sessions.ts';
import { accountsOfCompany, lockActiveCompany, resolveTransfer } from './features/accounting/accounts.ts';
import { registerCompany } from './features/accounting/companies.ts';
import { grantAccess } from './features/accounting/consent.ts';
import { createRule } from './features/accounting/rules.ts';
import { ACCOUNTING_KEY_PREFIX, recordAccountingTransaction } from './features/accounting/transfers.ts';

const NAMES = [
  'Ana Novak',
  'Ben Berg',
  'Chloe Costa',
  'David Dubois',
  'Elena Ionescu',
  'Farid Haddad',
  'Greta Lind',
  'Hugo Martin',
  'Ines Pereira',
  'Jonas Weber',
  'Klara Horvat',
  'Luca Rossi',
];

interface DemoPayout {
  holder: string;
  by: string;
  obol: string;
  brand: string;
  amount: number;
}

/**
 * A payout history for the demo: manual payouts of both merchants and a brand, made through the same path as
 * the screens (a batch of one, the reserve entry in the ledger, the submission job). The provider simulator
 * then pays them or declines them (a wallet of another brand, the declined amount of 666.00), so the lists
 * show Completed and Failed payouts with their reasons once the workers have run.
 */
export async function seedDemoPayouts(deps: Deps): Promise<number> {
  const plan: DemoPayout[] = [];
  for (let i = 0; i < 10; i++)
    plan.push({
      holder: 'merchant@obol.example',
      by: 'merchant@obol.example',
      obol: `1000000${String(10 + i)}`,
      brand: 'Acme Brand',
      amount: 1_250 + i * 735,
    });
  plan.push({
    holder: 'merchant@obol.example',
    by: 'manager@obol.example',
    obol: '100000031',
    brand: 'Acme Brand',
    amount: 66_600,
  });
  plan.push({
    holder: 'merchant@obol.example',
    by: 'merchant@obol.example',
    obol: '200000032',
    brand: 'Acme Brand',
    amount: 4_200,
  });
  for (let i = 0; i < 4; i++)
    plan.push({
      holder: 'brand@obol.example',
      by: 'brand@obol.example',
      obol: `1000000${String(40 + i)}`,
      brand: 'Acme Brand',
      amount: 990 + i * 1_010,
    });
  for (let i = 0; i < 4; i++)
    plan.push({
      holder: 'merchant2@obol.example',
      by: 'merchant2@obol.example',
      obol: `2000000${String(50 + i)}`,
      brand: 'Globex Outlet',
      amount: 2_000 + i * 500,
    });
  let n = 0;
  for (const [i, p] of plan.entries()) {
    const holderId = (await userIdByEmail(deps.db, p.holder))!;
    const by = (await userIdByEmail(deps.db, p.by))!;
    const [holder] = await deps.db.select().from(users).where(eq(users.id, holderId));
    const merchantId = holder.parentId ?? holder.id;
    const account = (await holderAccounts(deps.db, holderId)).payout!;
    const feeBps = holder.feeBps ?? 0;
    const batchId = newBatchId();
    const mtid = `DEMO-${1001 + i}`;
    await deps.db.transaction(async (tx) => {
      await tx.insert(batches).values({
        batchId,
        merchantId,
        behalfOfId: holderId,
        accountId: account.id,
        uploadedBy: by,
        payoutType: 'Manual Payout',
        fileName: `manual-${mtid}`.replace(/\W+/g, '_'),
        status: 'Completed',
        totalRows: 1,
        processedRows: 1,
        amount: p.amount,
        fee: feeCents(p.amount, feeBps),
        feeBps,
        savedAt: new Date(),
        executedAt: new Date(),
      });
      await createPayout(tx, deps.jobs, {
        merchantId,
        behalfOfId: holderId,
        account,
        createdBy: by,
        feeBps,
        batchId,
        payoutType: 'manual',
        merchantTransactionId: mtid,
        beneficiaryName: NAMES[i % NAMES.length],
        brand: p.brand,
        obolId: p.obol,
        reference: `Invoice ${2026_0 + i}`,
        amount: p.amount,
        idempotencyKey: `demo:${mtid}`,
      });
    });
    n++;
  }
  return n;
}

interface DemoTransfer {
  holder: string;
  kind: 'payout' | 'payin' | 'clp';
  beneficiary: string;
  iban: string;
  bic: string;
  amount: number;
  message: string;
}

/**
 * A few transfers to IBANs for Transfer Transactions, made by the accountant from the merchants' accounts the
 * way Merchants Payout makes them (reserve entry, then the provider): the simulator pays them, but for the
 * account ending in 0000, which the bank declines as closed, so the money goes back and the reason shows.
 */
export async function seedDemoTransfers(deps: Deps): Promise<number> {
  const plan: DemoTransfer[] = [
    {
      holder: 'merchant@obol.example',
      kind: 'payout',
      beneficiary: 'Acme Supplies B.V.',
      iban: 'NL91ABNA0417164300',
      bic: 'ABNANL2A',
      amount: 125_000,
      message: 'Packaging, invoice 2026-311',
    },
    {
      holder: 'merchant@obol.example',
      kind: 'payout',
      beneficiary: 'Northwind Logistics Ltd',
      iban: 'GB82WEST12345698765432',
      bic: 'NWBKGB2L',
      amount: 48_990,
      message: 'Freight for October',
    },
    {
      holder: 'merchant@obol.example',
      kind: 'payout',
      beneficiary: 'Old Supplier GmbH',
      iban: 'DE94370400440532010000',
      bic: 'COBADEFFXXX',
      amount: 12_500,
      message: '',
    },
    {
      holder: 'brand@obol.example',
      kind: 'payout',
      beneficiary: 'Acme Brand Studio',
      iban: 'FR1420041010050500013M02606',
      bic: 'PSSTFRPPPAR',
      amount: 7_500,
      message: 'Design retainer',
    },
  ];
  const by = (await userIdByEmail(deps.db, 'accountant@obol.example'))!;
  const [staff] = await deps.db.select().from(users).where(eq(users.id, by));
  let n = 0;
  for (const [i, t] of plan.entries()) {
    const holderId = (await userIdByEmail(deps.db, t.holder))!;
    const [holder] = await deps.db.select().from(users).where(eq(users.id, holderId));
    const account = (await holderAccounts(deps.db, holderId))[t.kind]!;
    await deps.db.transaction((tx) =>
      recordTransfer(tx, deps, {
        merchantId: holder.parentId ?? holder.id,
        holderId,
        account,
        holderName: holder.name,
        createdBy: by,
        createdByName: staff.name,
        beneficiaryName: t.beneficiary,
        iban: t.iban,
        bic: t.bic,
        amount: t.amount,
        message: t.message,
        idempotencyKey: `demo:transfer:${i + 1}`,
      }),
    );
    n++;
  }
  return n;
}

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
