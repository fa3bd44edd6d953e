import { PAYMENT_MSG, REPORT_SELECT_ALL } from '@obol/contract';
import { Alert, Autocomplete, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { reportHoldersQuery } from './api/reports.ts';
import { holderChoices, type Choice } from './reportForm.ts';

/**
 * The merchant or brand of a report (searched on the server a moment after typing stops): with Select All first
 * where the report offers it, or merchants only (invoices).
 */
export function HolderPicker({
  value,
  onChange,
  enabled,
  selectAll = false,
  merchantsOnly = false,
  label = 'Merchant or brand',
}: {
  value: Choice | null;
  onChange: (v: Choice | null) => void;
  enabled: boolean;
  selectAll?: boolean;
  merchantsOnly?: boolean;
  label?: string;
}) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 400);
    return () => clearTimeout(t);
  }, [typed]);
  const holders = useQuery({ ...reportHoldersQuery(search), enabled });
  const options = holderChoices(holders.data?.data ?? [], selectAll, merchantsOnly);
  return (
    <>
      <Autocomplete
        sx={{ minWidth: 260, flex: 1 }}
        options={options}
        filterOptions={(o) => o}
        getOptionLabel={(o) => (o.id === REPORT_SELECT_ALL ? o.name : `${o.name} (${o.kind})`)}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={value}
        onChange={(_, v) => onChange(v)}
        onInputChange={(_, v, reason) => reason === 'input' && setTyped(v)}
        loading={holders.isFetching}
        noOptionsText={PAYMENT_MSG.noHolder}
        renderInput={(params) => <TextField {...params} size="small" label={label} />}
      />
      {holders.isError ? <Alert severity="error">{errorMessage(holders.error)}</Alert> : null}
    </>
  );
}
