import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, IconButton, Paper, Stack, TextField, Tooltip, type TextFieldProps } from '@mui/material';
import type { ReactNode } from 'react';
import { today } from '../lib/dates.ts';
import type { ApplyResult } from '../lib/filters.ts';
import { DateField } from './DateField.tsx';

/** What the search toggle and the filter panel use of a list's filters (useFilters). */
interface SearchFilters {
  open: boolean;
  setOpen: (open: boolean) => void;
  apply: () => ApplyResult;
  close: () => ApplyResult;
}

/**
 * The search-toggle icon of a list header: opens the filter panel, or closes it (clearing the filters) and hands
 * the result to `onResult` (searchAgain). While the panel is closed it is what the `/` shortcut focuses (then
 * Enter opens it); once open, the panel's first field is the target.
 */
export function FilterToggle({ filters, onResult }: { filters: SearchFilters; onResult: (r: ApplyResult) => void }) {
  const { open } = filters;
  return (
    <Tooltip title={open ? 'Close search' : 'Search'}>
      <IconButton
        aria-label="Toggle search filters"
        aria-expanded={open}
        onClick={() => (open ? onResult(filters.close()) : filters.setOpen(true))}
        color="primary"
        data-search-input={!open || undefined}
      >
        {open ? <CloseIcon /> : <SearchIcon />}
      </IconButton>
    </Tooltip>
  );
}

/**
 * The filter panel, while the filters are open: Enter in any field or the Search button runs the search; Close
 * clears and reloads. Either result goes to `onResult` (searchAgain).
 */
export function FilterPanel({
  filters,
  onResult,
  children,
}: {
  filters: SearchFilters;
  onResult: (r: ApplyResult) => void;
  children: ReactNode;
}) {
  if (!filters.open) return null;
  return (
    <Paper
      component="form"
      aria-label="Search filters"
      noValidate
      variant="outlined"
      sx={{ p: 2, mb: 2 }}
      onSubmit={(e) => {
        e.preventDefault();
        onResult(filters.apply());
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
        <Button onClick={() => onResult(filters.close())}>Close</Button>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
          Search
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * A text field of the filter panel (with useFilters' `field` props); `search` marks the list's main one, the
 * field the `/` shortcut focuses once the panel is open.
 */
export function FilterField({ search, ...props }: Omit<TextFieldProps, 'size'> & { search?: boolean }) {
  const marked = search ? { slotProps: { htmlInput: { 'data-search-input': true } } } : {};
  return <TextField size="small" {...props} {...marked} />;
}

/** A filter field's props (useFilters' `field`): the text, its change as an event, and its error. */
interface FieldProps {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  error?: boolean;
  helperText?: ReactNode;
}

/** Start and end dates, YYYY-MM-DD like the tables: both up to today, the end not before the start. */
export function DateRangeFields({ start, end }: { start: FieldProps; end: FieldProps }) {
  const max = today();
  const field = (label: string, f: FieldProps, min?: string) => (
    <DateField
      size="small"
      label={label}
      value={f.value}
      onChange={(value) => f.onChange({ target: { value } })}
      error={f.error}
      helperText={f.helperText}
      min={min}
      max={max}
    />
  );
  return (
    <>
      {field('Start Date', start)}
      {field('End Date', end, start.value || undefined)}
    </>
  );
}
