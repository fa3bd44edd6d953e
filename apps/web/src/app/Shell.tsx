import { initials, visibleNavigation, type Menu } from '@obol/contract';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import MenuIcon from '@mui/icons-material/Menu';
import {
  AppBar,
  Avatar,
  Box,
  Button,
  Collapse,
  Container,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Menu as MuiMenu,
  MenuItem,
  Toolbar,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../lib/session.ts';
import { IdleWarning } from './IdleWarning.tsx';
import { refreshPermissions, useLogout } from './sessionActions.ts';

function DesktopMenu({ menu }: { menu: Menu }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  if (menu.path) {
    return (
      <Button color="inherit" component={RouterLink} to={menu.path}>
        {menu.label}
      </Button>
    );
  }
  return (
    <>
      <Button color="inherit" aria-haspopup="menu" aria-expanded={!!anchor} onClick={(e) => setAnchor(e.currentTarget)}>
        {menu.label}
      </Button>
      <MuiMenu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {menu.items!.map((i) => (
          <MenuItem
            key={i.path}
            onClick={() => {
              setAnchor(null);
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

function MobileDrawer({ menus, open, onClose }: { menus: Menu[]; open: boolean; onClose: () => void }) {
  const [expanded, setExpanded] = useState<string | null>(null);
  const navigate = useNavigate();
  const go = (path: string) => {
    onClose();
    navigate(path);
  };
  return (
    <Drawer open={open} onClose={onClose}>
      <Box component="nav" aria-label="Main menu" sx={{ width: 280 }}>
        <Typography variant="h6" sx={{ px: 2, pt: 2, fontWeight: 700 }} color="primary">
          Obol
        </Typography>
        <List>
          {menus.map((m) =>
            m.path ? (
              <ListItemButton key={m.label} component={RouterLink} to={m.path} onClick={onClose}>
                <ListItemText primary={m.label} />
              </ListItemButton>
            ) : (
              <Box key={m.label}>
                <ListItemButton
                  onClick={() => setExpanded(expanded === m.label ? null : m.label)}
                  aria-expanded={expanded === m.label}
                  aria-haspopup="menu"
                >
                  <ListItemText primary={m.label} />
                  {expanded === m.label ? <ExpandLess /> : <ExpandMore />}
                </ListItemButton>
                <Collapse in={expanded === m.label} unmountOnExit>
                  <List disablePadding role="menu" aria-label={m.label}>
                    {m.items!.map((i) => (
                      <ListItemButton key={i.path} role="menuitem" sx={{ pl: 4 }} onClick={() => go(i.path)}>
                        <ListItemText primary={i.label} />
                      </ListItemButton>
                    ))}
                  </List>
                </Collapse>
              </Box>
            ),
          )}
        </List>
      </Box>
    </Drawer>
  );
}

export function Shell() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [userMenu, setUserMenu] = useState<HTMLElement | null>(null);
  const [drawer, setDrawer] = useState(false);

  const endSession = useLogout();

  // permissions are re-fetched on every route change while a token exists
  useEffect(() => {
    refreshPermissions();
  }, [location.pathname]);

  if (!session) return null;
  const menus = visibleNavigation(session.permissions);

  const logout = () => {
    setUserMenu(null);
    void endSession();
  };

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'grey.100' }}>
      <AppBar position="sticky" elevation={1}>
        <Toolbar sx={{ gap: 1 }}>
          <IconButton
            color="inherit"
            aria-label="Open menu"
            onClick={() => setDrawer(true)}
            sx={{ display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <Typography
            variant="h6"
            component={RouterLink}
            to="/payments"
            sx={{ color: 'inherit', textDecoration: 'none', mr: 2, fontWeight: 700 }}
          >
            Obol
          </Typography>
          <Box
            component="nav"
            aria-label="Main menu"
            sx={{ display: { xs: 'none', md: 'flex' }, flexWrap: 'wrap', flexGrow: 1 }}
          >
            {menus.map((m) => (
              <DesktopMenu key={m.label} menu={m} />
            ))}
          </Box>
          <Box sx={{ flexGrow: { xs: 1, md: 0 } }} />
          <IconButton aria-label="Account menu" onClick={(e) => setUserMenu(e.currentTarget)}>
            <Avatar sx={{ bgcolor: 'secondary.main', width: 36, height: 36, fontSize: 15 }}>
              {initials(session.user.name)}
            </Avatar>
          </IconButton>
          <MuiMenu anchorEl={userMenu} open={!!userMenu} onClose={() => setUserMenu(null)}>
            <Box sx={{ px: 2, py: 1 }}>
              <Typography variant="subtitle2">{session.user.name}</Typography>
              <Typography variant="body2" color="text.secondary">
                {session.user.role}
              </Typography>
            </Box>
            <Divider />
            <MenuItem
              onClick={() => {
                setUserMenu(null);
                navigate('/user-profile');
              }}
            >
              User Profile
            </MenuItem>
            <MenuItem onClick={logout}>Logout</MenuItem>
          </MuiMenu>
        </Toolbar>
      </AppBar>
      <MobileDrawer menus={menus} open={drawer} onClose={() => setDrawer(false)} />
      <Container maxWidth="xl" sx={{ py: 3 }}>
        <Outlet />
      </Container>
      <IdleWarning onLogout={logout} />
    </Box>
  );
}
