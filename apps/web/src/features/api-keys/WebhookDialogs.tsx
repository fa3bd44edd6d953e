import {
  createWebhookEndpointRequest,
  WEBHOOK_EVENTS,
  type WebhookAttemptRow,
  type WebhookEndpointRow,
  type WebhookEvent,
} from '@obol/contract';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ListTable, type Column, type RowAction } from '../../ui/ListTable.tsx';
import { OneLine } from '../../ui/OneLine.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { pageCount } from '../../lib/paging.ts';
import { createWebhookEndpoint, resendWebhook, webhookDeliveriesQuery } from './api/webhooks.ts';
import { FormActions } from '../../ui/FormActions.tsx';

/** A signing secret, shown this once with its copy button and how to check a signature. */
export function SecretOnce({
  url,
  secret,
  rotated,
  onDone,
}: {
  url: string;
  secret: string;
  rotated: boolean;
  onDone: () => void;
}) {
  return (
    <Alert
      severity="warning"
      sx={{ mx: 2, mb: 2, '& .MuiAlert-message': { minWidth: 0 } }}
      action={
        <Button color="inherit" size="small" onClick={onDone}>
          Done
        </Button>
      }
    >
      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {rotated ? 'New signing secret' : 'Signing secret'} of {url}
      </Typography>
      <Typography variant="body2">
        Copy it now: it is not shown again.{' '}
        {rotated ? 'The previous secret keeps signing beside it for 24 hours.' : null}
      </Typography>
      <Typography
        component="div"
        variant="body2"
        sx={{ fontFamily: 'monospace', display: 'flex', alignItems: 'center', overflowWrap: 'anywhere', my: 0.5 }}
      >
        {secret}
        <CopyButton text={secret} label="Copy the signing secret" />
      </Typography>
      <Typography variant="caption" component="p">
        Each delivery carries Obol-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256 of &quot;t.body&quot; with
        this secret&gt;. Check it in constant time and ignore a repeated Obol-Event-Id.
      </Typography>
    </Alert>
  );
}

const EVENT_LABELS: Record<WebhookEvent, string> = {
  'payin.completed': 'Pay-in completed',
  'payin.failed': 'Pay-in failed',
  'refund.completed': 'Refund completed',
  'refund.failed': 'Refund failed',
  'payout.completed': 'Payout completed',
  'payout.failed': 'Payout failed',
  'batch.completed': 'Batch completed',
  'transfer.completed': 'Transfer completed',
  'transfer.failed': 'Transfer failed',
};

/** Add endpoint: its URL and the events it hears (all by default); answers the secret to show once. */
export function AddEndpointDialog({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (url: string, secret: string) => void | Promise<void>;
}) {
  const id = useId();
  const { notify } = useNotify();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const parsed = createWebhookEndpointRequest.safeParse({ url, events });
    if (!parsed.success) {
      const first = (field: string) => parsed.error.issues.find((i) => i.path[0] === field)?.message;
      return setErrors({ url: first('url'), events: first('events') });
    }
    setBusy(true);
    try {
      const r = await createWebhookEndpoint(parsed.data);
      await onAdded(r.endpoint.url, r.secret);
    } catch (err) {
      const fieldError = err instanceof ApiError ? (err.fieldError('url') ?? err.body?.error?.[0]) : undefined;
      if (fieldError) setErrors({ url: fieldError });
      else notify('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (e: WebhookEvent) =>
    setEvents((all) =>
      all.includes(e) ? all.filter((x) => x !== e) : WEBHOOK_EVENTS.filter((x) => x === e || all.includes(x)),
    );
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={`${id}-title`}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>Add webhook endpoint</DialogTitle>
        <DialogContent>
          <TextField
            label="Endpoint URL"
            placeholder="https://shop.example/obol/webhooks"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setErrors((x) => ({ ...x, url: undefined }));
            }}
            error={!!errors.url}
            helperText={errors.url ?? 'Public https address of your receiver'}
            required
            fullWidth
            autoFocus
            margin="dense"
          />
          <FormControl component="fieldset" error={!!errors.events} sx={{ mt: 2 }}>
            <FormLabel component="legend">Events</FormLabel>
            <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              {WEBHOOK_EVENTS.map((e) => (
                <FormControlLabel
                  key={e}
                  control={<Checkbox size="small" checked={events.includes(e)} onChange={() => toggle(e)} />}
                  label={EVENT_LABELS[e]}
                />
              ))}
            </FormGroup>
            {errors.events ? <FormHelperText>{errors.events}</FormHelperText> : null}
          </FormControl>
        </DialogContent>
        <FormActions onCancel={onClose} busy={busy} submit="Add endpoint" />
      </form>
    </Dialog>
  );
}

const PER_PAGE = 10;

/** The delivery log of one endpoint: every attempt with the receiver's answer, newest first; resend any. */
export function DeliveriesDialog({ endpoint, onClose }: { endpoint: WebhookEndpointRow; onClose: () => void }) {
  const id = useId();
  const { notify } = useNotify();
  const [page, setPage] = useState(1);
  const q = useQuery({
    ...webhookDeliveriesQuery({ endpoint_id: endpoint.id, per_page: PER_PAGE, page }),
    placeholderData: keepPreviousData,
  });
  const columns: Column<WebhookAttemptRow>[] = [
    { id: 'at', label: 'Time', pinned: true, nowrap: true, card: 'title', cell: (a) => localDateTime(a.at) },
    { id: 'event', label: 'Event', nowrap: true, cell: (a) => a.event },
    { id: 'object', label: 'Object', nowrap: true, cell: (a) => a.object_id },
    { id: 'attempt', label: 'Attempt', nowrap: true, cell: (a) => a.attempt },
    {
      id: 'answer',
      label: 'Answer',
      cell: (a) => (
        <OneLine text={a.response_status ? `${a.response_status} ${a.response}`.trim() : a.response || '-'} />
      ),
    },
    {
      id: 'status',
      label: 'Delivery',
      pinned: true,
      card: 'status',
      nowrap: true,
      cell: (a) => <StatusChip status={a.delivery_status} />,
    },
  ];
  const action: RowAction<WebhookAttemptRow> = {
    label: 'Action',
    cell: (a) => (
      <Button
        size="small"
        aria-label={`Resend ${a.event} ${a.event_id}`}
        onClick={async () => {
          try {
            notify('success', (await resendWebhook(a.delivery_id)).message[0]);
            setTimeout(() => void q.refetch(), 1500);
          } catch (err) {
            notify('error', errorMessage(err));
          }
        }}
      >
        Resend
      </Button>
    ),
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`} sx={{ overflowWrap: 'anywhere' }}>
        Deliveries to {endpoint.url}
      </DialogTitle>
      <DialogContent sx={{ px: { xs: 1, sm: 3 } }}>
        <ListTable
          id="webhook-deliveries"
          label={`Deliveries to ${endpoint.url}`}
          columns={columns}
          action={action}
          rows={q.data?.data ?? []}
          rowKey={(a) => `${a.delivery_id}-${a.attempt}`}
          loading={q.isLoading}
          empty={{ text: 'Nothing sent yet: deliveries appear here as your money moves.' }}
        />
        <Pager page={page} pages={pageCount(q.data?.total, PER_PAGE)} onPage={setPage} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void q.refetch()}>Refresh</Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
