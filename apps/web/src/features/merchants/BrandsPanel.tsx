import { MSG, type HolderRow } from '@obol/contract';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/EditOutlined';
import ResendIcon from '@mui/icons-material/ForwardToInboxOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import PauseIcon from '@mui/icons-material/PauseCircleOutlined';
import PlayIcon from '@mui/icons-material/PlayCircleOutlined';
import {
  Box,
  Divider,
  Drawer,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { localDate } from '../../lib/format.ts';
import { useDebounced } from '../../lib/useDebounced.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { merchantBrandsQuery } from './api/merchants.ts';
import { MerchantDialog } from './MerchantDialog.tsx';
import { useHolderActions } from './useHolderActions.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { Facts } from '../../ui/Facts.tsx';
import { ReadDialog } from '../../ui/ReadDialog.tsx';

/** Why a brand's invitation or status cannot change (both follow its sign-up). */
const RESEND_DONE = 'The brand has already signed up';
const NOT_VERIFIED = 'The brand has not signed up yet';

/** The details of a merchant or brand, read-only. */
export function HolderDetailsDialog({ holder, onClose }: { holder: HolderRow; onClose: () => void }) {
  const lines: [string, string | number | null][] = [
    ['Email', holder.email],
    ['Account reference', holder.account_reference],
    ['Descriptor', holder.descriptor_name],
    ['Descriptor code', holder.descriptor_code],
    ['Obol Id', holder.obol_id],
    ['MID', holder.mid],
    ['Fee', holder.fee === null ? null : `${holder.fee} %`],
    ['Brand name', holder.brand_name],
    ['Registration number', holder.registration_number],
    ['Address', [holder.street, holder.zip_code, holder.city].filter(Boolean).join(', ') || null],
    ['Verified', holder.remember_token_status],
    ['Status', holder.is_active === '1' ? 'Active' : 'Inactive'],
    ['Created', localDate(holder.created_at)],
  ];
  return (
    <ReadDialog title={holder.name} onClose={onClose} maxWidth="xs">
      <Facts facts={lines.map(([label, value]) => [label, value ?? '-'] as const)} variant="body2" />
    </ReadDialog>
  );
}

/**
 * A merchant's brands in a right-side panel: a search by name (1 second after typing stops), and for each brand
 * resend mail, activate, deactivate, edit and details.
 */
export function BrandsPanel({ merchant, onClose }: { merchant: HolderRow | null; onClose: () => void }) {
  const titleId = useId();
  const [text, setText] = useState('');
  const name = useDebounced(text.trim(), 1000);
  const actions = useHolderActions();
  const [editing, setEditing] = useState<HolderRow | null>(null);
  const [details, setDetails] = useState<HolderRow | null>(null);
  const q = useQuery({
    ...merchantBrandsQuery(merchant?.id ?? 0, name),
    enabled: !!merchant,
    placeholderData: keepPreviousData,
  });
  const brands = q.data?.data ?? [];

  return (
    <Drawer
      anchor="right"
      open={!!merchant}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 440 } }, role: 'dialog', 'aria-labelledby': titleId } }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1.5 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={titleId} variant="h6" component="h2" noWrap>
            Brands of {merchant?.name}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {merchant?.total_brands ?? 0} in all
          </Typography>
        </Box>
        <IconButton aria-label="Close the brands panel" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Box sx={{ px: 2, pb: 1 }}>
        <TextField
          label="Search brands"
          value={text}
          onChange={(e) => setText(e.target.value)}
          size="small"
          fullWidth
          type="search"
        />
      </Box>
      {q.isFetching ? <LinearProgress aria-label="Loading brands" /> : <Box sx={{ height: 4 }} />}
      <Divider />
      {q.isSuccess && brands.length === 0 ? (
        <Typography sx={{ p: 3, textAlign: 'center' }} color="textSecondary">
          {MSG.noRecord}
        </Typography>
      ) : null}
      <List disablePadding aria-label={`Brands of ${merchant?.name ?? ''}`}>
        {brands.map((b) => {
          const verified = b.remember_token_status === 'Verified';
          const active = b.is_active === '1';
          return (
            <ListItem key={b.id} divider sx={{ display: 'block', py: 1.5 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="subtitle2" noWrap>
                    {b.name}
                  </Typography>
                  <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
                    {b.email}
                  </Typography>
                </Box>
                <StatusChip status={active ? 'Active' : 'Inactive'} />
              </Stack>
              <Typography variant="caption" color="textSecondary" component="p">
                {b.account_reference} · {verified ? 'Verified' : 'Not verified'}
              </Typography>
              {/* labelled actions wrap onto a second line in the narrow panel */}
              <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5, ml: -1 }}>
                <ActionButton
                  text="Details"
                  label={`Details of ${b.name}`}
                  icon={<InfoIcon fontSize="small" />}
                  onClick={() => setDetails(b)}
                />
                {actions.canManage ? (
                  <>
                    <ActionButton
                      text="Resend mail"
                      label={`Resend mail to ${b.name}`}
                      icon={<ResendIcon fontSize="small" />}
                      disabledReason={b.resend_mail !== 1 ? RESEND_DONE : null}
                      onClick={() => actions.resendMail(b)}
                    />
                    <ActionButton
                      text="Activate"
                      label={`Activate ${b.name}`}
                      icon={<PlayIcon fontSize="small" />}
                      disabledReason={!verified ? NOT_VERIFIED : active ? 'The brand is already active' : null}
                      onClick={() => actions.setActive(b, true)}
                    />
                    <ActionButton
                      text="Deactivate"
                      label={`Deactivate ${b.name}`}
                      icon={<PauseIcon fontSize="small" />}
                      danger
                      disabledReason={!verified ? NOT_VERIFIED : !active ? 'The brand is already inactive' : null}
                      onClick={() => actions.setActive(b, false)}
                    />
                    <ActionButton
                      text="Edit"
                      label={`Edit ${b.name}`}
                      icon={<EditIcon fontSize="small" />}
                      onClick={() => setEditing(b)}
                    />
                  </>
                ) : null}
              </Stack>
            </ListItem>
          );
        })}
      </List>
      {actions.dialog}
      {editing ? <MerchantDialog holder={editing} onClose={() => setEditing(null)} /> : null}
      {details ? <HolderDetailsDialog holder={details} onClose={() => setDetails(null)} /> : null}
    </Drawer>
  );
}
