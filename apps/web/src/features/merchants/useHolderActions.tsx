import { MERCHANT_MSG, USERS_MSG, type HolderRow } from '@obol/contract';
import { hasPermission, useSession } from '../../lib/session.ts';
import { resendInvitation, useConfirm } from '../../ui/ConfirmDialog.tsx';
import { useNotifiedRun } from '../../ui/notifications.tsx';
import { useChangeHolderStatus, useResendHolderInvitation } from './api/merchants.ts';

/**
 * What the caller may do to a merchant or brand: switch it on or off (confirmed; deactivating a merchant warns
 * that it will no longer perform any action) and mail its invitation again, with 'User can add merchant'.
 */
export function useHolderActions() {
  const session = useSession();
  const canManage = hasPermission(session, 'User can add merchant');
  const run = useNotifiedRun();
  const { ask, dialog } = useConfirm();
  const status = useChangeHolderStatus();
  const resend = useResendHolderInvitation();

  const setActive = (h: HolderRow, activate: boolean) => {
    const what = h.role === 'Merchant' ? 'merchant' : 'brand';
    ask({
      title: `${activate ? 'Activate' : 'Deactivate'} ${h.name}?`,
      text: activate
        ? `Sure you want to activate this ${what}?`
        : h.role === 'Merchant'
          ? `Sure you want to deactivate this merchant? Merchant will no longer perform any action! Its brands and team are signed out too.`
          : 'Sure you want to deactivate this brand? It is signed out and can no longer sign in.',
      confirmLabel: activate ? 'Activate' : 'Deactivate',
      // activating gives access back: not a destructive step
      tone: activate ? 'neutral' : 'danger',
      action: () =>
        run(
          () =>
            status.mutateAsync({
              id: h.id,
              status: activate ? 1 : 0,
              level_type: h.role,
              parent_id: h.parent_id ?? undefined,
            }),
          MERCHANT_MSG.statusUpdated,
        ),
    });
  };

  const resendMail = (h: HolderRow) =>
    ask(resendInvitation(h.email, () => run(() => resend.mutateAsync({ id: h.id }), USERS_MSG.invitationResent)));

  return { canManage, setActive, resendMail, dialog };
}
