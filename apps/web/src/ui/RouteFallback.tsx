import { Box, LinearProgress } from '@mui/material';
import { useEffect, useState } from 'react';

/** While a page's code loads: a thin progress bar, shown only if loading takes longer than a blink. */
export function RouteFallback() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setShow(true), 150);
    return () => clearTimeout(t);
  }, []);
  return (
    <Box role="status" aria-label="Loading page" sx={{ minHeight: 4 }}>
      {show ? <LinearProgress aria-label="Loading page" /> : null}
    </Box>
  );
}
