import type { MerchantAccountChoice } from '@obol/contract';
import { Alert, Autocomplete, Box, Paper, TextField, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { useDebounced } from '../../lib/useDebounced.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { merchantWithAccountQuery } from './api/transfers.ts';
import { TransferForm } from './TransferForm.tsx';

/** Merchants Payout: choose a merchant's or brand's account set (merchant-with-account), then the transfer form. */
export function MerchantsPayoutPage() {
  const [input, setInput] = useState('');
  const search = useDebounced(input.trim(), 1000);
  const [chosen, setChosen] = useState<MerchantAccountChoice | null>(null);
  const q = useQuery({ ...merchantWithAccountQuery(search), placeholderData: keepPreviousData });
  const options = q.data?.data ?? [];
  return (
    <>
      <PageTitle>Merchants Payout</PageTitle>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Autocomplete
          options={options}
          value={chosen}
          onChange={(_, v) => setChosen(v)}
          inputValue={input}
          onInputChange={(_, v) => setInput(v)}
          filterOptions={(o) => o}
          loading={q.isFetching}
          getOptionLabel={(o) => `${o.merchant_name} (${o.account_reference})`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={q.isFetching ? 'Searching…' : "Merchant/Brand doesn't exist"}
          renderOption={({ key, ...props }, o) => (
            <Box component="li" key={key} {...props}>
              <Box>
                <Typography variant="body2">{o.merchant_name}</Typography>
                <Typography variant="caption" color="textSecondary">
                  {o.role === 'Brand' ? `Brand of ${o.parent_name ?? '-'}` : 'Merchant'} · {o.account_reference}
                </Typography>
              </Box>
            </Box>
          )}
          renderInput={(params) => (
            <TextField {...params} label="Merchant account" placeholder="Search a merchant or brand by name" />
          )}
        />
        {q.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(q.error)}
          </Alert>
        ) : null}
      </Paper>
      {chosen ? (
        <TransferForm key={chosen.id} sources={chosen.accounts} holderName={chosen.merchant_name} />
      ) : (
        <Alert severity="info">Choose the merchant or brand whose account the transfer is made from.</Alert>
      )}
    </>
  );
}
