import { ACCOUNTING_MSG, RULE_TYPE_OPTIONS, type RuleRow } from '@obol/contract';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Button, Stack, Switch } from '@mui/material';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { FIRST_PAGE, usePaging, usePagedList } from '../../lib/paging.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';
import { useUrlSearch } from '../../lib/useUrlSearch.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ActiveCounters } from '../../ui/Counter.tsx';
import type { Column, RowAction } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { TitleBar } from '../../ui/ListHeader.tsx';
import { PagedTable } from '../../ui/PagedTable.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { rulesQuery, useDeleteRule, useUpdateRuleStatus } from './api/rules.ts';
import { activeChip, question, TRANSFER_TYPE_LABELS } from './labels.tsx';
import { RuleDialog } from './RuleDialog.tsx';
import type { RuleKind } from './ruleForm.ts';
import { useTarget } from './useTarget.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { clearFilters } from '../../lib/filters.ts';

const PER_PAGE = 10;
/** the rule-type filter in the URL: `type=amount` or `type=percentage` */
const TYPE_KEYS = ['amount', 'percentage'] as const;

/** An amount rule's cents in euro; a percentage rule's share as '12.5 %'. */
export const ruleAmount = (r: RuleRow) => (r.rule_type === 'Percentage' ? `${r.amount} %` : euro(Number(r.amount)));

/** When a rule runs: every day at its UTC time, on a weekday, or on a day of the month (both at 00:00 UTC). */
export const ruleDay = (r: RuleRow) =>
  r.interval_type === 'weekly'
    ? `Weekly, ${r.interval_day ?? '-'}`
    : r.interval_type === 'monthly'
      ? `Monthly, day ${r.interval_day ?? '-'}`
      : `Daily, ${r.interval}`;

const COLUMNS: Column<RuleRow>[] = [
  { id: 'rule_name', label: 'Rule Name', pinned: true, card: 'title', width: 150, cell: (r) => r.rule_name },
  { id: 'company_name', label: 'Company Name', hidden: true, width: 150, cell: (r) => r.company_name },
  {
    id: 'company_email',
    label: 'Company Email',
    hidden: true,
    width: 220,
    cell: (r) => <OneLine text={r.company_email} maxWidth={200} />,
  },
  { id: 'account_id', label: 'Account ID', hidden: true, nowrap: true, width: 150, cell: (r) => r.account_id },
  {
    id: 'beneficiary',
    label: 'Beneficiary',
    width: 255,
    // one line (a long beneficiary id broke mid-word and made the row 150 px tall), the whole of it on hover
    cell: (r) => (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
        <OneLine text={`${r.beneficiary_name} (${r.beneficiary_id})`} maxWidth={190} />
        <CopyButton text={r.beneficiary_id} label={`Copy the beneficiary id of ${r.rule_name}`} />
      </Stack>
    ),
  },
];
const AFTER_SWITCH: Column<RuleRow>[] = [
  { id: 'status', label: 'Status', hidden: true, card: 'status', width: 90, cell: (r) => activeChip(r.status) },
  {
    id: 'transfer_type',
    label: 'Transaction Type',
    priority: 3,
    width: 165,
    cell: (r) => TRANSFER_TYPE_LABELS[r.transfer_type],
  },
  { id: 'rule_type', label: 'Rule Type', pinned: true, width: 111, cell: (r) => r.rule_type },
  { id: 'amount', label: 'Amount', pinned: true, nowrap: true, width: 112, cell: ruleAmount },
  // the day column says a daily rule's time too (the others run at 00:00): one click away in Columns
  { id: 'interval', label: 'Interval (UTC)', priority: 3, nowrap: true, width: 143, cell: (r) => r.interval },
  { id: 'interval_day', label: 'Interval Day/Date', nowrap: true, width: 171, cell: ruleDay },
  { id: 'reference', label: 'Reference', hidden: true, width: 150, cell: (r) => r.reference },
  {
    id: 'created_at',
    label: 'Created At',
    hidden: true,
    nowrap: true,
    width: 180,
    cell: (r) => localDateTime(r.created_at),
  },
];

/**
 * Rules (2D): counters, a search by rule or company name and the rule-type filter, 10 a page, all in the URL.
 * With 'User can create accounting transactions rules': Create Percentage Rule, Create Amount Rule, the
 * activate/deactivate switch and Delete Rule, each confirmed.
 */
export function RulesPage() {
  const session = useSession();
  const canCreate = hasPermission(session, 'User can create accounting transactions rules');
  const { notify } = useNotify();
  const status = useUpdateRuleStatus();
  const remove = useDeleteRule();
  const [creating, setCreating] = useState<RuleKind | null>(null);
  const switching = useTarget<RuleRow>();
  const deleting = useTarget<RuleRow>();
  const url = useUrlParams();
  const paging = usePaging(PER_PAGE, [PER_PAGE], url);
  const { text, setText, search } = useUrlSearch(url);
  const typeKey = oneOf<(typeof TYPE_KEYS)[number] | ''>(url.params.get('type'), TYPE_KEYS, '');
  const ruleType: '' | 0 | 1 = typeKey === '' ? '' : typeKey === 'amount' ? 0 : 1;
  const list = usePagedList(
    paging,
    rulesQuery({ per_page: PER_PAGE, page: paging.page, search, rule_type: ruleType }),
    (a) => ({ data: a.rules, total: a.total }),
  );
  const { q } = list;

  const run = async (work: () => Promise<{ message: string[] }>) => {
    try {
      const r = await work();
      notify('success', r.message[0]);
    } catch (err) {
      notify('error', errorMessage(err));
    }
  };
  const switched = switching.target;
  const activate = switched?.status !== 1;

  const switchColumn: Column<RuleRow> = {
    id: 'active_switch',
    label: 'Active',
    pinned: true,
    width: 90,
    cell: (r) => (
      <Switch
        checked={r.status === 1}
        onChange={() => switching.show(r)}
        slotProps={{ input: { 'aria-label': `Active: ${r.rule_name}` } }}
      />
    ),
  };
  const columns = canCreate ? [...COLUMNS, switchColumn, ...AFTER_SWITCH] : [...COLUMNS, ...AFTER_SWITCH];
  const action: RowAction<RuleRow> | undefined = canCreate
    ? {
        label: 'Delete Rule',
        width: 124,
        cell: (r) => (
          <ActionButton
            text="Delete"
            label={`Delete ${r.rule_name}`}
            icon={<DeleteIcon fontSize="small" />}
            danger
            onClick={() => deleting.show(r)}
          />
        ),
      }
    : undefined;

  return (
    <>
      <TitleBar title="Rules">
        {canCreate ? (
          <>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating('percentage')}>
              Create Percentage Rule
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating('amount')}>
              Create Amount Rule
            </Button>
          </>
        ) : null}
      </TitleBar>
      <ActiveCounters
        noun="Rules"
        counts={q.data && { count: q.data.all_rules, active: q.data.active_rules, inactive: q.data.in_active_rules }}
      />
      <PagedTable
        id="accounting-rules"
        label="Rules"
        columns={columns}
        action={action}
        list={list}
        toolbar={
          <>
            <OptionSelect
              label="Rule type"
              value={ruleType}
              options={RULE_TYPE_OPTIONS}
              onChange={(v) => url.update({ type: v === '' ? null : TYPE_KEYS[v], ...FIRST_PAGE })}
              minWidth={160}
            />
            <SearchField value={text} onChange={setText} helperText="Rule or company name contains" />
          </>
        }
        empty={{
          clear: clearFilters(url, ['q', 'type']),
          create: canCreate
            ? [
                { label: 'Create Percentage Rule', onClick: () => setCreating('percentage') },
                { label: 'Create Amount Rule', onClick: () => setCreating('amount') },
              ]
            : [],
        }}
      />
      <ConfirmDialog
        open={switching.open}
        title={`${activate ? 'Activate' : 'Deactivate'} ${switched?.rule_name ?? ''}?`}
        text={
          activate
            ? question('Sure you want to activate this rule?')
            : question('Sure you want to deactivate this rule?', ACCOUNTING_MSG.ruleDeactivateWarning)
        }
        confirmLabel={activate ? 'Activate' : 'Deactivate'}
        onCancel={() => {
          switching.close();
          // as the spec has it: a cancelled switch reads the list again
          void q.refetch();
        }}
        onConfirm={async () => {
          if (switched) await run(() => status.mutateAsync({ id: switched.id, status: activate ? 1 : 0 }));
          switching.close();
        }}
      />
      <ConfirmDialog
        open={deleting.open}
        title={`Delete ${deleting.target?.rule_name ?? ''}?`}
        text={question('Sure you want to delete this rule?', ACCOUNTING_MSG.ruleDeleteWarning)}
        confirmLabel="Delete"
        onCancel={deleting.close}
        onConfirm={async () => {
          const r = deleting.target;
          if (r) await run(() => remove.mutateAsync({ id: r.id }));
          deleting.close();
        }}
      />
      {creating ? <RuleDialog key={creating} kind={creating} onClose={() => setCreating(null)} /> : null}
    </>
  );
}
