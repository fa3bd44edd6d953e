import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, IconButton, Paper, Stack, TextField, Tooltip, type TextFieldProps } from '@mui/material';
import type { ReactNode } from 'react';
import { today } from '../lib/dates.ts';

/**
 * The search-toggle icon of a list header. `searchTarget` marks it as what the `/` shortcut focuses while the
 * panel is closed (then Enter opens it); once open, the panel's first field is the target.
 */
export function FilterToggle({
  open,
  onToggle,
  searchTarget,
}: {
  open: boolean;
  onToggle: () => void;
  searchTarget?: boolean;
}) {
  return (
    <Tooltip title={open ? 'Close search' : 'Search'}>
      <IconButton
        aria-label="Toggle search filters"
        aria-expanded={open}
        onClick={onToggle}
        color="primary"
        data-search-input={searchTarget || undefined}
      >
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
