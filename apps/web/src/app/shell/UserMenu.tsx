import { initials } from '@obol/contract';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import { Avatar, Box, Divider, IconButton, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import { useNavigate } from 'react-router';
import { useMenuAnchor } from '../../ui/useMenuAnchor.ts';

/** The avatar with the user's initials: name, role, User Profile and Logout. */
export function UserMenu({ name, role, onLogout }: { name: string; role: string; onLogout: () => void }) {
  const menu = useMenuAnchor();
  const navigate = useNavigate();
  return (
    <>
      <IconButton
        // the initials it shows are part of its name (WCAG 2.5.3)
        aria-label={`Account menu, ${initials(name)}`}
        aria-haspopup="menu"
        {...menu.button}
        sx={{ p: 0.5 }}
      >
        <Avatar
          sx={{
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
            width: 32,
            height: 32,
            fontSize: 13,
            fontWeight: 600,
          }}
        >
          {initials(name)}
        </Avatar>
      </IconButton>
      <Menu {...menu.menu} slotProps={{ paper: { sx: { minWidth: 220 } } }}>
        <Box sx={{ px: 2, py: 1 }}>
          <Typography variant="subtitle2">{name}</Typography>
          <Typography variant="body2" color="textSecondary">
            {role}
          </Typography>
        </Box>
        <Divider />
        <MenuItem
          onClick={() => {
            menu.close();
            navigate('/user-profile');
          }}
        >
          <ListItemIcon>
            <PersonOutlined fontSize="small" />
          </ListItemIcon>
          User Profile
        </MenuItem>
        <MenuItem
          onClick={() => {
            menu.close();
            onLogout();
          }}
        >
          <ListItemIcon>
            <LogoutOutlined fontSize="small" />
          </ListItemIcon>
          Logout
        </MenuItem>
      </Menu>
    </>
  );
}
