import type { Column } from './columns.ts';

/** The Beneficiary Name column of a list of money sent (payouts, transfers): a key column, a phone card's title. */
export const beneficiaryColumn = <T extends { beneficiary_name: string }>(width: number): Column<T> => ({
  id: 'beneficiary',
  label: 'Beneficiary Name',
  pinned: true,
  card: 'title',
  width,
  cell: (t) => t.beneficiary_name,
});
