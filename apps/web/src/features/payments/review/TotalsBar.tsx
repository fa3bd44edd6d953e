import type { BatchAmount } from '@obol/contract';
import { Stack, TableCell, TableFooter, TableRow, Tooltip } from '@mui/material';
import { euro } from '../../../lib/format.ts';

/** The batch's amount, its fee and their total, under the staged rows. */
export function TotalsBar({ totals }: { totals: BatchAmount | undefined }) {
  const amount = totals?.amount ?? 0;
  const fee = totals?.fee ?? 0;
  return (
    <TableFooter>
      <TableRow>
        <TableCell colSpan={9}>
          <Stack direction="row" spacing={3}>
            <span>Amount: {euro(amount)}</span>
            <Tooltip title="The batch fee is applied on the summed amount of all transactions of the batch">
              <span>Fee: {euro(fee)}</span>
            </Tooltip>
            <strong>Total: {euro(amount + fee)}</strong>
          </Stack>
        </TableCell>
      </TableRow>
    </TableFooter>
  );
}
