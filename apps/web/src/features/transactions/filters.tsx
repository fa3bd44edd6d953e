import { TRX_MSG, normaliseRange } from '@obol/contract';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import {
  Box,
  Button,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  type TextFieldProps,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api } from '../../lib/api.ts';
import { today } from './common.tsx';

export type FilterValues<K extends string> = Record<K, string>;
export type FilterErrors<K extends string> = Partial<Record<K, string>>;

/** What applying or clearing the filters did: nothing new (the caller reloads), a new search, or refused. */
export type ApplyResult = 'changed' | 'same' | 'invalid';

const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The filter panel's state: what is typed (draft), what the list uses (applied), per-field errors.
 * `apply` validates the draft and makes it the applied filters; `close` hides the panel and clears both.
 */
export function useFilters<K extends string>(
  empty: FilterValues<K>,
  validate?: (v: FilterValues<NoInfer<K>>) => FilterErrors<NoInfer<K>>,
) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(empty);
  const [applied, setApplied] = useState(empty);
  const [errors, setErrors] = useState<FilterErrors<K>>({});
  const set = (key: K, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const apply = (): ApplyResult => {
    const errs = validate?.(draft) ?? {};
    if (Object.values(errs).some(Boolean)) {
      setErrors(errs);
      return 'invalid';
    }
    setErrors({});
    if (same(draft, applied)) return 'same';
    setApplied(draft);
    return 'changed';
  };
  const close = (): ApplyResult => {
    setOpen(false);
    setDraft(empty);
    setErrors({});
    if (same(applied, empty)) return 'same';
    setApplied(empty);
    return 'changed';
  };
  /** props of a text field bound to one filter */
  const field = (key: K) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    error: !!errors[key],
    helperText: errors[key],
  });
  return { open, draft, applied, errors, setOpen, set, apply, close, field };
}

/** The request fields of a set of filters: empty ones left out, a date range normalised (one date: start = end). */
export function filterBody(values: Record<string, string>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(values)) {
    if (k === 'start_date' || k === 'end_date') continue;
    const t = v.trim();
    if (!t) continue;
    out[k] = k === 'amount' ? Number(t) : t;
  }
  return { ...out, ...normaliseRange(values.start_date?.trim(), values.end_date?.trim()) };
}

/** An amount filter in cents: whole and 0 or more. */
export function centsError(v: string): string | undefined {
  const t = v.trim();
  if (!t) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(t)) return TRX_MSG.amountWhole;
  const n = Number(t);
  if (n < 0) return TRX_MSG.amountMin;
  if (!Number.isInteger(n)) return TRX_MSG.amountWhole;
  return undefined;
}

/** Dates up to today. */
export function dateErrors(v: { start_date?: string; end_date?: string }) {
  const max = today();
  const check = (d?: string) => (d && d > max ? TRX_MSG.dateFuture : undefined);
  return { start_date: check(v.start_date), end_date: check(v.end_date) };
}

/** The search-toggle icon of a list header. */
export function FilterToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <Tooltip title={open ? 'Close search' : 'Search'}>
      <IconButton aria-label="Toggle search filters" aria-expanded={open} onClick={onToggle} color="primary">
        {open ? <CloseIcon /> : <SearchIcon />}
      </IconButton>
    </Tooltip>
  );
}

/** The filter panel: Enter in any field or the Search button runs the search; Close clears and reloads. */
export function FilterPanel({
  onSearch,
  onClose,
  children,
}: {
  onSearch: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Paper
      component="form"
      aria-label="Search filters"
      noValidate
      variant="outlined"
      sx={{ p: 2, mb: 2 }}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        {children}
      </Box>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        <Button onClick={onClose}>Close</Button>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
          Search
        </Button>
      </Stack>
    </Paper>
  );
}

interface BrandList {
  brand: { id: number; name: string }[];
}

/** The brand filter: a select of the brands of POST /api/brand-list, 'All Brands' for none. */
export function BrandSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const q = useQuery({
    queryKey: ['brand-list'],
    queryFn: () => api<BrandList>('/api/brand-list', {}),
    staleTime: 60_000,
  });
  const brands = q.data?.brand ?? [];
  const known = !value || brands.some((b) => b.name === value);
  return (
    <TextField select size="small" label="Brand" value={known ? value : ''} onChange={(e) => onChange(e.target.value)}>
      <MenuItem value="">All Brands</MenuItem>
      {brands.map((b) => (
        <MenuItem key={b.id} value={b.name}>
          {b.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

type FieldProps = Pick<TextFieldProps, 'value' | 'onChange' | 'error' | 'helperText'>;

/** Start and end date inputs: both up to today, the end not before the start. */
export function DateRangeFields({ start, end }: { start: FieldProps; end: FieldProps }) {
  const max = today();
  return (
    <>
      <TextField
        size="small"
        type="date"
        label="Start Date"
        {...start}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max } }}
      />
      <TextField
        size="small"
        type="date"
        label="End Date"
        {...end}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max, min: (start.value as string) || undefined } }}
      />
    </>
  );
}
