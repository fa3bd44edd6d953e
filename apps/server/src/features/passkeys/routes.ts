import { MSG, passkeyOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { listPasskeys } from './credentials.ts';
import { register, registerOptions, remove, rename, type ConfirmPassword } from './registration.ts';
import { relyingParty } from './rp.ts';

/** `confirmPassword` comes from auth (a feature above passkeys), handed in by the app. */
export function passkeyRoutes(app: FastifyInstance, deps: Deps, confirmPassword: ConfirmPassword) {
  route(app, passkeyOps.passkeyRegisterOptions, async ({ input, auth, req }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = auth.user.id;
    await throttle(deps, 'passkey', auth.user.id);
    const options = await registerOptions(
      deps,
      auth,
      input.current_password,
      req.ip,
      relyingParty(deps.config, req),
      confirmPassword,
    );
    req.audit.detail = 'passkey registration started';
    return { options, message: ['Follow your browser to create the passkey'] };
  });

  route(app, passkeyOps.passkeyRegister, async ({ input, auth, req }) => {
    req.audit.targetType = 'passkey';
    await throttle(deps, 'passkey', auth.user.id);
    const passkey = await register(deps, auth, input, relyingParty(deps.config, req));
    req.audit.targetId = passkey.id;
    req.audit.before = null;
    req.audit.after = passkey;
    return { passkey, message: [MSG.passkeyAdded] };
  });

  route(app, passkeyOps.passkeys, async ({ auth }) => {
    const data = await listPasskeys(deps.db, auth.user.id);
    return { data, total: data.length };
  });

  route(app, passkeyOps.renamePasskey, async ({ input, auth, req }) => {
    req.audit.targetType = 'passkey';
    req.audit.targetId = input.id;
    await throttle(deps, 'passkey', auth.user.id);
    const { before, after } = await rename(deps, auth, input.id, input.name);
    req.audit.before = before;
    req.audit.after = after;
    return { passkey: after, message: [MSG.passkeyRenamed] };
  });

  route(app, passkeyOps.deletePasskey, async ({ input, auth, req }) => {
    req.audit.targetType = 'passkey';
    req.audit.targetId = input.id;
    await throttle(deps, 'passkey', auth.user.id);
    const gone = await remove(deps, auth, input.id, input.current_password, req.ip, confirmPassword);
    req.audit.before = gone;
    req.audit.after = null;
    return { message: [MSG.passkeyRemoved] };
  });
}
