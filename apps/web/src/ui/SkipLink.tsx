import { Link } from '@mui/material';

/** The id of the page's one <main> landmark, the target of the skip link. */
export const MAIN_ID = 'main-content';

/** "Skip to content": the first focusable element of every page, shown when focused. */
export function SkipLink() {
  return (
    <Link
      href={`#${MAIN_ID}`}
      onClick={(e) => {
        e.preventDefault();
        const main = document.getElementById(MAIN_ID);
        main?.focus();
        main?.scrollIntoView?.();
      }}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: 'tooltip',
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 600,
        boxShadow: 3,
        transform: 'translateY(-200%)',
        '&:focus-visible, &:focus': { transform: 'none' },
      }}
    >
      Skip to content
    </Link>
  );
}
