import { feeCents } from '@obol/contract';
import type { Deps } from './platform/deps.ts';
import { holderAccounts } from './features/ledger/accounts.ts';
import { batches } from './features/batches/tables.ts';
import { createPayout } from './features/payouts/service.ts';
import { recordTransfer } from './features/transfers/service.ts';
import { transfers } from './features/transfers/tables.ts';
import { holdForApproval, needsApproval, thresholdOf, writePolicy } from './features/approvals/service.ts';
import { newBatchId } from './features/batches/batch-id.ts';
import { users } from './features/users/tables.ts';
import { eq } from 'drizzle-orm';
import { userIdByEmail } from './seed.ts';

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

/** `n` payouts a holder makes itself, to wallets of `brand`: the i-th to the wallet and amount `nth(i)` gives. */
const ownPayouts = (n: number, holder: string, brand: string, nth: (i: number) => [string, number]): DemoPayout[] =>
  Array.from({ length: n }, (_, i) => {
    const [obol, amount] = nth(i);
    return { holder, by: holder, obol, brand, amount };
  });

/**
 * A payout history for the demo: manual payouts of both merchants and a brand, made through the same path as
 * the screens (a batch of one, the reserve entry in the ledger, the submission job). The provider simulator
 * then pays them or declines them (a wallet of another brand, the declined amount of 666.00), so the lists
 * show Completed and Failed payouts with their reasons once the workers have run.
 */
export async function seedDemoPayouts(deps: Deps): Promise<number> {
  const plan: DemoPayout[] = [
    ...ownPayouts(10, 'merchant@obol.example', 'Acme Brand', (i) => [`1000000${String(10 + i)}`, 1_250 + i * 735]),
    {
      holder: 'merchant@obol.example',
      by: 'manager@obol.example',
      obol: '100000031',
      brand: 'Acme Brand',
      amount: 66_600,
    },
    ...ownPayouts(1, 'merchant@obol.example', 'Acme Brand', () => ['200000032', 4_200]),
    ...ownPayouts(4, 'brand@obol.example', 'Acme Brand', (i) => [`1000000${String(40 + i)}`, 990 + i * 1_010]),
    ...ownPayouts(4, 'merchant2@obol.example', 'Globex Outlet', (i) => [`2000000${String(50 + i)}`, 2_000 + i * 500]),
  ];
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
 * A transfer waiting for a second person in Approvals: Globex Trading's four-eyes threshold set to 5,000.00 EUR (as
 * the Admin sets it on the merchant), then a transfer of 7,500.00 from its payout account made by the accountant as
 * createTransfer makes it past its code: reserved, held, and its approval recorded in the same transaction. Once
 * (`demo:transfer:approval`). Answers whether it made it.
 */
export async function seedDemoApproval(deps: Deps): Promise<boolean> {
  const key = 'demo:transfer:approval';
  const [had] = await deps.db.select({ id: transfers.id }).from(transfers).where(eq(transfers.idempotencyKey, key));
  if (had) return false;
  const holderId = (await userIdByEmail(deps.db, 'merchant2@obol.example'))!;
  const [holder] = await deps.db.select().from(users).where(eq(users.id, holderId));
  const [admin] = await deps.db.select().from(users).where(eq(users.email, 'admin@obol.example'));
  const [staff] = await deps.db.select().from(users).where(eq(users.email, 'accountant@obol.example'));
  await writePolicy(deps.db, 'merchant', holderId, 500_000, admin.name);
  const account = (await holderAccounts(deps.db, holderId)).payout!;
  const t = {
    beneficiaryName: 'Globex Property Ltd',
    iban: 'GB33BUKB20201555555555',
    bic: 'BUKBGB22',
    amount: 750_000,
    message: 'Warehouse lease, Q1',
  };
  await deps.db.transaction(async (tx) => {
    const held = needsApproval(await thresholdOf(tx, 'merchant', holderId), t.amount);
    const row = await recordTransfer(tx, deps, {
      held,
      merchantId: holderId,
      holderId,
      account,
      holderName: holder.name,
      createdBy: staff.id,
      createdByName: staff.name,
      ...t,
      idempotencyKey: key,
    });
    if (held)
      await holdForApproval(tx, {
        kind: 'transfer',
        objectId: String(row.id),
        merchantId: holderId,
        holderId,
        holderName: holder.name,
        amount: row.amount,
        description: `${t.beneficiaryName}, IBAN ${t.iban}, from ${account.accountId}`,
        makerId: staff.id,
        makerName: staff.name,
      });
  });
  return true;
}
