import { MSG, email as emailSchema, type ApiKeyHolderRow, type ApiKeyResponse } from '@obol/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import ShareIcon from '@mui/icons-material/ForwardToInboxOutlined';
import BrandsIcon from '@mui/icons-material/StorefrontOutlined';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { pageCount, useClampPage, usePaging } from '../../lib/paging.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { useUrlSearch } from '../../lib/useUrlSearch.ts';
import { ActionIcon } from '../../ui/ActionIcon.tsx';
import { CopyButton, useCopy } from '../../ui/CopyButton.tsx';
import { ListTable, type Column, type RowAction } from '../../ui/ListTable.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { PasswordDialog } from '../../ui/PasswordDialog.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { apiKeyBrandsQuery, apiKeysQuery, emailKeys, revealKeys, rotateKeys } from './api/apiKeys.ts';

const PER_PAGE = 10;

/** A key and its copy button; copying a key not decrypted yet says 'Decrypt Keys first.'. */
function KeyLine({ label, value, shown }: { label: string; value: string | undefined; shown: string }) {
  const copy = useCopy();
  const { notify } = useNotify();
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 0 }}>
        {shown}
      </Typography>
      <IconButton
        size="small"
        aria-label={`Copy the ${label}`}
        onClick={() => (value ? void copy(value) : notify('error', MSG.decryptKeysFirst))}
      >
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Stack>
  );
}

/** Share keys: the address (required, valid); the public keys and account references go there. */
function ShareDialog({ holder, onClose }: { holder: ApiKeyHolderRow; onClose: () => void }) {
  const id = useId();
  const { notify } = useNotify();
  const [to, setTo] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!to.trim()) return setError(MSG.required);
    if (!emailSchema.safeParse(to).success) return setError(MSG.emailInvalid);
    setBusy(true);
    try {
      const r = await emailKeys({ id: holder.id, email: to.trim() });
      notify('success', r.message[0]);
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.fieldError('email') : undefined);
      notify('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={`${id}-title`}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>Share keys of {holder.name}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            The public keys and account references of {holder.name} and its brands are mailed. Private keys never leave
            by e-mail: the merchant decrypts them here with its password.
          </Typography>
          <TextField
            label="Email"
            type="email"
            value={to}
            onChange={(e) => {
              setTo(e.target.value);
              setError(undefined);
            }}
            error={!!error}
            helperText={error}
            required
            fullWidth
            autoFocus
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Share
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** A merchant's brands and their keys: masked, or in plain text once the merchant decrypted its keys. */
function BrandKeysDialog({
  holder,
  revealed,
  onClose,
}: {
  holder: ApiKeyHolderRow;
  revealed: ApiKeyResponse | null;
  onClose: () => void;
}) {
  const id = useId();
  const q = useQuery(apiKeyBrandsQuery(holder.id));
  const plain = new Map((revealed?.brands ?? []).map((b) => [b.id, b]));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>Brands of {holder.name}</DialogTitle>
      <DialogContent>
        {q.isSuccess && q.data.data.length === 0 ? (
          <Typography color="text.secondary">{MSG.noRecord}</Typography>
        ) : null}
        <List disablePadding aria-label={`Brand keys of ${holder.name}`}>
          {(q.data?.data ?? []).map((b) => {
            const keys = plain.get(b.id);
            return (
              <ListItem key={b.id} divider sx={{ display: 'block', px: 0 }}>
                <Typography variant="subtitle2">{b.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {b.account_reference} · {b.email}
                </Typography>
                <KeyLine
                  label={`public key of ${b.name}`}
                  value={keys?.public_key}
                  shown={keys?.public_key ?? b.public_key_masked ?? '-'}
                />
                <KeyLine
                  label={`private key of ${b.name}`}
                  value={keys?.private_key}
                  shown={keys?.private_key ?? '••••••••••••••••'}
                />
              </ListItem>
            );
          })}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * API Keys: the merchants in scope (staff every merchant, a merchant itself) with account reference and masked
 * public key, 10 a page, searched by name. A merchant decrypts its own keys (and its brands') with its password,
 * copies them once decrypted, and rotates them; anyone here may share the public keys by e-mail.
 */
export function ApiKeysPage() {
  const session = useSession();
  const me = session?.user;
  const holder = me?.role === 'Merchant' || me?.role === 'Brand';
  const { notify } = useNotify();
  const url = useUrlParams();
  const paging = usePaging(PER_PAGE, [PER_PAGE], url);
  const { text, setText, search } = useUrlSearch(url);
  const q = useQuery({
    ...apiKeysQuery({ per_page: PER_PAGE, page: paging.page, name: search }),
    placeholderData: keepPreviousData,
  });
  const total = q.data?.total;
  useClampPage(paging, total, !!q.data && !q.isPlaceholderData);
  const [revealed, setRevealed] = useState<ApiKeyResponse | null>(null);
  const [asking, setAsking] = useState<'reveal' | 'rotate' | null>(null);
  const [rotatedUntil, setRotatedUntil] = useState<string | null>(null);
  const [sharing, setSharing] = useState<ApiKeyHolderRow | null>(null);
  const [brandsOf, setBrandsOf] = useState<ApiKeyHolderRow | null>(null);
  const own = (h: ApiKeyHolderRow) => h.id === me?.id;

  const columns: Column<ApiKeyHolderRow>[] = [
    { id: 'name', label: 'Merchant Name', pinned: true, card: 'title', cell: (h) => h.name },
    {
      id: 'account_reference',
      label: 'Account Reference',
      nowrap: true,
      cell: (h) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <span>{h.account_reference}</span>
          <CopyButton text={h.account_reference} label={`Copy the account reference of ${h.name}`} />
        </Stack>
      ),
    },
    { id: 'email', label: 'Email', cell: (h) => h.email, cellSx: { overflowWrap: 'anywhere', minWidth: 160 } },
    {
      id: 'public_key',
      label: 'Public Key',
      pinned: true,
      cell: (h) => {
        const plain = own(h) ? revealed?.public_key : undefined;
        return <KeyLine label={`public key of ${h.name}`} value={plain} shown={plain ?? h.public_key_masked ?? '-'} />;
      },
    },
    { id: 'issued', label: 'Issued', nowrap: true, hidden: true, cell: (h) => localDateTime(h.key_created_at) },
  ];

  const action: RowAction<ApiKeyHolderRow> = {
    label: 'Action',
    cell: (h) => (
      <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'nowrap' }}>
        <ActionIcon title="View brand keys" label={`View brand keys of ${h.name}`} onClick={() => setBrandsOf(h)}>
          <BrandsIcon fontSize="small" />
        </ActionIcon>
        <ActionIcon title="Share" label={`Share keys of ${h.name}`} onClick={() => setSharing(h)}>
          <ShareIcon fontSize="small" />
        </ActionIcon>
        <ActionIcon
          title={own(h) ? 'Decrypt keys' : 'Only the merchant decrypts its keys'}
          label={`Decrypt keys of ${h.name}`}
          disabled={!own(h) || !!revealed}
          onClick={() => setAsking('reveal')}
        >
          <KeyIcon fontSize="small" />
        </ActionIcon>
      </Stack>
    ),
  };

  return (
    <>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <PageTitle>API Keys</PageTitle>
        {holder ? (
          <Button
            variant="outlined"
            startIcon={<AutorenewIcon />}
            onClick={() => setAsking('rotate')}
            sx={{ ml: 'auto' }}
          >
            Rotate keys
          </Button>
        ) : null}
      </Stack>
      {rotatedUntil ? (
        <Alert severity="info" sx={{ mb: 2 }} onClose={() => setRotatedUntil(null)}>
          New keys are in use. The previous public key keeps working until {localDateTime(rotatedUntil)}: switch your
          integration before then.
        </Alert>
      ) : null}
      {revealed ? (
        <Paper sx={{ p: 2, mb: 2 }} aria-label="Decrypted keys">
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
            <Typography component="h2" variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
              Your keys
            </Typography>
            <Button onClick={() => setRevealed(null)}>Hide keys</Button>
          </Stack>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' }, columnGap: 2, rowGap: 0.5 }}>
            <Typography variant="body2" color="text.secondary">
              Public key
            </Typography>
            <KeyLine label="public key" value={revealed.public_key} shown={revealed.public_key} />
            <Typography variant="body2" color="text.secondary">
              Private key
            </Typography>
            <KeyLine label="private key" value={revealed.private_key} shown={revealed.private_key} />
          </Box>
          {revealed.brands?.length ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Your brands&apos; keys are shown under View brand keys.
            </Typography>
          ) : null}
        </Paper>
      ) : null}
      <Paper>
        <ListTable
          id="api-keys"
          label="API keys"
          columns={columns}
          action={action}
          rows={q.data?.data ?? []}
          rowKey={(h) => h.id}
          toolbar={<SearchField value={text} onChange={setText} helperText="Merchant name contains" />}
          loading={q.isLoading}
        />
        <Pager page={paging.page} pages={pageCount(total, PER_PAGE)} onPage={paging.setPage} />
      </Paper>
      {me ? (
        <PasswordDialog
          open={asking !== null}
          title={asking === 'rotate' ? 'Rotate API keys' : 'Decrypt API keys'}
          text={
            asking === 'rotate'
              ? 'Enter your password to issue a new key pair. The current key keeps working for 24 hours, then stops.'
              : 'Enter your password to see your public and private keys. Every reveal is recorded in the activity log.'
          }
          confirmLabel={asking === 'rotate' ? 'Rotate' : 'Decrypt'}
          requiredMessage={MSG.requiredShort}
          onCancel={() => setAsking(null)}
          onConfirm={async (password) => {
            if (asking === 'rotate') {
              const r = await rotateKeys({ current_password: password });
              setRotatedUntil(r.previous_valid_until);
              // the new pair, to copy into the integration now (brands keep their own keys)
              setRevealed({
                user_verified: 1,
                public_key: r.public_key,
                private_key: r.private_key,
                account_reference: null,
                message: r.message,
              });
              notify('success', 'New API keys issued.');
              await q.refetch();
            } else {
              setRevealed(await revealKeys({ current_password: password, email: me.email }));
            }
            setAsking(null);
          }}
        />
      ) : null}
      {sharing ? <ShareDialog holder={sharing} onClose={() => setSharing(null)} /> : null}
      {brandsOf ? (
        <BrandKeysDialog
          holder={brandsOf}
          revealed={own(brandsOf) ? revealed : null}
          onClose={() => setBrandsOf(null)}
        />
      ) : null}
    </>
  );
}
