import KeyboardDoubleArrowLeft from '@mui/icons-material/KeyboardDoubleArrowLeft';
import KeyboardDoubleArrowRight from '@mui/icons-material/KeyboardDoubleArrowRight';
import { Box, Drawer, IconButton, Tooltip } from '@mui/material';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LiveEventsProvider } from '../lib/live.tsx';
import { useSession } from '../lib/session.ts';
import { RouteFallback } from '../ui/RouteFallback.tsx';
import { MAIN_ID } from '../ui/SkipLink.tsx';
import { IdleWarning } from './IdleWarning.tsx';
import { builtNavigation, firstPermittedPath } from './paths.ts';
import { refreshPermissions, useLogout } from './sessionActions.ts';
import { Brand } from './shell/Brand.tsx';
import { NavList } from './shell/NavList.tsx';
import { ThemeSwitch } from './shell/ThemeSwitch.tsx';
import { TopBar } from './shell/TopBar.tsx';
import { UserMenu } from './shell/UserMenu.tsx';
import { useSlashSearch } from './shell/useSlashSearch.ts';
import { useStoredFlag } from './shell/useStoredFlag.ts';
import { ReceiptOutlet } from '../ui/ReceiptOutlet.tsx';

/** Where the sidebar's collapsed state (icons only) is remembered. */
export const RAIL_KEY = 'obol.sidebar.rail';
const WIDE = 248;
const RAIL = 64;

/** The signed-in frame: the sidebar (a drawer on phones), the top bar, and the page in the one <main>. */
export function Shell() {
  const session = useSession();
  const location = useLocation();
  const [drawer, setDrawer] = useState(false);
  const [rail, setRail] = useStoredFlag(RAIL_KEY);
  const endSession = useLogout();
  useSlashSearch();

  // permissions are re-fetched on every route change while a token exists
  useEffect(() => {
    refreshPermissions();
  }, [location.pathname]);

  if (!session) return null;
  const menus = builtNavigation(session.permissions);
  const home = firstPermittedPath(session.permissions);
  const logout = () => void endSession();
  const width = rail ? RAIL : WIDE;

  return (
    <LiveEventsProvider>
      <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
        <Box
          component="aside"
          sx={{
            display: { xs: 'none', md: 'flex' },
            flexDirection: 'column',
            width,
            flexShrink: 0,
            position: 'sticky',
            top: 0,
            height: '100vh',
            borderRight: 1,
            borderColor: 'divider',
            bgcolor: 'nav.bg',
            transition: (t) => t.transitions.create('width', { duration: t.transitions.duration.shorter }),
          }}
        >
          <Box sx={{ height: 56, display: 'flex', alignItems: 'center', px: rail ? 2 : 2.5, flexShrink: 0 }}>
            <Brand rail={rail} home={home} />
          </Box>
          <Box component="nav" aria-label="Main menu" sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
            <NavList menus={menus} rail={rail} />
          </Box>
          <Box
            sx={{
              p: 1,
              borderTop: 1,
              borderColor: 'divider',
              display: 'flex',
              justifyContent: rail ? 'center' : 'flex-end',
            }}
          >
            <Tooltip title={rail ? 'Expand sidebar' : 'Collapse sidebar'} placement="right">
              <IconButton
                size="small"
                aria-label={rail ? 'Expand sidebar' : 'Collapse sidebar'}
                aria-pressed={rail}
                onClick={() => setRail(!rail)}
              >
                {rail ? <KeyboardDoubleArrowRight fontSize="small" /> : <KeyboardDoubleArrowLeft fontSize="small" />}
              </IconButton>
            </Tooltip>
          </Box>
        </Box>
        <Drawer
          open={drawer}
          onClose={() => setDrawer(false)}
          sx={{ display: { md: 'none' } }}
          slotProps={{ paper: { sx: { width: 280, bgcolor: 'nav.bg' } } }}
        >
          <Box sx={{ height: 56, display: 'flex', alignItems: 'center', px: 2.5 }}>
            <Brand home={home} />
          </Box>
          <Box component="nav" aria-label="Main menu">
            <NavList menus={menus} onNavigate={() => setDrawer(false)} />
          </Box>
        </Drawer>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <TopBar onOpenMenu={() => setDrawer(true)}>
            <ThemeSwitch />
            <UserMenu name={session.user.name} role={session.user.role} onLogout={logout} />
          </TopBar>
          <Box
            component="main"
            id={MAIN_ID}
            tabIndex={-1}
            sx={{ flex: 1, width: '100%', maxWidth: 1440, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 2, md: 3 } }}
          >
            <ReceiptOutlet />
            <Suspense fallback={<RouteFallback />}>
              <Outlet />
            </Suspense>
          </Box>
        </Box>
        <IdleWarning onLogout={logout} />
      </Box>
    </LiveEventsProvider>
  );
}
