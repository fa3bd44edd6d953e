import { useState, type MouseEvent } from 'react';

/**
 * A menu opened from its button: the button's `aria-expanded` and `onClick`, and the menu's props (it hangs under
 * the button, aligned to its right edge, and closes on Escape or a click outside).
 */
export function useMenuAnchor() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return {
    close,
    button: { 'aria-expanded': !!anchor, onClick: (e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget) },
    menu: {
      anchorEl: anchor,
      open: !!anchor,
      onClose: close,
      anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
      transformOrigin: { vertical: 'top', horizontal: 'right' },
    } as const,
  };
}
