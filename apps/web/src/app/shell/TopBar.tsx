import MenuIcon from '@mui/icons-material/Menu';
import NavigateNext from '@mui/icons-material/NavigateNext';
import { Box, Breadcrumbs, IconButton, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { breadcrumbs } from '../paths.ts';
import { HEADER_HEIGHT } from '../../ui/notifications.tsx';

/** Where the user is: menu group > parent page > page; on a phone only the page. */
function Trail() {
  const { pathname } = useLocation();
  const crumbs = breadcrumbs(pathname);
  if (!crumbs.length) return null;
  const last = crumbs.length - 1;
  return (
    <>
      <Typography noWrap sx={{ display: { sm: 'none' }, fontWeight: 600, fontSize: 15 }}>
        {crumbs[last].label}
      </Typography>
      <Breadcrumbs
        aria-label="Breadcrumb"
        separator={<NavigateNext fontSize="small" />}
        sx={{
          display: { xs: 'none', sm: 'block' },
          minWidth: 0,
          '& .MuiBreadcrumbs-ol': { flexWrap: 'nowrap' },
          '& .MuiBreadcrumbs-li': { minWidth: 0 },
        }}
      >
        {crumbs.map((c, n) =>
          n === last ? (
            <Typography
              key={c.label}
              aria-current="page"
              noWrap
              sx={{ color: 'text.primary', fontWeight: 600, fontSize: 14 }}
            >
              {c.label}
            </Typography>
          ) : c.to ? (
            <Link key={c.label} component={RouterLink} to={c.to} color="textSecondary" noWrap sx={{ fontSize: 14 }}>
              {c.label}
            </Link>
          ) : (
            <Typography key={c.label} color="textSecondary" noWrap sx={{ fontSize: 14 }}>
              {c.label}
            </Typography>
          ),
        )}
      </Breadcrumbs>
    </>
  );
}

/** The slim bar above the page: the phone's menu button, the breadcrumbs, and the tools on the right. */
export function TopBar({ onOpenMenu, children }: { onOpenMenu: () => void; children: ReactNode }) {
  return (
    <Box
      component="header"
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: 'appBar',
        height: HEADER_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: { xs: 1, md: 3 },
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      <IconButton aria-label="Open menu" onClick={onOpenMenu} sx={{ display: { md: 'none' } }}>
        <MenuIcon />
      </IconButton>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Trail />
      </Box>
      {children}
    </Box>
  );
}
