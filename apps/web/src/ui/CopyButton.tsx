import { MSG } from '@obol/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { IconButton } from '@mui/material';
import { useNotify } from './notifications.tsx';

/** Copies a text and says so: 'Success!' 'Copied To Clipboard'. */
export function useCopy() {
  const { notify } = useNotify();
  return async (text: string) => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    notify('success', MSG.copied, 'Success!');
  };
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = useCopy();
  return (
    <IconButton size="small" aria-label={label} onClick={() => copy(text)}>
      <ContentCopyIcon fontSize="inherit" />
    </IconButton>
  );
}
