import { type AccountingTransferType, type Beneficiary } from '@obol/contract';
import {
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Grid,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { companyAccountsQuery, companyBeneficiariesQuery, companyListQuery } from './api/choices.ts';
import { TRANSFER_TYPE_LABELS } from './labels.tsx';

type Errors = Partial<Record<'company_id' | 'account_id' | 'transfer_type' | 'beneficiary_id', string>>;

/** The company's accounts; empty until a company is chosen. */
export function useCompanyAccounts(companyId: number | null) {
  const q = useQuery(companyAccountsQuery(companyId));
  return { accounts: companyId === null ? [] : (q.data?.accounts ?? []), loading: q.isFetching };
}

/**
 * Where a transfer or a rule may pay to: External lists the company's saved beneficiaries, Internal the company's
 * own accounts other than the source account.
 */
export function useBeneficiaries(companyId: number | null, type: AccountingTransferType, sourceId: string) {
  const beneficiaries = useQuery(companyBeneficiariesQuery(companyId));
  const { accounts } = useCompanyAccounts(companyId);
  if (companyId === null) return [] as Beneficiary[];
  if (type === 'external_transfer') return beneficiaries.data?.beneficiaries ?? [];
  return accounts
    .filter((a) => a.id !== sourceId)
    .map((a) => ({ id: a.id, name: a.name, account_iban: a.account_iban, account_bic: a.account_bic }));
}

/** Company and account selectors: the active companies, then the chosen company's accounts. */
export function CompanyAccountFields({
  companyId,
  onCompany,
  accountId,
  onAccount,
  errors = {},
  md = 6,
}: {
  companyId: number | null;
  onCompany: (id: number | null) => void;
  accountId: string;
  onAccount: (id: string) => void;
  errors?: Errors;
  md?: number;
}) {
  const companies = useQuery(companyListQuery());
  const { accounts, loading } = useCompanyAccounts(companyId);
  const list = companies.data?.companies ?? [];
  return (
    <>
      <Grid size={{ xs: 12, md }}>
        <TextField
          select
          label="Company"
          fullWidth
          value={companyId ?? ''}
          onChange={(e) => onCompany(e.target.value === '' ? null : Number(e.target.value))}
          error={!!errors.company_id}
          helperText={errors.company_id}
        >
          {list.length ? null : (
            <MenuItem value="" disabled>
              {companies.isPending ? 'Loading…' : 'No active company'}
            </MenuItem>
          )}
          {list.map((c) => (
            <MenuItem key={c.value} value={c.value}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, md }}>
        <TextField
          select
          label="Account"
          fullWidth
          disabled={companyId === null}
          value={accounts.some((a) => a.id === accountId) ? accountId : ''}
          onChange={(e) => onAccount(e.target.value)}
          error={!!errors.account_id}
          helperText={errors.account_id ?? (companyId === null ? 'Choose the company first' : undefined)}
        >
          {accounts.length ? null : (
            <MenuItem value="" disabled>
              {loading ? 'Loading…' : 'The company has no account'}
            </MenuItem>
          )}
          {accounts.map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name} · {a.account_iban}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
    </>
  );
}

/**
 * The transfer type (External or Internal), the beneficiary it offers, and the beneficiary's IBAN and BIC
 * (read-only). The caller resets the beneficiary when the type changes.
 */
export function TargetFields({
  companyId,
  sourceId,
  type,
  onType,
  beneficiaryId,
  onBeneficiary,
  typeLabel = 'Transfer type',
  disabled = false,
  errors = {},
}: {
  companyId: number | null;
  sourceId: string;
  type: AccountingTransferType;
  onType: (t: AccountingTransferType) => void;
  beneficiaryId: string;
  onBeneficiary: (id: string) => void;
  typeLabel?: string;
  disabled?: boolean;
  errors?: Errors;
}) {
  const id = useId();
  const options = useBeneficiaries(companyId, type, sourceId);
  const chosen = options.find((b) => b.id === beneficiaryId);
  const readOnly = (label: string, value: string | undefined) => (
    <TextField
      label={label}
      value={value ?? ''}
      fullWidth
      disabled={disabled}
      variant="filled"
      helperText={chosen ? ' ' : 'Shown once a beneficiary is chosen'}
      slotProps={{ input: { readOnly: true }, inputLabel: { shrink: !!value } }}
    />
  );
  return (
    <>
      <Grid size={12}>
        <FormControl disabled={disabled} error={!!errors.transfer_type}>
          <FormLabel id={`${id}-type`}>{typeLabel}</FormLabel>
          <RadioGroup
            row
            aria-labelledby={`${id}-type`}
            value={type}
            onChange={(e) => onType(e.target.value as AccountingTransferType)}
          >
            {(['external_transfer', 'internal_transfer'] as const).map((t) => (
              <FormControlLabel key={t} value={t} control={<Radio />} label={TRANSFER_TYPE_LABELS[t]} />
            ))}
          </RadioGroup>
          {errors.transfer_type ? <FormHelperText>{errors.transfer_type}</FormHelperText> : null}
        </FormControl>
      </Grid>
      <Grid size={12}>
        <TextField
          select
          label="Beneficiary"
          fullWidth
          disabled={disabled || companyId === null}
          value={chosen ? beneficiaryId : ''}
          onChange={(e) => onBeneficiary(e.target.value)}
          error={!!errors.beneficiary_id}
          helperText={
            errors.beneficiary_id ??
            (type === 'internal_transfer' ? "Another of the company's accounts" : "One of the company's beneficiaries")
          }
        >
          {options.length ? null : (
            <MenuItem value="" disabled>
              No beneficiary
            </MenuItem>
          )}
          {options.map((b) => (
            <MenuItem key={b.id} value={b.id}>
              {b.name} · {b.account_iban}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>{readOnly('Beneficiary IBAN', chosen?.account_iban)}</Grid>
      <Grid size={{ xs: 12, md: 6 }}>{readOnly('Beneficiary BIC', chosen?.account_bic)}</Grid>
    </>
  );
}
