import { authOps, MSG, profileOps } from '@obol/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { forbidden } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { relyingParty } from '../passkeys/rp.ts';
import { changePassword, checkLink, confirmPassword, forgotPassword, setPassword } from './passwords.ts';
import { deviceCookie } from './devices.ts';
import { newBackupCodes } from './second-factor.ts';
import { logout, sessionTiming } from './sessions.ts';
import { login, verifyCode, type CurrentBatchOf } from './sign-in.ts';
import { startTotpSetup, switchTwoFa, type TwoFaAudit } from './two-fa.ts';

/** `currentBatch` comes from batches (a feature above auth), handed in by the app. */
export function authRoutes(app: FastifyInstance, deps: Deps, currentBatch: CurrentBatchOf) {
  route(app, authOps.login, ({ input, req }) =>
    login(deps, input, { ip: req.ip, rp: relyingParty(deps.config, req), cookie: req.headers.cookie }, (a) => {
      req.audit.actor = a;
      req.audit.detail = `second factor: ${input.auth_type}`;
    }),
  );

  route(app, authOps.verifyCode, async ({ input, req, reply }) => {
    const { cookie } = req.headers;
    const answer = await verifyCode(
      deps,
      input,
      { ip: req.ip, userAgent: req.headers['user-agent'], rp: relyingParty(deps.config, req), cookie, currentBatch },
      (a) => {
        req.audit.actor = a;
      },
    );
    // the device mark that lets this browser past guesses from elsewhere next time
    reply.header(
      'set-cookie',
      deviceCookie(deps.config.secretsKey, cookie, answer.user.email, req.protocol === 'https'),
    );
    return answer;
  });

  route(app, authOps.logout, async ({ auth: ctx }) => {
    await logout(deps, ctx.sessionId);
    return { message: ['Logged out'] };
  });

  route(app, authOps.authPermission, async ({ auth: ctx }) => ({
    status: true,
    data: { permission: [...ctx.permissions] },
    session: sessionTiming(deps, ctx.sessionExpiresAt),
  }));

  route(app, authOps.forgotPassword, async ({ input, req }) => {
    req.audit.actor = { id: null, email: input.email };
    // the same answer whatever happened: no account, an inactive one, or over the limits (nothing sent)
    const outcome = await forgotPassword(deps, input.email, req.ip);
    if (outcome === 'throttled') req.audit.detail = 'over the limit: no mail sent';
    return { message: [MSG.resetMailSent] };
  });

  route(app, authOps.checkLinkExpiry, async ({ input, req }) => {
    await checkLink(deps, input.token, input.email, req.ip);
    return { message: ['Link is valid'] };
  });

  route(app, authOps.setPassword, async ({ input, req }) => {
    req.audit.actor = { id: null, email: input.email };
    const user = await setPassword(deps, input, req.ip);
    req.audit.actor = { id: user.id, name: user.name, email: user.email };
    req.audit.targetType = 'user';
    req.audit.targetId = user.id;
    return { message: [MSG.passwordSet] };
  });

  route(app, authOps.changePassword, async ({ input, auth: ctx, req }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = ctx.user.id;
    await changePassword(deps, ctx, input, req.ip);
    return { message: [MSG.passwordChanged] };
  });

  route(app, authOps.exportBackupCode, async ({ input, auth: ctx, req, reply }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = ctx.user.id;
    if (input.email !== ctx.user.email) throw forbidden('Backup codes can only be exported for your own account');
    // new codes sign in without the password's second factor: a session alone is not enough
    await confirmPassword(deps, ctx, input.password, req.ip, 'password');
    const codes = await newBackupCodes(deps, ctx.user.id);
    const body =
      `Obol backup codes for ${ctx.user.email}\n` +
      `Generated ${new Date().toISOString()}. Each code signs you in once; generating new codes voids these.\n\n` +
      codes.join('\n') +
      '\n';
    return reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('content-disposition', 'attachment; filename="obol-backup-codes.txt"')
      .header('cache-control', 'no-store')
      .send(body);
  });

  const record =
    (req: FastifyRequest) =>
    ({ before, after, detail }: TwoFaAudit) =>
      Object.assign(req.audit, { before, after, detail });

  route(app, profileOps.twoFaSetup, async ({ input, auth: ctx, req, reply }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = ctx.user.id;
    const answer = await startTotpSetup(deps, ctx, input.current_password, req.ip, record(req));
    reply.header('cache-control', 'no-store');
    return answer;
  });

  route(app, profileOps.enableTwoFa, async ({ input, auth: ctx, req }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = ctx.user.id;
    return switchTwoFa(deps, ctx, input, req.ip, record(req));
  });
}
