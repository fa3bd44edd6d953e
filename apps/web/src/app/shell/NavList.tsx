import type { Menu } from '@obol/contract';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Badge,
  Box,
  Collapse,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Menu as MuiMenu,
  MenuItem,
  Tooltip,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { pendingApprovalsQuery } from '../../features/approvals/api/approvals.ts';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { guardedPathOf, isBuilt, navPathOf } from '../paths.ts';
import { SCREENS } from '../screens.tsx';
import { NAV_ICONS } from './navIcons.tsx';
import { visuallyHidden } from '../../ui/visuallyHidden.ts';

/** Loads a screen's code when its menu item is pointed at or focused, so the click opens it at once. */
const preload = (path: string) => () => {
  if (isBuilt(path)) void SCREENS[path].preload().catch(() => undefined);
};

const itemSx = {
  borderRadius: 1.5,
  mx: 1,
  my: 0.25,
  minHeight: 36,
  color: 'text.secondary',
  '& .MuiListItemIcon-root': { color: 'inherit', minWidth: 36 },
  '&:hover': { color: 'text.primary' },
  '&.Mui-selected, &.Mui-selected:hover': { bgcolor: 'nav.selected', color: 'nav.selectedText', fontWeight: 600 },
  '& .MuiListItemText-primary': { fontSize: '0.875rem', fontWeight: 'inherit' },
} as const;

function Icon({ label }: { label: string }) {
  const I = NAV_ICONS[label];
  return <ListItemIcon>{I ? <I fontSize="small" /> : null}</ListItemIcon>;
}

/** The screens that show how many wait for the user: the approvals (not their own). */
const WAITING: Record<string, 'payments' | '2d'> = { '/approvals': 'payments', '/accounting-approvals': '2d' };

/** How many approvals wait for this user, beside its menu item (live events refetch it; a minute's poll else). */
function Waiting({ path, children }: { path: string; children?: (n: number) => ReactNode }) {
  const q = useQuery({ ...pendingApprovalsQuery(WAITING[path]), refetchInterval: 60_000 });
  const n = q.data ?? 0;
  if (children) return <>{children(n)}</>;
  if (!n) return null;
  return (
    <Box
      component="span"
      sx={{
        ml: 1,
        px: 0.75,
        minWidth: 20,
        borderRadius: 10,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        fontSize: '0.75rem',
        fontWeight: 600,
        lineHeight: '20px',
        textAlign: 'center',
      }}
    >
      {n}
      <Box component="span" sx={visuallyHidden}>
        {' '}
        waiting
      </Box>
    </Box>
  );
}

/** In the rail only the icon shows; the tooltip and the accessible name carry the label. */
function RailTip({ rail, label, children }: { rail: boolean; label: string; children: ReactNode }) {
  if (!rail) return <>{children}</>;
  return (
    <Tooltip title={label} placement="right">
      <Box>{children}</Box>
    </Tooltip>
  );
}

interface Props {
  menus: Menu[];
  /** icons only (the desktop sidebar collapsed) */
  rail?: boolean;
  /** called after a page is chosen (closes the phone drawer) */
  onNavigate?: () => void;
}

/** A menu group in the rail: its icon opens the group's pages as a pop-up menu. */
function RailGroup({ menu, current, onNavigate }: { menu: Menu; current?: string; onNavigate?: () => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const active = menu.items!.some((i) => i.path === current);
  return (
    <>
      <RailTip rail label={menu.label}>
        <ListItemButton
          sx={itemSx}
          selected={active}
          aria-label={menu.label}
          aria-haspopup="menu"
          aria-expanded={!!anchor}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Icon label={menu.label} />
        </ListItemButton>
      </RailTip>
      <MuiMenu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-label': menu.label } }}
      >
        {menu.items!.map((i) => (
          <MenuItem
            key={i.path}
            selected={i.path === current}
            onMouseEnter={preload(i.path)}
            onClick={() => {
              setAnchor(null);
              onNavigate?.();
              navigate(i.path);
            }}
          >
            {i.label}
          </MenuItem>
        ))}
      </MuiMenu>
    </>
  );
}

/** The navigation of the sidebar and of the phone drawer: the spec's menus, grouped, the current page marked. */
export function NavList({ menus, rail = false, onNavigate }: Props) {
  const { pathname } = useLocation();
  const current = navPathOf(pathname);
  const exact = guardedPathOf(pathname);
  const groupOf = (path?: string) => menus.find((m) => m.items?.some((i) => i.path === path))?.label;
  // a group opens where the current page is, until the user opens or closes it
  const currentGroup = groupOf(current);
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const isOpen = (label: string) => toggled[label] ?? label === currentGroup;
  const toggle = (label: string) => setToggled((t) => ({ ...t, [label]: !isOpen(label) }));

  const link = (path: string, label: string, nested: boolean) => (
    <ListItemButton
      key={path}
      component={RouterLink}
      to={path}
      selected={path === current}
      aria-current={path === exact ? 'page' : undefined}
      aria-label={rail ? label : undefined}
      onMouseEnter={preload(path)}
      onFocus={preload(path)}
      onClick={onNavigate}
      sx={{ ...itemSx, ...(nested ? { pl: 6.5 } : {}) }}
    >
      {nested ? null : WAITING[path] && rail ? (
        <Waiting path={path}>
          {(n) => (
            <Badge badgeContent={n} color="primary" max={99}>
              <Icon label={label} />
            </Badge>
          )}
        </Waiting>
      ) : (
        <Icon label={label} />
      )}
      {rail ? null : <ListItemText primary={label} />}
      {!rail && WAITING[path] ? <Waiting path={path} /> : null}
    </ListItemButton>
  );

  return (
    <List component="div" dense disablePadding sx={{ py: 1 }}>
      {menus.map((m) => {
        if (m.path)
          return (
            <RailTip key={m.label} rail={rail} label={m.label}>
              {link(m.path, m.label, false)}
            </RailTip>
          );
        if (rail) return <RailGroup key={m.label} menu={m} current={current} onNavigate={onNavigate} />;
        const id = `nav-group-${m.label.toLowerCase().replace(/\W+/g, '-')}`;
        const expanded = isOpen(m.label);
        return (
          <Box key={m.label}>
            <ListItemButton sx={itemSx} onClick={() => toggle(m.label)} aria-expanded={expanded} aria-controls={id}>
              <Icon label={m.label} />
              <ListItemText primary={m.label} />
              {expanded ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
            </ListItemButton>
            <Collapse in={expanded} unmountOnExit>
              <List component="div" role="group" dense disablePadding id={id} aria-label={m.label}>
                {m.items!.map((i) => link(i.path, i.label, true))}
              </List>
            </Collapse>
          </Box>
        );
      })}
    </List>
  );
}
