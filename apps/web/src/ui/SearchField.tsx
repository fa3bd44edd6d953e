import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';

/**
 * The search box of a list: what the `/` shortcut focuses (`data-search-input`); the helper text says how it
 * matches. Its value is the caller's (a URL-backed, debounced search).
 */
export function SearchField({
  value,
  onChange,
  placeholder,
  helperText,
  label = 'Search',
  minWidth = 280,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  helperText?: string;
  label?: string;
  minWidth?: number;
}) {
  return (
    <TextField
      size="small"
      type="search"
      label={label}
      placeholder={placeholder}
      helperText={helperText}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: { sm: minWidth } }}
      slotProps={{
        htmlInput: { 'data-search-input': true },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
