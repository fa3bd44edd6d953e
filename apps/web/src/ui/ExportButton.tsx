import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button, CircularProgress, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { exportErrorMessage } from '../lib/api.ts';
import { useNotify } from './notifications.tsx';

export type ExportFormat = 'csv' | 'xlsx';

/**
 * Export: a menu of CSV or Excel. While the request runs and when there is nothing to export the button is
 * disabled; success shows the background-process notification with 'See Downloads'; a failure says why ('No record
 * found' when the filters match nothing, else 'Something went wrong').
 */
export function ExportButton({
  disabled,
  onExport,
  downloadType = 'transactions',
}: {
  disabled: boolean;
  onExport: (format: ExportFormat) => Promise<unknown>;
  downloadType?: string;
}) {
  const { notify, notifyDownload } = useNotify();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (format: ExportFormat) => {
    setAnchor(null);
    setBusy(true);
    try {
      await onExport(format);
      notifyDownload(downloadType);
    } catch (err) {
      notify('error', exportErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        variant="contained"
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <FileDownloadIcon />}
        disabled={disabled || busy}
        aria-haspopup="menu"
        aria-expanded={!!anchor}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        Export
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => run('csv')}>Export as CSV</MenuItem>
        <MenuItem onClick={() => run('xlsx')}>Export as Excel (XLSX)</MenuItem>
      </Menu>
    </>
  );
}
