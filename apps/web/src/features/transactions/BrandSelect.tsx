import { MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { brandListQuery } from './api/brandList.ts';

/** The brand filter: a select of the brands of POST /api/brand-list, 'All Brands' for none. */
export function BrandSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const q = useQuery(brandListQuery());
  const brands = q.data?.brand ?? [];
  const known = !value || brands.some((b) => b.name === value);
  return (
    <TextField
      select
      size="small"
      label="Brand"
      value={known ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      helperText="Exact brand"
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">All Brands</MenuItem>
      {brands.map((b) => (
        <MenuItem key={b.id} value={b.name}>
          {b.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
