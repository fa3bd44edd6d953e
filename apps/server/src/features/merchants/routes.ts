import { MERCHANT_MSG, isOn, merchantOps } from '@obol/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { endSessions } from '../auth/sessions.ts';
import { listMerchants, merchantBrands } from './merchants.ts';
import { createBrands, createMerchant, type NewHolderHooks } from './create.ts';
import { changeHolderStatus, setDirectMerchant, updateHolderDetails } from './edit.ts';

function audited(req: FastifyRequest, id: number, before: unknown, after: unknown) {
  req.audit.targetType = 'user';
  req.audit.targetId = id;
  req.audit.before = before;
  req.audit.after = after;
}

/** newHolder: api-keys (which lists the merchants, so above them) and auth issue a new holder's key and invitation. */
export function merchantsRoutes(app: FastifyInstance, deps: Deps, newHolder: NewHolderHooks) {
  route(app, merchantOps.merchants, ({ input, auth }) =>
    listMerchants(deps.db, auth.scope, { page: input.page, perPage: input.per_page, search: input.search }),
  );

  route(app, merchantOps.brandsList, async ({ input, auth }) => ({
    data: await merchantBrands(deps.db, auth.scope, input.id, input.name),
  }));
  route(app, merchantOps.searchBrand, async ({ input, auth }) => ({
    data: await merchantBrands(deps.db, auth.scope, input.id, input.name),
  }));

  route(app, merchantOps.createHolder, async ({ input, auth, req }) => {
    req.audit.targetType = 'user';
    // creating sends invitation mails: counted like inviting users
    await throttle(deps, 'invite', auth.user.id);
    if (input.rolename === 'Merchant') {
      const { id, mailed } = await createMerchant(deps, auth, input, newHolder);
      audited(req, id, null, { id, name: input.name, email: input.email, role: 'Merchant', fee: input.fee / 100 });
      if (!mailed) req.audit.detail = 'invitation mail not sent';
      return { message: [MERCHANT_MSG.created, ...(mailed ? [] : [MERCHANT_MSG.mailFailed])], ids: [id] };
    }
    const { ids, mailed } = await createBrands(
      deps,
      auth,
      { parentId: input.parent_id, brands: input.brands },
      newHolder,
    );
    audited(req, input.parent_id, null, {
      merchant_id: input.parent_id,
      brands: input.brands.map((b, i) => ({ id: ids[i], name: b.name, email: b.email })),
    });
    if (!mailed) req.audit.detail = 'an invitation mail was not sent';
    return { message: [MERCHANT_MSG.brandsCreated, ...(mailed ? [] : [MERCHANT_MSG.mailFailed])], ids };
  });

  route(app, merchantOps.updateMerchantDetails, async ({ input, auth, req }) => {
    const { before, after } = await updateHolderDetails(deps, auth, input);
    audited(req, input.id, before, after);
    return { message: [MERCHANT_MSG.updated] };
  });

  route(app, merchantOps.updateDirectMerchant, async ({ input, auth, req }) => {
    const { before, after } = await setDirectMerchant(deps, auth, input.user_id, isOn(input.direct_merchant));
    audited(req, input.user_id, before, after);
    return { message: [MERCHANT_MSG.directUpdated] };
  });

  route(app, merchantOps.changeHolderStatus, async ({ input, auth, req }) => {
    const { before, after } = await changeHolderStatus(deps, auth, input.id, input.level_type, isOn(input.status), {
      endSessions,
    });
    audited(req, input.id, before, after);
    return { message: [MERCHANT_MSG.statusUpdated] };
  });
}
