import { MSG, type ApiKeyHolderRow, type ApiKeyResponse } from '@obol/contract';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import ShareIcon from '@mui/icons-material/ForwardToInboxOutlined';
import BrandsIcon from '@mui/icons-material/StorefrontOutlined';
import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { localDateTime } from '../../lib/format.ts';
import { useSearchedList } from '../../lib/useSearchedList.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import type { Column, RowAction } from '../../ui/ListTable.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { PasswordDialog } from '../../ui/PasswordDialog.tsx';
import { RowActions } from '../../ui/RowActions.tsx';
import { SearchedTable } from '../../ui/SearchedTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { apiKeysQuery, revealKeys, rotateKeys } from './api/apiKeys.ts';
import { BrandKeysDialog } from './BrandKeysDialog.tsx';
import { DecryptedKeys } from './DecryptedKeys.tsx';
import { KeyLine } from './KeyLine.tsx';
import { ShareDialog } from './ShareDialog.tsx';
import { WebhooksPanel } from './WebhooksPanel.tsx';
import { OneLine } from '../../ui/OneLine.tsx';

const PER_PAGE = 10;

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
  const list = useSearchedList(
    url,
    PER_PAGE,
    'Merchant name contains',
    (page, search) => apiKeysQuery({ per_page: PER_PAGE, page, name: search }),
    (a) => a,
  );
  const { q } = list;
  const [revealed, setRevealed] = useState<ApiKeyResponse | null>(null);
  const [asking, setAsking] = useState<'reveal' | 'rotate' | null>(null);
  const [rotatedUntil, setRotatedUntil] = useState<string | null>(null);
  const [sharing, setSharing] = useState<ApiKeyHolderRow | null>(null);
  const [brandsOf, setBrandsOf] = useState<ApiKeyHolderRow | null>(null);
  const own = (h: ApiKeyHolderRow) => h.id === me?.id;

  const columns: Column<ApiKeyHolderRow>[] = [
    { id: 'name', label: 'Merchant Name', width: 160, pinned: true, card: 'title', cell: (h) => h.name },
    {
      id: 'account_reference',
      label: 'Account Reference',
      width: 180,
      nowrap: true,
      cell: (h) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <span>{h.account_reference}</span>
          <CopyButton text={h.account_reference} label={`Copy the account reference of ${h.name}`} />
        </Stack>
      ),
    },
    { id: 'email', label: 'Email', width: 220, cell: (h) => <OneLine text={h.email} /> },
    {
      id: 'public_key',
      label: 'Public Key',
      width: 170,
      pinned: true,
      nowrap: true,
      cell: (h) => {
        const plain = own(h) ? revealed?.public_key : undefined;
        return <KeyLine label={`public key of ${h.name}`} value={plain} shown={plain ?? h.public_key_masked ?? '-'} />;
      },
    },
    {
      id: 'issued',
      label: 'Issued',
      width: 180,
      nowrap: true,
      hidden: true,
      cell: (h) => localDateTime(h.key_created_at),
    },
  ];

  const action: RowAction<ApiKeyHolderRow> = {
    label: 'Action',
    // the labelled Actions menu
    width: 110,
    cell: (h) => (
      <RowActions
        name={h.name}
        items={[
          {
            text: 'Brand keys',
            label: `View brand keys of ${h.name}`,
            icon: <BrandsIcon fontSize="small" />,
            onClick: () => setBrandsOf(h),
          },
          {
            text: 'Share',
            label: `Share keys of ${h.name}`,
            icon: <ShareIcon fontSize="small" />,
            onClick: () => setSharing(h),
          },
          {
            text: 'Decrypt keys',
            label: `Decrypt keys of ${h.name}`,
            icon: <KeyIcon fontSize="small" />,
            disabledReason: !own(h)
              ? 'Only the merchant decrypts its own keys'
              : revealed
                ? 'The keys are already decrypted'
                : null,
            onClick: () => setAsking('reveal'),
          },
        ]}
      />
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
      {revealed ? <DecryptedKeys revealed={revealed} onHide={() => setRevealed(null)} /> : null}
      <SearchedTable id="api-keys" label="API keys" columns={columns} action={action} list={list} />
      {holder ? <WebhooksPanel /> : null}
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
