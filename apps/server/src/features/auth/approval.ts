import { MSG } from '@obol/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { keyedHash, sixDigitCode } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, tooManyRequests } from '../../platform/errors.ts';
import { throttle } from '../../platform/limits.ts';
import { hashPayload } from '../../platform/hash.ts';
import type { AuthUser } from '../../platform/http.ts';
import { checkCode, consumeCode, countTry, liveCode } from './second-factor.ts';
import { oneTimeCodes } from './tables.ts';

export const APPROVAL_CODE_TTL_MS = 10 * 60_000;

/**
 * A one-time code that approves one money movement: bound to what it approves (operation, amount, wallet,
 * batch), single-use, expiring, 5 tries. By e-mail, or from the authenticator app when the user chose it.
 * Wrong codes answer 422 (not 401, which means the session ended).
 */
/** '10 minutes', '24 hours': how long a code is valid, for its mail */
const validity = (ms: number) => {
  const [n, unit] = ms % 3_600_000 === 0 ? [ms / 3_600_000, 'hour'] : [Math.round(ms / 60_000), 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
};

export async function issueApprovalCode(
  deps: Deps,
  user: AuthUser,
  purpose: string,
  binding: Record<string, unknown>,
  describe: string,
  /** how long the code is valid (a refund's is 24 hours, section 4) */
  ttlMs = APPROVAL_CODE_TTL_MS,
): Promise<{ message: string[] }> {
  await throttle(deps, 'approvalCode', user.id); // per user: 429 past the limit (limit-rules.ts DEFAULT_LIMITS)
  const email = user.twoFaAsOtp;
  const code = email ? sixDigitCode() : null;
  await deps.db.transaction(async (tx) => {
    // a new code replaces any open code of the same purpose
    await tx
      .update(oneTimeCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt)));
    await tx.insert(oneTimeCodes).values({
      userId: user.id,
      purpose,
      method: email ? 'email' : 'authenticator',
      codeHash: code ? keyedHash(deps.config.secretsKey, code) : null,
      binding: { ...binding, hash: hashPayload(binding) },
      expiresAt: new Date(Date.now() + ttlMs),
    });
  });
  if (code) {
    await deps.mailer.send({
      to: user.email,
      subject: 'Your Obol approval code',
      template: 'approval-code',
      text: `Hello ${user.name},\n\nYour code to approve ${describe} is ${code}.\nIt is valid for ${validity(ttlMs)}, can be used once, and approves nothing else.\n`,
      code,
    });
    return { message: ['A verification code has been sent to your e-mail'] };
  }
  return { message: ['Enter the code from your authenticator app'] };
}

const invalidCode = () => new ApiError(422, [MSG.invalidCode], { code: [MSG.invalidCode] });

export async function consumeApprovalCode(
  deps: Deps,
  user: AuthUser,
  purpose: string,
  binding: Record<string, unknown>,
  code: string,
): Promise<void> {
  const row = await liveCode(deps.db, user.id, eq(oneTimeCodes.purpose, purpose));
  if (!row) throw invalidCode();
  if (!(await countTry(deps.db, row.id))) throw tooManyRequests();
  const bound = (row.binding as { hash?: string } | null)?.hash;
  if (bound !== hashPayload(binding)) {
    throw new ApiError(422, ['This code does not approve this transaction'], {
      code: ['This code does not approve this transaction'],
    });
  }
  // an approval is by e-mail or authenticator only (never a backup code), spaces ignored
  const ok =
    (row.method === 'email' || row.method === 'authenticator') &&
    (await checkCode(deps, user.id, row.method, row.codeHash, code.replace(/\s+/g, '')));
  if (!ok) throw invalidCode();
  if (!(await consumeCode(deps.db, row.id))) throw invalidCode();
}
