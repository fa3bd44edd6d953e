import CloseIcon from '@mui/icons-material/Close';
import { Alert, Button, IconButton, Snackbar, type AlertColor } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage, fieldErrors } from '../lib/api.ts';

export const SNACKBAR_MS = 2500;
/** The shell's header height; toasts open just below it, so they never cover its buttons. */
export const HEADER_HEIGHT = 56;
export const TOAST_TOP = HEADER_HEIGHT + 8;

/** error, success and info as they are; any other type shows as a warning */
export function severityOf(type: string): AlertColor {
  return type === 'error' || type === 'success' || type === 'info' ? type : 'warning';
}
/** taller when the text is long */
export const snackbarHeight = (text: string) => (text.length > 65 ? 88 : 68);

export function downloadsPath(type: string) {
  if (type === 'transactions') return '/download-transactions';
  if (type === 'accounting-transactions') return '/download-accounting-transactions';
  return '/download-reports';
}

interface Notify {
  notify(type: string, text: string, title?: string): void;
  notifyDownload(type: string, text?: string): void;
}
const Ctx = createContext<Notify>({ notify: () => undefined, notifyDownload: () => undefined });
export const useNotify = () => useContext(Ctx);

/** Runs a row action's call and toasts how it went: `success` once done, else the server's message. */
export function useNotifiedRun() {
  const { notify } = useNotify();
  return async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notify('success', success);
    } catch (err) {
      notify('error', errorMessage(err));
    }
  };
}

/**
 * A form dialog's call: done, the server's message is a toast and the dialog closes; refused, the server's word on
 * each field goes under it (`setFieldErrors`) and its message is a toast.
 */
export function useFormCall(onClose: () => void, setFieldErrors: (errors: Record<string, string>) => void) {
  const { notify } = useNotify();
  return async (call: () => Promise<{ message: string[] }>) => {
    try {
      const r = await call();
      notify('success', r.message[0]);
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields) setFieldErrors(fields);
      notify('error', errorMessage(err));
    }
  };
}

interface Toast {
  key: number;
  type: string;
  text: string;
  title?: string;
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const [download, setDownload] = useState<{ type: string; text: string } | null>(null);
  const navigate = useNavigate();
  const notify = useCallback(
    (type: string, text: string, title?: string) => setToast({ key: Date.now(), type, text, title }),
    [],
  );
  const notifyDownload = useCallback(
    (type: string, text = 'Process is running in the background. Please wait.') => setDownload({ type, text }),
    [],
  );
  const value = useMemo(() => ({ notify, notifyDownload }), [notify, notifyDownload]);
  return (
    <Ctx.Provider value={value}>
      {children}
      <Snackbar
        key={toast?.key}
        open={!!toast}
        autoHideDuration={SNACKBAR_MS}
        onClose={(_, reason) => reason !== 'clickaway' && setToast(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        // '&&' outranks the Snackbar's own top at every width (it sets one per breakpoint)
        sx={{ '&&': { top: TOAST_TOP } }}
      >
        {toast ? (
          <Alert
            role="alert"
            severity={severityOf(toast.type)}
            variant="filled"
            onClose={() => setToast(null)}
            sx={{ minHeight: snackbarHeight(toast.text), alignItems: 'center', maxWidth: 480 }}
          >
            {toast.title ? <strong>{toast.title} </strong> : null}
            {toast.text}
          </Alert>
        ) : undefined}
      </Snackbar>
      {/* the spec's download notification stays until it is closed (or its link followed), on any page */}
      <Snackbar open={!!download} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
        {download ? (
          <Alert
            role="status"
            severity="info"
            variant="filled"
            action={
              <>
                <Button
                  color="inherit"
                  size="small"
                  onClick={() => {
                    setDownload(null);
                    navigate(downloadsPath(download.type));
                  }}
                >
                  See Downloads
                </Button>
                <IconButton color="inherit" size="small" aria-label="Close" onClick={() => setDownload(null)}>
                  <CloseIcon fontSize="small" />
                </IconButton>
              </>
            }
          >
            {download.text}
          </Alert>
        ) : undefined}
      </Snackbar>
    </Ctx.Provider>
  );
}
