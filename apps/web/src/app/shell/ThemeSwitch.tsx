import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import SettingsBrightnessOutlined from '@mui/icons-material/SettingsBrightnessOutlined';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip, useColorScheme } from '@mui/material';
import { useMenuAnchor } from '../../ui/useMenuAnchor.ts';

const MODES = [
  { mode: 'system', label: 'System', Icon: SettingsBrightnessOutlined },
  { mode: 'light', label: 'Light', Icon: LightModeOutlined },
  { mode: 'dark', label: 'Dark', Icon: DarkModeOutlined },
] as const;

/** Light, dark, or as the system says (the default); the choice is remembered. */
export function ThemeSwitch() {
  const { mode, setMode } = useColorScheme();
  const menu = useMenuAnchor();
  const current = MODES.find((m) => m.mode === (mode ?? 'system')) ?? MODES[0];
  return (
    <>
      <Tooltip title={`Theme: ${current.label}`}>
        <IconButton aria-label="Theme" aria-haspopup="menu" {...menu.button}>
          <current.Icon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu {...menu.menu} slotProps={{ list: { 'aria-label': 'Theme' } }}>
        {MODES.map(({ mode: m, label, Icon }) => (
          <MenuItem
            key={m}
            role="menuitemradio"
            aria-checked={m === current.mode}
            selected={m === current.mode}
            onClick={() => {
              setMode(m);
              menu.close();
            }}
          >
            <ListItemIcon>
              <Icon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
