import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ViewColumnIcon from '@mui/icons-material/ViewColumnOutlined';
import {
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  IconButton,
  Popover,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { move, type Density, type TablePrefsState } from '../lib/tablePrefs.ts';

/**
 * The Columns menu of a table: a checkbox per column (key columns cannot be hidden), up and down to order them,
 * the row density, and Reset. Every change is stored at once for the signed-in user.
 */
export function ColumnsMenu({ labels, state }: { labels: Record<string, string>; state: TablePrefsState }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const { prefs, save, reset, pinned } = state;
  const toggle = (col: string, show: boolean) =>
    save({ ...prefs, hidden: show ? prefs.hidden.filter((h) => h !== col) : [...prefs.hidden, col] });
  return (
    <>
      <Button
        size="small"
        color="inherit"
        startIcon={<ViewColumnIcon />}
        aria-haspopup="dialog"
        aria-expanded={!!anchor}
        aria-controls={anchor ? id : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        Columns
      </Button>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { id, role: 'dialog', 'aria-label': 'Table settings', sx: { width: 300, p: 1.5 } } }}
      >
        <Typography variant="subtitle2" component="h2" sx={{ mb: 0.5 }}>
          Columns
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, maxHeight: 320, overflowY: 'auto' }}>
          {prefs.order.map((col, i) => (
            <Stack component="li" key={col} direction="row" sx={{ alignItems: 'center' }}>
              <FormControlLabel
                sx={{ flex: 1, mr: 0 }}
                control={
                  <Checkbox
                    size="small"
                    checked={!prefs.hidden.includes(col)}
                    disabled={pinned.includes(col)}
                    onChange={(e) => toggle(col, e.target.checked)}
                  />
                }
                label={<Typography variant="body2">{labels[col] ?? col}</Typography>}
              />
              <IconButton
                size="small"
                aria-label={`Move ${labels[col] ?? col} up`}
                disabled={i === 0}
                onClick={() => save({ ...prefs, order: move(prefs.order, col, -1) })}
              >
                <ArrowUpwardIcon fontSize="inherit" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={`Move ${labels[col] ?? col} down`}
                disabled={i === prefs.order.length - 1}
                onClick={() => save({ ...prefs, order: move(prefs.order, col, 1) })}
              >
                <ArrowDownwardIcon fontSize="inherit" />
              </IconButton>
            </Stack>
          ))}
        </Box>
        <Divider sx={{ my: 1 }} />
        <Typography variant="subtitle2" component="h2" id={`${id}-density`}>
          Density
        </Typography>
        <RadioGroup
          row
          aria-labelledby={`${id}-density`}
          value={prefs.density}
          onChange={(e) => save({ ...prefs, density: e.target.value as Density })}
        >
          <FormControlLabel value="comfortable" control={<Radio size="small" />} label="Comfortable" />
          <FormControlLabel value="compact" control={<Radio size="small" />} label="Compact" />
        </RadioGroup>
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button size="small" onClick={reset}>
            Reset to defaults
          </Button>
        </Stack>
      </Popover>
    </>
  );
}
