import { ACCOUNTING_MSG, MSG, type CompanyRow } from '@obol/contract';
import AddBusinessIcon from '@mui/icons-material/AddBusinessOutlined';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import FactCheckIcon from '@mui/icons-material/FactCheckOutlined';
import RuleIcon from '@mui/icons-material/RuleOutlined';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOffOutlined';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { useSearchedList } from '../../lib/useSearchedList.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { ApprovalThreshold } from '../../ui/ApprovalThreshold.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useCopy } from '../../ui/CopyButton.tsx';
import { ActiveCounters } from '../../ui/Counter.tsx';
import type { Column, RowAction } from '../../ui/ListTable.tsx';
import { TitleBar } from '../../ui/ListHeader.tsx';
import { SearchedTable } from '../../ui/SearchedTable.tsx';
import { PasswordDialog } from '../../ui/PasswordDialog.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { companiesQuery, revealCompanyKey, useUpdateCompanyStatus } from './api/companies.ts';
import { CompanyDialog } from './CompanyDialog.tsx';
import { activeChip, question } from './labels.tsx';
import { useTarget } from './useTarget.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';

const PER_PAGE = 10;

/**
 * Companies (2D): counters, a search by name or e-mail, 10 a page, all in the URL. A company's API key shows as
 * asterisks until the caller's password reveals it for that row; copying it before is refused. With 'User can
 * register companies': Add New Company and the activate/deactivate switch, each confirmed.
 */
export function CompaniesPage() {
  const session = useSession();
  const canRegister = hasPermission(session, 'User can register companies');
  const { notify } = useNotify();
  const copy = useCopy();
  const navigate = useNavigate();
  const status = useUpdateCompanyStatus();
  const [creating, setCreating] = useState(false);
  // the four-eyes threshold of a company is the Admin's (issue 50)
  const isAdmin = session?.user.role === 'Admin';
  const [threshold, setThreshold] = useState<CompanyRow | null>(null);
  const revealing = useTarget<CompanyRow>();
  const [keys, setKeys] = useState<Record<number, string>>({});
  const switching = useTarget<CompanyRow>();
  const url = useUrlParams();
  const list = useSearchedList(
    url,
    PER_PAGE,
    'Name or email contains',
    (page, search) => companiesQuery({ per_page: PER_PAGE, page, search }),
    (a) => ({
      data: a.companies,
      total: a.total,
    }),
  );
  const { q } = list;

  const hideKey = (c: CompanyRow) =>
    setKeys((old) => Object.fromEntries(Object.entries(old).filter(([k]) => Number(k) !== c.id)));
  const switched = switching.target;
  const activate = switched?.status !== 1;
  const confirmSwitch = async () => {
    if (!switched) return;
    try {
      const r = await status.mutateAsync({ id: switched.id, status: activate ? 1 : 0 });
      notify('success', r.message[0]);
    } catch (err) {
      notify('error', errorMessage(err));
    }
    switching.close();
  };

  const columns: Column<CompanyRow>[] = [
    { id: 'name', label: 'Company Name', pinned: true, card: 'title', width: 155, cell: (c) => c.name },
    {
      id: 'email',
      label: 'Company Email',
      pinned: true,
      width: 250,
      cell: (c) => <OneLine text={c.email} />,
    },
    {
      id: 'api_key',
      label: 'API Key',
      // masked until the password is given: the first to go when the columns do not fit (an admin's wider actions)
      priority: 3,
      width: 210,
      cell: (c) => {
        const plain = keys[c.id];
        return (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
            <Typography
              variant="body2"
              sx={{
                fontFamily: 'monospace',
                minWidth: 0,
                ...(plain ? { wordBreak: 'break-all' } : { whiteSpace: 'nowrap' }),
              }}
            >
              {plain ?? c.api_key}
            </Typography>
            {plain ? (
              <ActionButton
                text="Hide"
                label={`Hide the API key of ${c.name}`}
                icon={<VisibilityOffIcon fontSize="small" />}
                onClick={() => hideKey(c)}
              />
            ) : (
              <ActionButton
                text="Show"
                label={`Show the API key of ${c.name}`}
                icon={<VisibilityIcon fontSize="small" />}
                onClick={() => revealing.show(c)}
              />
            )}
            <IconButton
              size="small"
              aria-label={`Copy the API key of ${c.name}`}
              onClick={() => (plain ? void copy(plain) : notify('error', MSG.decryptKeysFirst))}
            >
              <ContentCopyIcon fontSize="inherit" />
            </IconButton>
          </Stack>
        );
      },
    },
    ...(canRegister
      ? [
          {
            id: 'active_switch',
            label: 'Active',
            pinned: true,
            width: 90,
            cell: (c: CompanyRow) => (
              <Switch
                checked={c.status === 1}
                onChange={() => switching.show(c)}
                // a company is activated only once its account holder approved the access
                disabled={c.status !== 1 && c.consent !== 'Approved'}
                slotProps={{ input: { 'aria-label': `Active: ${c.name}` } }}
              />
            ),
          },
        ]
      : []),
    // the Active switch says it too: the chip goes first when the columns do not fit
    { id: 'status', label: 'Status', card: 'status', priority: 3, width: 90, cell: (c) => activeChip(c.status) },
    {
      id: 'consent',
      label: 'Consent',
      width: 110,
      cell: (c) => <StatusChip status={c.consent} tone={c.consent === 'Approved' ? 'green' : 'amber'} />,
    },
    { id: 'accounts', label: 'Accounts', hidden: true, width: 100, cell: (c) => c.accounts },
    {
      id: 'created_at',
      label: 'Registered',
      hidden: true,
      nowrap: true,
      width: 180,
      cell: (c) => localDateTime(c.created_at),
    },
  ];

  const action: RowAction<CompanyRow> = {
    label: 'Action',
    // View rules, and Threshold for an admin
    width: isAdmin ? 250 : 140,
    cell: (c) => (
      <Stack direction="row" spacing={0.5}>
        <ActionButton
          text="View rules"
          label={`View rules of ${c.name}`}
          icon={<RuleIcon fontSize="small" />}
          onClick={() => navigate(`/accounting-rules?q=${encodeURIComponent(c.name)}`)}
        />
        {isAdmin ? (
          <ActionButton
            text="Threshold"
            label={`Approval threshold of ${c.name}`}
            icon={<FactCheckIcon fontSize="small" />}
            onClick={() => setThreshold(c)}
          />
        ) : null}
      </Stack>
    ),
  };

  return (
    <>
      <TitleBar title="Companies">
        {canRegister ? (
          <Button variant="contained" startIcon={<AddBusinessIcon />} onClick={() => setCreating(true)}>
            Add New Company
          </Button>
        ) : null}
      </TitleBar>
      <ActiveCounters
        noun="Companies"
        counts={
          q.data && { count: q.data.all_companies, active: q.data.active_company, inactive: q.data.in_active_company }
        }
      />
      <SearchedTable
        id="companies"
        label="Companies"
        columns={columns}
        action={action}
        list={list}
        create={canRegister ? [{ label: 'Add New Company', onClick: () => setCreating(true) }] : []}
      />
      <Dialog
        open={!!threshold}
        onClose={() => setThreshold(null)}
        fullWidth
        maxWidth="xs"
        aria-label="Approval threshold"
      >
        <DialogTitle>Approval threshold: {threshold?.name}</DialogTitle>
        <DialogContent>
          {threshold ? <ApprovalThreshold holderType="company" holderId={threshold.id} /> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setThreshold(null)}>Close</Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={switching.open}
        title={`${activate ? 'Activate' : 'Deactivate'} ${switched?.name ?? ''}?`}
        text={
          activate
            ? question('Sure you want to activate this company?')
            : question('Sure you want to deactivate this company?', ACCOUNTING_MSG.deactivateWarning)
        }
        confirmLabel={activate ? 'Activate' : 'Deactivate'}
        onCancel={() => {
          switching.close();
          // as the spec has it: a cancelled switch reads the list again
          void q.refetch();
        }}
        onConfirm={confirmSwitch}
      />
      <PasswordDialog
        open={revealing.open}
        title="Enter Password"
        text={`Enter your password to see the API key of ${revealing.target?.name ?? ''}. Every reveal is recorded in the activity log.`}
        confirmLabel="Decrypt"
        requiredMessage={MSG.requiredShort}
        onCancel={revealing.close}
        onConfirm={async (password) => {
          const c = revealing.target;
          if (!c) return;
          const r = await revealCompanyKey({ id: c.id, current_password: password });
          setKeys((old) => ({ ...old, [c.id]: r.api_key }));
          revealing.close();
        }}
      />
      {creating ? <CompanyDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}
