import { MAX_BRANDS_PER_REQUEST, MERCHANT_MSG, createBrandsRequest, type HolderRow } from '@obol/contract';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Stack,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { useCreateHolder } from './api/merchants.ts';
import { issuesByField } from './MerchantDialog.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';

type BrandField = 'name' | 'email' | 'obol_id' | 'mId';
type Draft = Record<BrandField, string> & { key: number };
const LABELS: Record<BrandField, string> = { name: 'Brand name', email: 'Email', obol_id: 'Obol Id', mId: 'MID' };

let nextKey = 1;
const blank = (): Draft => ({ key: nextKey++, name: '', email: '', obol_id: '', mId: '' });

/**
 * Add brands to a verified merchant: one row per brand (name 4 to 20 characters, e-mail, payout wallet, MID), up to
 * ten at a time, created all or none; each brand gets the merchant's fee and an invitation mail.
 */
export function AddBrandsDialog({ merchant, onClose }: { merchant: HolderRow; onClose: () => void }) {
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const { notify } = useNotify();
  const create = useCreateHolder();
  const [rows, setRows] = useState<Draft[]>(() => [blank()]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const input = () => ({
    rolename: 'Brand' as const,
    parent_id: merchant.id,
    brands: rows.map(({ name, email, obol_id, mId }) => ({ name, email, obol_id, mId })),
  });

  const edit = (i: number, k: BrandField, value: string) => {
    setRows((old) => old.map((r, j) => (j === i ? { ...r, [k]: value } : r)));
    setErrors((old) => ({ ...old, [`brands.${i}.${k}`]: '' }));
  };

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const body = input();
    const parsed = createBrandsRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(issuesByField(parsed.error));
      return;
    }
    try {
      const r = await create.mutateAsync(body);
      notify('success', r.message[0] ?? MERCHANT_MSG.brandsCreated);
      if (r.message[1]) notify('warning', r.message[1]);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.body?.fields)
        setErrors(Object.fromEntries(Object.entries(err.body.fields).map(([k, m]) => [k, m[0]])));
      notify('error', errorMessage(err));
    }
  };

  return (
    <FormDialog
      title={<>Add brands to {merchant.name}</>}
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      submit="Create brands"
      maxWidth="md"
    >
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        Each brand gets its own sign-in (an invitation is mailed), payout, pay-in and CLP accounts, API keys and the
        merchant&apos;s fee of {merchant.fee ?? 0} %.
      </Typography>
      {errors.brands ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errors.brands}
        </Alert>
      ) : null}
      <Stack spacing={2}>
        {rows.map((r, i) => (
          <Box
            key={r.key}
            role="group"
            aria-label={`Brand ${i + 1}`}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', md: '1.2fr 1.4fr 1fr 1fr auto' },
              gap: 1.5,
              alignItems: 'start',
              pb: phone ? 2 : 0,
              borderBottom: phone ? 1 : 0,
              borderColor: 'divider',
            }}
          >
            {(Object.keys(LABELS) as BrandField[]).map((k) => (
              <TextField
                key={k}
                label={LABELS[k]}
                value={r[k]}
                onChange={(e) => edit(i, k, e.target.value)}
                required
                size="small"
                type={k === 'email' ? 'email' : undefined}
                autoComplete="off"
                error={!!errors[`brands.${i}.${k}`]}
                helperText={errors[`brands.${i}.${k}`] || (k === 'name' ? '4 to 20 characters' : undefined)}
                slotProps={{ htmlInput: { 'aria-label': `${LABELS[k]} of brand ${i + 1}` } }}
              />
            ))}
            {phone ? (
              <Button
                startIcon={<RemoveIcon />}
                color="inherit"
                onClick={() => setRows((old) => old.filter((_, j) => j !== i))}
                aria-label={`Remove brand ${i + 1}`}
                sx={{ justifySelf: 'start' }}
              >
                Remove brand
              </Button>
            ) : (
              <Tooltip title="Remove this brand">
                <IconButton
                  aria-label={`Remove brand ${i + 1}`}
                  onClick={() => setRows((old) => old.filter((_, j) => j !== i))}
                  sx={{ justifySelf: 'start' }}
                >
                  <RemoveIcon />
                </IconButton>
              </Tooltip>
            )}
          </Box>
        ))}
      </Stack>
      <Button
        startIcon={<AddIcon />}
        onClick={() => setRows((old) => [...old, blank()])}
        disabled={rows.length >= MAX_BRANDS_PER_REQUEST}
        sx={{ mt: 2 }}
      >
        Add another brand
      </Button>
    </FormDialog>
  );
}
