import { payinOps, REWARD_MSG, type PayinChannel } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { forbidden } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { exportStarted, startExport } from '../downloads/service.ts';
import { auditInTx } from '../../platform/audit.ts';
import { PAYINS_EXPORT, REFUNDS_EXPORT, REWARDS_EXPORT } from './exports.ts';
import { listRewards, payReward } from './rewards.ts';
import { listRefunds } from './refund-list.ts';
import { createRefund, requestRefundCode } from './refunds.ts';
import { listPayins } from './list.ts';
import { createPayinLink, merchantTest } from './service.ts';
import { issueMerchantToken, merchantCaller } from './token.ts';

/** The pay-in list's permission: the pay-in panel for Payin, CardEye's for CardEye. */
const channelPermission = (channel: PayinChannel) =>
  channel === 'CardEye' ? 'User can view cardeye transactions' : 'User can view pay in panel';

/**
 * The merchant API (document 3, "Demo payment provider"): what a merchant's own system calls with its API key; and
 * the pay-in list of the back-office with its export.
 */
export function payinsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, payinOps.merchantToken, ({ req }) => issueMerchantToken(deps, req.headers['x-api-key']));

  route(app, payinOps.merchantTest, async ({ req }) => {
    const caller = await merchantCaller(deps, req);
    return merchantTest(deps, caller);
  });

  route(app, payinOps.createPayinLink, async ({ input, req }) => {
    const caller = await merchantCaller(deps, req);
    const { holder } = caller;
    req.audit.actor = { id: holder.id, name: holder.name, email: holder.email };
    // a retry answers the first link, as the first answer did (201)
    const link = await createPayinLink(deps, caller, input, req.headers['idempotency-key']);
    req.audit.targetType = 'payin';
    req.audit.targetId = link.request_id;
    req.audit.after = link;
    return link;
  });

  route(app, payinOps.payinList, ({ input, auth }) => {
    if (!auth.permissions.has(channelPermission(input.channel))) throw forbidden();
    return listPayins(deps.db, auth.scope, input);
  });

  route(app, payinOps.exportPayins, async ({ input, auth, req }) => {
    if (!auth.permissions.has(channelPermission(input.channel))) throw forbidden();
    await throttle(deps, 'export', auth.user.id);
    return exportStarted(req, await startExport(deps, auth, PAYINS_EXPORT, input));
  });

  route(app, payinOps.generateRefundCode, ({ input, auth, req }) => {
    req.audit.targetType = 'payin';
    req.audit.targetId = input.reference;
    return requestRefundCode(deps, auth, input.reference);
  });

  route(app, payinOps.payinRefund, ({ input, auth, req }) =>
    createRefund(deps, auth, input, async (tx, refundId) => {
      req.audit.targetType = 'refund';
      req.audit.targetId = refundId;
      req.audit.after = { payin: input.reference, refund_status: 2 };
      await auditInTx(tx, req, 200);
    }),
  );

  // the list; with an id, first pays that reward (the spec's "update reward"): only that is an activity
  route(app, payinOps.payinRewards, async ({ input, auth, req }) => {
    if (input.id === undefined) {
      req.audit.readOnly = true;
      return listRewards(deps.db, auth.scope, input);
    }
    await payReward(deps, auth, input.id, async (tx, reward) => {
      req.audit.targetType = 'payin_reward';
      req.audit.targetId = reward.id;
      req.audit.after = { reward_status: 'Rewarded', amount: reward.amount };
      await auditInTx(tx, req, 200);
    });
    return { message: [REWARD_MSG.updated], ...(await listRewards(deps.db, auth.scope, input)) };
  });

  route(app, payinOps.exportPayinRewards, async ({ input, auth, req }) => {
    if (!auth.permissions.has('User can view pay in reward')) throw forbidden();
    await throttle(deps, 'export', auth.user.id);
    return exportStarted(req, await startExport(deps, auth, REWARDS_EXPORT, input));
  });

  route(app, payinOps.refundList, ({ input, auth }) => listRefunds(deps.db, auth.scope, input));

  route(app, payinOps.exportRefunds, async ({ input, auth, req }) => {
    if (!auth.permissions.has('User can view cardeye transactions')) throw forbidden();
    await throttle(deps, 'export', auth.user.id);
    return exportStarted(req, await startExport(deps, auth, REFUNDS_EXPORT, input));
  });
}
