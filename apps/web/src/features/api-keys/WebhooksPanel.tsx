import { WEBHOOK_EVENTS, type WebhookEndpointRow } from '@obol/contract';
import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ListTable, type Column, type RowAction } from '../../ui/ListTable.tsx';
import { OneLine } from '../../ui/OneLine.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { deleteWebhookEndpoint, rotateWebhookSecret, webhookEndpointsQuery } from './api/webhooks.ts';
import { AddEndpointDialog, DeliveriesDialog, SecretOnce } from './WebhookDialogs.tsx';

/**
 * Webhooks, under a merchant's or brand's API keys: the endpoints that hear about its money (issue 49), each with its
 * events and state; add one (its signing secret shown once), rotate its secret, read its delivery log and resend,
 * remove it.
 */
export function WebhooksPanel() {
  const { notify } = useNotify();
  const q = useQuery(webhookEndpointsQuery());
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string; rotated: boolean } | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpointRow | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpointRow | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpointRow | null>(null);

  const columns: Column<WebhookEndpointRow>[] = [
    { id: 'url', label: 'URL', width: 220, pinned: true, card: 'title', cell: (e) => <OneLine text={e.url} /> },
    {
      id: 'events',
      label: 'Events',
      width: 170,
      // all nine read as one phrase; a choice on one line, whole on hover
      cell: (e) => (e.events.length === WEBHOOK_EVENTS.length ? 'All events' : <OneLine text={e.events.join(', ')} />),
    },
    {
      id: 'status',
      label: 'Status',
      width: 130,
      pinned: true,
      card: 'status',
      nowrap: true,
      cell: (e) => <StatusChip status={e.status === 'Enabled' && e.failing_since ? 'Failing' : e.status} />,
    },
    {
      id: 'failing_since',
      label: 'Failing Since',
      width: 180,
      nowrap: true,
      cell: (e) => (e.failing_since ? localDateTime(e.failing_since) : '-'),
    },
    { id: 'created_at', label: 'Added', width: 180, nowrap: true, cell: (e) => localDateTime(e.created_at) },
  ];
  const action: RowAction<WebhookEndpointRow> = {
    label: 'Action',
    cell: (e) => (
      <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'nowrap' }}>
        <Button size="small" onClick={() => setLogOf(e)} aria-label={`Deliveries to ${e.url}`}>
          Deliveries
        </Button>
        <Button size="small" onClick={() => setRotating(e)} aria-label={`Rotate secret of ${e.url}`}>
          Rotate secret
        </Button>
        <Button size="small" color="error" onClick={() => setRemoving(e)} aria-label={`Remove ${e.url}`}>
          Remove
        </Button>
      </Stack>
    ),
  };

  return (
    <Paper component="section" aria-labelledby="webhooks-title" sx={{ mt: 3 }}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', p: 2, pb: 1 }}>
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <Typography id="webhooks-title" component="h2" variant="h6">
            Webhooks
          </Typography>
          <Typography variant="body2" color="textSecondary">
            Your system hears when a pay-in, refund, payout, batch or transfer completes or fails: a signed POST to each
            endpoint, retried for three days.
          </Typography>
        </Box>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          Add endpoint
        </Button>
      </Stack>
      {secret ? <SecretOnce {...secret} onDone={() => setSecret(null)} /> : null}
      {q.isError ? (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {errorMessage(q.error)}
        </Alert>
      ) : null}
      <ListTable
        id="webhook-endpoints"
        label="Webhook endpoints"
        columns={columns}
        action={action}
        rows={q.data?.data ?? []}
        rowKey={(e) => e.id}
        loading={q.isLoading}
        empty={{
          text: 'No endpoints yet. Add one to hear about your money as it moves.',
          create: [{ label: 'Add endpoint', onClick: () => setAdding(true) }],
        }}
      />
      {adding ? (
        <AddEndpointDialog
          onClose={() => setAdding(false)}
          onAdded={async (url, s) => {
            setAdding(false);
            setSecret({ url, secret: s, rotated: false });
            await q.refetch();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={!!rotating}
        title="Rotate the signing secret?"
        text={`A new secret signs what goes to ${rotating?.url ?? ''}. The current one keeps signing beside it for 24 hours, so your receiver can switch without missing a delivery.`}
        confirmLabel="Rotate secret"
        onCancel={() => setRotating(null)}
        onConfirm={async () => {
          if (!rotating) return;
          try {
            const r = await rotateWebhookSecret(rotating.id);
            setSecret({ url: r.endpoint.url, secret: r.secret, rotated: true });
            await q.refetch();
          } catch (err) {
            notify('error', errorMessage(err));
          }
          setRotating(null);
        }}
      />
      <ConfirmDialog
        open={!!removing}
        title="Remove this endpoint?"
        text={`Nothing more is sent to ${removing?.url ?? ''}, retries included.`}
        confirmLabel="Remove endpoint"
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          try {
            const r = await deleteWebhookEndpoint(removing.id);
            notify('success', r.message[0]);
            await q.refetch();
          } catch (err) {
            notify('error', errorMessage(err));
          }
          setRemoving(null);
        }}
      />
      {logOf ? <DeliveriesDialog endpoint={logOf} onClose={() => setLogOf(null)} /> : null}
    </Paper>
  );
}
