import {
  MSG,
  type AuthType,
  type CurrentBatch,
  type LoginResponse,
  type PasskeyAssertion,
  type SessionUser,
  type VerifyCodeResponse,
} from '@obol/contract';
import { verifyPassword } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, tooManyRequests } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/http.ts';
import { scopeFor } from '../../platform/scope.ts';
import { accountInfoFor } from '../ledger/info.ts';
import { checkPasskeyAssertion, startPasskeySignIn } from '../passkeys/credentials.ts';
import type { RelyingParty } from '../passkeys/rp.ts';
import { permissionsOfRole } from '../roles/repo.ts';
import { recordLogin, signInUser, toAuthUser } from '../users/credentials.ts';
import { userNameOf } from '../users/repo.ts';
import {
  assertFactorAllowed,
  checkCode,
  consumeCode,
  countTry,
  loginChallenge,
  startLoginChallenge,
} from './second-factor.ts';
import { startSession } from './sessions.ts';
import { trustedDevice } from './devices.ts';
import { beginAttempt } from './throttle.ts';

export interface LoginInput {
  email: string;
  password: string;
  auth_type: AuthType;
}

/** The batch a user was working on; batches provides it, so auth does not import batches. */
export type CurrentBatchOf = (db: Executor, userId: number) => Promise<CurrentBatch | null>;

const INACTIVE = 'Your account is inactive. Please contact your administrator.';

/** Checks the password, under the sign-in limits, and starts the second factor. */
export async function login(
  deps: Deps,
  input: LoginInput,
  meta: { ip: string; rp: RelyingParty; cookie?: string },
  audit: (a: { id: number | null; name?: string; email: string }) => void,
): Promise<LoginResponse> {
  const { ip } = meta;
  audit({ id: null, email: input.email });
  // counted before the password is checked, so racing guesses cannot exceed the limits; on the account's
  // counter, or on the device's own when the browser carries the account's device mark
  const device = trustedDevice(deps.config.secretsKey, meta.cookie, input.email);
  const attempt = await beginAttempt(deps, input.email, ip, undefined, device);
  const user = await signInUser(deps.db, { email: input.email });
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new ApiError(401, [MSG.invalidCredentials]);
  audit({ id: user.id, name: user.name, email: user.email });
  if (!user.isActive) throw new ApiError(403, [INACTIVE]);
  // the account's attempt stays counted until the second factor completes the sign-in
  await attempt.passed();
  await assertFactorAllowed(deps.db, user.id, input.auth_type);
  if (input.auth_type === 'passkey') {
    // the browser signs the WebAuthn challenge; the sign-in challenge keeps its hash
    const started = await startPasskeySignIn(deps, user.id, meta.rp);
    if (!started) throw new ApiError(422, [MSG.noPasskey]);
    const challenge = await startLoginChallenge(deps, user, 'passkey', started.challengeHash);
    return {
      challenge_token: challenge,
      auth_type: 'passkey',
      passkey_options: started.options,
      message: ['Confirm with your passkey'],
    };
  }
  const challenge = await startLoginChallenge(deps, user, input.auth_type);
  const message =
    input.auth_type === 'email'
      ? [MSG.codeSent]
      : input.auth_type === 'authenticator'
        ? ['Enter the code from your authenticator app']
        : ['Enter one of your backup codes'];
  return { challenge_token: challenge, auth_type: input.auth_type, message };
}

/** Checks the second-factor code of a challenge, under the sign-in limits, and opens the session. */
export async function verifyCode(
  deps: Deps,
  input: { challenge_token: string; code?: string; assertion?: PasskeyAssertion },
  meta: { ip: string; userAgent?: string; rp: RelyingParty; cookie?: string; currentBatch: CurrentBatchOf },
  audit: (a: { id: number | null; name?: string; email?: string }) => void,
): Promise<VerifyCodeResponse> {
  const challenge = await loginChallenge(deps.db, input.challenge_token);
  if (!challenge) throw new ApiError(401, [MSG.invalidCode]);
  const user = await signInUser(deps.db, { id: challenge.userId });
  if (!user) throw new ApiError(401, [MSG.invalidCode]);
  audit({ id: user.id, name: user.name, email: user.email });
  if (challenge.usedAt || challenge.expiresAt.getTime() <= Date.now()) throw new ApiError(401, [MSG.invalidCode]);
  // a code mailed before the user enrolled a stronger factor no longer completes the sign-in
  await assertFactorAllowed(deps.db, user.id, challenge.method);
  // a code counts as a sign-in attempt of the account and the address, before it is checked
  const device = trustedDevice(deps.config.secretsKey, meta.cookie, user.email);
  const attempt = await beginAttempt(deps, user.email, meta.ip, challenge.id, device);
  // and a try of this challenge (5 per code), counted first, atomically, so parallel guesses cannot exceed it
  if (!(await countTry(deps.db, challenge.id))) throw tooManyRequests();
  if (challenge.method === 'passkey') {
    const ok =
      !!input.assertion && (await checkPasskeyAssertion(deps, user.id, challenge.codeHash, input.assertion, meta.rp));
    if (!ok) throw new ApiError(401, [MSG.passkeyInvalid]);
  } else {
    const ok =
      input.code !== undefined && (await checkCode(deps, user.id, challenge.method, challenge.codeHash, input.code));
    if (!ok) throw new ApiError(401, [MSG.invalidCode]);
  }
  if (!(await consumeCode(deps.db, challenge.id))) throw new ApiError(401, [MSG.invalidCode]);
  if (!user.isActive) throw new ApiError(403, [INACTIVE]);
  await attempt.completed();

  const now = Date.now();
  const { token, timing } = await startSession(deps, user.id, now, meta);
  await recordLogin(deps.db, user.id, new Date(now));
  const authUser = toAuthUser(user);
  return {
    accessToken: token,
    user: await sessionUser(deps, authUser),
    permission: await permissionsOfRole(deps.db, user.roleId),
    account: await accountInfoFor(deps.db, scopeFor(authUser)),
    batch: await meta.currentBatch(deps.db, user.id),
    session: timing,
    message: [MSG.loggedIn],
  };
}

export async function sessionUser(deps: Deps, u: AuthUser): Promise<SessionUser> {
  let parent: SessionUser['parent'] = null;
  if (u.parentId !== null) {
    const p = await userNameOf(deps.db, u.parentId);
    if (p) parent = p;
  }
  return { id: u.id, name: u.name, email: u.email, role: u.role, parent, two_fa_as_otp: u.twoFaAsOtp };
}
