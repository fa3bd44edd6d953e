import { MSG } from '@obol/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { hashPassword, keyedHash, randomToken, verifyPassword } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { MailMessage } from '../../platform/mail.ts';
import { badRequest } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { giveBack, limitKey, tally, throttle } from '../../platform/limits.ts';
import { setPasswordHash, signInUser } from '../users/credentials.ts';
import { consumeCode, liveCode } from './second-factor.ts';
import { endSessions } from './sessions.ts';
import { oneTimeCodes } from './tables.ts';
import { beginAttempt } from './throttle.ts';

export const RESET_LINK_TTL_MS = 60 * 60_000;
/** An invitation gives the invitee a few days to set a password. */
export const INVITE_LINK_TTL_MS = 72 * 3_600_000;
/** Both kinds of link set a password through the same pages (/new-password, check-link-expiry, set-password). */
const PASSWORD_LINKS = ['password_reset', 'invitation'];

const passwordLinkUrl = (deps: Pick<Deps, 'config'>, token: string, email: string) =>
  `${deps.config.publicUrl}/new-password/${encodeURIComponent(token)}/${encodeURIComponent(email)}`;

/**
 * Inside the caller's transaction (the invite, or a resend): a new single-use invitation link for the user,
 * voiding every older link, so only the newest mail works. Returns the mail to send once the transaction commits.
 */
export async function newInvitation(
  tx: Executor,
  deps: Pick<Deps, 'config'>,
  user: { id: number; name: string; email: string },
  invitedBy: string,
): Promise<MailMessage> {
  await voidResetLinks(tx, user.id);
  const token = randomToken();
  await tx.insert(oneTimeCodes).values({
    userId: user.id,
    purpose: 'invitation',
    method: 'link',
    codeHash: keyedHash(deps.config.secretsKey, token),
    maxAttempts: 1,
    expiresAt: new Date(Date.now() + INVITE_LINK_TTL_MS),
  });
  return {
    to: user.email,
    subject: 'You are invited to Obol',
    template: 'invitation',
    text: `Hello ${user.name},\n\n${invitedBy} invited you to Obol. Set your password here (valid for 72 hours, usable once):\n${passwordLinkUrl(deps, token, user.email)}\n\nThen sign in with your e-mail address and that password.\n`,
  };
}

/**
 * Mails a link to set a new password. The caller answers the same whatever happens here: no account, an
 * inactive one, or a request over the limits (per address, then per e-mail asked for), which sends nothing.
 * Returns what happened, for the activity log.
 */
export async function forgotPassword(deps: Deps, email: string, ip: string): Promise<'sent' | 'throttled' | 'none'> {
  if (!(await tally(deps, 'resetAddress', ip)).allowed) return 'throttled';
  if (!(await tally(deps, 'resetAccount', email)).allowed) return 'throttled';
  const user = await signInUser(deps.db, { email });
  if (!user || !user.isActive) return 'none';
  const token = randomToken();
  await deps.db.insert(oneTimeCodes).values({
    userId: user.id,
    purpose: 'password_reset',
    method: 'link',
    codeHash: keyedHash(deps.config.secretsKey, token),
    maxAttempts: 1,
    expiresAt: new Date(Date.now() + RESET_LINK_TTL_MS),
  });
  const link = passwordLinkUrl(deps, token, user.email);
  await deps.mailer.send({
    to: user.email,
    subject: 'Set a new Obol password',
    template: 'password-reset',
    text: `Hello ${user.name},\n\nSet a new password for Obol here (valid for 60 minutes, usable once):\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
  });
  return 'sent';
}

async function findResetLink(deps: Deps, token: string, email: string) {
  const user = await signInUser(deps.db, { email });
  if (!user) return null;
  const row = await liveCode(
    deps.db,
    user.id,
    and(
      inArray(oneTimeCodes.purpose, PASSWORD_LINKS),
      eq(oneTimeCodes.codeHash, keyedHash(deps.config.secretsKey, token)),
    )!,
  );
  return row ? { user, row } : null;
}

/**
 * A password link's token and e-mail, looked up under the limit on guessing them: a slot of the address's window
 * (`passwordLinkAddress`) is taken before the look-up and given back when the link is valid, so an address that
 * keeps trying links that do not exist gets 429 with Retry-After. Nothing is counted per account: the token has
 * 256 random bits, so such a count would stop no guess, and anyone could spend it to block the owner's link.
 */
async function findLinkUnderLimit(deps: Deps, token: string, email: string, ip: string) {
  const slot = await throttle(deps, 'passwordLinkAddress', ip);
  const found = await findResetLink(deps, token, email);
  if (!found) throw badRequest(MSG.linkExpired, 'token');
  await giveBack(deps.db, limitKey('passwordLinkAddress', ip), slot);
  return found;
}

export async function checkLink(deps: Deps, token: string, email: string, ip: string) {
  await findLinkUnderLimit(deps, token, email, ip);
}

export async function setPassword(deps: Deps, input: { token: string; email: string; password: string }, ip: string) {
  const found = await findLinkUnderLimit(deps, input.token, input.email, ip);
  const hash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, found.row.id))) throw badRequest(MSG.linkExpired, 'token');
    await voidResetLinks(tx, found.user.id);
    // the link was mailed to the address: setting a password through it proves the address
    await setPasswordHash(tx, found.user.id, hash, found.user.emailVerifiedAt ?? new Date());
    // a new password ends every open session of the account
    await endSessions(tx, found.user.id);
  });
  return found.user;
}

/**
 * A new password voids every password link (reset or invitation) of the account still outstanding: an older
 * mail must not undo it.
 */
async function voidResetLinks(tx: Executor, userId: number) {
  await tx
    .update(oneTimeCodes)
    .set({ usedAt: new Date() })
    .where(
      and(eq(oneTimeCodes.userId, userId), inArray(oneTimeCodes.purpose, PASSWORD_LINKS), isNull(oneTimeCodes.usedAt)),
    );
}

export async function changePassword(
  deps: Deps,
  auth: AuthContext,
  input: { current_password: string; password: string },
  ip: string,
) {
  const user = await confirmPassword(deps, auth, input.current_password, ip, 'current_password');
  if (input.current_password === input.password) {
    throw badRequest('The new password must differ from the current one', 'password');
  }
  const hash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, hash);
    await voidResetLinks(tx, user.id);
    // other sessions of the account end; this one stays
    await endSessions(tx, user.id, auth.sessionId);
  });
}

/**
 * Checks the signed-in user's own password (to change it, or to get new backup codes). It goes through the
 * account's and the address's sign-in counters, so a session cannot be used to guess the password: wrong is
 * 400 'Incorrect Password.' on `field`, too many tries 429.
 */
export async function confirmPassword(deps: Deps, auth: AuthContext, password: string, ip: string, field: string) {
  const user = await signInUser(deps.db, { id: auth.user.id });
  if (!user) throw badRequest(MSG.incorrectPassword, field);
  const attempt = await beginAttempt(deps, user.email, ip);
  if (!(await verifyPassword(user.passwordHash, password))) throw badRequest(MSG.incorrectPassword, field);
  await attempt.completed();
  return user;
}
