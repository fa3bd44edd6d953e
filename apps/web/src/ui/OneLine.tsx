import { Box, Stack } from '@mui/material';
import { CopyButton } from './CopyButton.tsx';

/**
 * An id, e-mail, batch id or file name in a list: one line, cut with an ellipsis past `maxWidth`, the whole value
 * on hover; with `copy`, a copy button after it. Breaking these mid-word made rows two or three lines tall.
 */
export function OneLine({ text, maxWidth = 220, copy }: { text: string; maxWidth?: number; copy?: string }) {
  const value = (
    <Box
      component="span"
      title={text}
      sx={{
        display: 'block',
        minWidth: 0,
        maxWidth,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
      }}
    >
      {text}
    </Box>
  );
  if (!copy) return value;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      {value}
      <CopyButton text={text} label={copy} />
    </Stack>
  );
}
