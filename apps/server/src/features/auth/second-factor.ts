import { MSG, type AuthType } from '@obol/contract';
import { and, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import {
  decryptSecret,
  keyedHash,
  randomToken,
  safeEqualHex,
  sha256,
  sixDigitCode,
  verifyTotp,
} from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { hasPasskey } from '../passkeys/credentials.ts';
import { acceptTotpStep, totpSecretOf } from '../users/credentials.ts';
import { backupCodes, oneTimeCodes } from './tables.ts';

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const BACKUP_CODE_COUNT = 10;

/**
 * The factor rule (ASVS 6.1.3): every way in is as strong as the strongest factor the user enrolled. Once an
 * authenticator app is confirmed or a passkey registered, an e-mailed code no longer starts or completes a
 * sign-in (403 naming auth_type); the authenticator, a passkey and the backup codes (recovery) still do.
 */
export async function assertFactorAllowed(db: Executor, userId: number, method: string): Promise<void> {
  if (method !== 'email') return;
  const strong = (await totpSecretOf(db, userId)) !== null || (await hasPasskey(db, userId));
  if (strong) throw new ApiError(403, [MSG.emailCodeRefused], { auth_type: [MSG.emailCodeRefused] });
}

/**
 * Starts the second factor of a sign-in whose password was right: a challenge (the token the client sends
 * back with the code), and for `email` a six-digit code mailed to the user. For `passkey`, `passkeyChallenge`
 * is the hash of the WebAuthn challenge the browser is to sign. Returns the challenge token.
 */
export async function startLoginChallenge(
  deps: Deps,
  user: { id: number; name: string; email: string },
  method: AuthType,
  passkeyChallenge?: string,
): Promise<string> {
  const challenge = randomToken();
  const code = method === 'email' ? sixDigitCode() : null;
  await deps.db.insert(oneTimeCodes).values({
    userId: user.id,
    purpose: 'login',
    method,
    challengeHash: sha256(challenge),
    codeHash: code ? keyedHash(deps.config.secretsKey, code) : method === 'passkey' ? (passkeyChallenge ?? null) : null,
    maxAttempts: CODE_MAX_ATTEMPTS,
    expiresAt: new Date(Date.now() + LOGIN_CODE_TTL_MS),
  });
  if (code) {
    await deps.mailer.send({
      to: user.email,
      subject: 'Your Obol sign-in code',
      template: 'login-code',
      text: `Hello ${user.name},\n\nYour Obol sign-in code is ${code}.\nIt is valid for 10 minutes and can be used once.\n\nIf you did not try to sign in, change your password.\n`,
      code,
    });
  }
  return challenge;
}

/** The sign-in challenge a token names (used or not, expired or not), or undefined. */
export async function loginChallenge(db: Executor, token: string) {
  const [challenge] = await db
    .select()
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.challengeHash, sha256(token)), eq(oneTimeCodes.purpose, 'login')))
    .limit(1);
  return challenge;
}

/** A user's newest code that `which` picks (a purpose, a hash) and that is still good: not used, not expired. */
export async function liveCode(db: Executor, userId: number, which: SQL) {
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(
      and(eq(oneTimeCodes.userId, userId), which, isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, new Date())),
    )
    .orderBy(desc(oneTimeCodes.id))
    .limit(1);
  return row;
}

/**
 * Counts one try of a code before it is checked, atomically, so parallel guesses cannot exceed its tries.
 * False when the code is used or has no try left.
 */
export async function countTry(db: Executor, codeId: number): Promise<boolean> {
  const [tried] = await db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(
      and(
        eq(oneTimeCodes.id, codeId),
        isNull(oneTimeCodes.usedAt),
        sql`${oneTimeCodes.attempts} < ${oneTimeCodes.maxAttempts}`,
      ),
    )
    .returning({ attempts: oneTimeCodes.attempts });
  return !!tried;
}

/** Marks a code used, once: false when it already was. */
export async function consumeCode(db: Executor, codeId: number): Promise<boolean> {
  const consumed = await db
    .update(oneTimeCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeCodes.id, codeId), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return consumed.length === 1;
}

/**
 * The one check of a second-factor code of the user: `email`, the six digits mailed (their keyed hash is
 * `codeHash`); `authenticator`, a code of the user's authenticator app, each time step accepted once;
 * `backup`, one of the user's unused backup codes, used up. On success consumes what must be single-use.
 */
export async function checkCode(
  deps: Deps,
  userId: number,
  method: string,
  codeHash: string | null,
  code: string,
): Promise<boolean> {
  if (method === 'email') {
    return !!codeHash && /^\d{6}$/.test(code) && safeEqualHex(codeHash, keyedHash(deps.config.secretsKey, code));
  }
  if (method === 'authenticator') {
    if (!/^\d{6}$/.test(code)) return false;
    const secret = await totpSecretOf(deps.db, userId);
    if (!secret) return false;
    const step = verifyTotp(decryptSecret(deps.config.secretsKey, secret), code);
    // single use: the step must be newer than the last accepted one
    return step !== null && (await acceptTotpStep(deps.db, userId, step));
  }
  if (method === 'backup') {
    const normalized = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
    const used = await deps.db
      .update(backupCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(backupCodes.userId, userId),
          eq(backupCodes.codeHash, keyedHash(deps.config.secretsKey, normalized)),
          isNull(backupCodes.usedAt),
        ),
      )
      .returning({ id: backupCodes.id });
    return used.length === 1;
  }
  return false;
}

/** Replaces the caller's backup codes with a new set and returns them once, in plain text. */
export async function newBackupCodes(deps: Deps, userId: number): Promise<string[]> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const raw = randomToken(8)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .padEnd(10, 'X')
      .slice(0, 10);
    return raw;
  });
  await deps.db.transaction(async (tx) => {
    await tx.delete(backupCodes).where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt)));
    await tx.insert(backupCodes).values(codes.map((c) => ({ userId, codeHash: keyedHash(deps.config.secretsKey, c) })));
  });
  return codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
}
