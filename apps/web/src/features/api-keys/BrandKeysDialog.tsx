import { MSG, type ApiKeyHolderRow, type ApiKeyResponse } from '@obol/contract';
import { List, ListItem, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { apiKeyBrandsQuery } from './api/apiKeys.ts';
import { KeyLine } from './KeyLine.tsx';
import { ReadDialog } from '../../ui/ReadDialog.tsx';

/** A merchant's brands and their keys: masked, or in plain text once the merchant decrypted its keys. */
export function BrandKeysDialog({
  holder,
  revealed,
  onClose,
}: {
  holder: ApiKeyHolderRow;
  revealed: ApiKeyResponse | null;
  onClose: () => void;
}) {
  const q = useQuery(apiKeyBrandsQuery(holder.id));
  const plain = new Map((revealed?.brands ?? []).map((b) => [b.id, b]));
  return (
    <ReadDialog title={<>Brands of {holder.name}</>} onClose={onClose}>
      {q.isSuccess && q.data.data.length === 0 ? <Typography color="textSecondary">{MSG.noRecord}</Typography> : null}
      <List disablePadding aria-label={`Brand keys of ${holder.name}`}>
        {(q.data?.data ?? []).map((b) => {
          const keys = plain.get(b.id);
          return (
            <ListItem key={b.id} divider sx={{ display: 'block', px: 0 }}>
              <Typography variant="subtitle2">{b.name}</Typography>
              <Typography variant="body2" color="textSecondary">
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
    </ReadDialog>
  );
}
