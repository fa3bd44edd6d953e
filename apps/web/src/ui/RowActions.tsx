import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Button, ListItemIcon, ListItemText, Menu, MenuItem, Stack } from '@mui/material';
import { useId, useRef, useState } from 'react';
import { ActionButton, type RowActionItem } from './ActionButton.tsx';

export type { RowActionItem };

/** from this many actions on, a row shows one labelled "Actions" menu instead of a line of buttons */
export const MENU_FROM = 3;

/**
 * A row's actions: one or two stay buttons (ActionButton); three or more are one "Actions" button, named for the
 * row (`name`, e.g. "Actions for Acme"), opening a menu of them, a line of buttons being wider than a 1366 px
 * table has room for. A disabled action in the menu stays in it, greyed, with its reason under its text.
 */
export function RowActions({ name, items }: { name: string; items: readonly RowActionItem[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  // the chosen action runs once the menu has closed: a dialog it opens is not hidden behind the closing menu
  const chosen = useRef<(() => void) | null>(null);
  if (items.length < MENU_FROM)
    return (
      <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'nowrap' }}>
        {items.map((a) => (
          <ActionButton key={a.text} {...a} />
        ))}
      </Stack>
    );
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        size="small"
        endIcon={<ArrowDropDownIcon />}
        aria-label={`Actions for ${name}`}
        aria-haspopup="menu"
        aria-expanded={!!anchor}
        aria-controls={anchor ? id : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ whiteSpace: 'nowrap', minWidth: 0, px: 1 }}
      >
        Actions
      </Button>
      <Menu
        id={id}
        open={!!anchor}
        anchorEl={anchor}
        onClose={close}
        slotProps={{
          list: { 'aria-label': `Actions for ${name}` },
          transition: {
            onExited: () => {
              const run = chosen.current;
              chosen.current = null;
              run?.();
            },
          },
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {items.map((a) => {
          const why = a.disabledReason || null;
          return (
            <MenuItem
              key={a.text}
              // a disabled item stays focusable, so its reason is read out (aria-disabled, not MUI's disabled)
              aria-disabled={why ? true : undefined}
              onClick={() => {
                if (why) return;
                chosen.current = a.onClick;
                close();
              }}
              sx={{
                color: why ? 'text.secondary' : a.danger ? 'error.main' : undefined,
                cursor: why ? 'default' : undefined,
              }}
            >
              <ListItemIcon sx={{ color: 'inherit' }}>{a.icon}</ListItemIcon>
              <ListItemText
                primary={a.text}
                secondary={why}
                slotProps={{ secondary: { sx: { maxWidth: 260, whiteSpace: 'normal' } } }}
              />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
