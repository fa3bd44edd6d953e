import {
  MAX_PASSKEYS,
  MSG,
  type PasskeyCreationOptions,
  type PasskeyRegistrationResponse,
  type PasskeyRow,
} from '@obol/contract';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { keyedHash, sha256 } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { countDeleted } from '../../platform/housekeeping.ts';
import { knownTransports, passkeyRow, passkeysOf, PROMPT_TIMEOUT_MS } from './credentials.ts';
import type { RelyingParty } from './rp.ts';
import { passkeyChallenges, passkeys } from './tables.ts';

/**
 * Checks the signed-in user's own password through the sign-in counters (auth's confirmPassword: auth sits above
 * passkeys, so the app hands it in); answers the user.
 */
export type ConfirmPassword = (
  deps: Deps,
  auth: AuthContext,
  password: string,
  ip: string,
  field: string,
) => Promise<{ id: number; name: string; email: string }>;

/** A registration challenge is answered within this time, once. */
export const REGISTER_CHALLENGE_TTL_MS = 5 * 60_000;

/** How long a used or expired challenge is kept (for an investigation of a failed registration). */
export const PASSKEY_CHALLENGE_KEEP_SECONDS = 24 * 60 * 60;

/** Deletes the challenges expired or used a day ago: a challenge is only ever accepted unused and unexpired. */
export function pruneChallenges(db: Executor): Promise<number> {
  return countDeleted(
    db,
    sql`WITH d AS (DELETE FROM passkey_challenges
      WHERE coalesce(used_at, expires_at) <= now() - make_interval(secs => ${PASSKEY_CHALLENGE_KEEP_SECONDS}::int)
      RETURNING 1)
    SELECT count(*)::int AS n FROM d`,
  );
}

/**
 * After the password (through the sign-in counters: a session cannot be used to guess it), the options for
 * navigator.credentials.create(): a challenge kept (hashed) for this user and session, single-use, expiring;
 * it voids the session's earlier ones. The user handle is a keyed hash of the user id, never the e-mail.
 */
export async function registerOptions(
  deps: Deps,
  auth: AuthContext,
  password: string,
  ip: string,
  rp: RelyingParty,
  confirmPassword: ConfirmPassword,
): Promise<PasskeyCreationOptions> {
  const user = await confirmPassword(deps, auth, password, ip, 'current_password');
  const mine = await passkeysOf(deps.db, user.id);
  if (mine.length >= MAX_PASSKEYS) throw unprocessable(MSG.passkeyLimit);
  const options = await generateRegistrationOptions({
    rpName: 'Obol',
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: Buffer.from(keyedHash(deps.config.secretsKey, `webauthn-user:${user.id}`), 'hex'),
    attestationType: 'none',
    excludeCredentials: mine.map((p) => ({ id: p.credentialId, transports: knownTransports(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: PROMPT_TIMEOUT_MS,
  });
  await deps.db.transaction(async (tx) => {
    await tx
      .update(passkeyChallenges)
      .set({ usedAt: new Date() })
      .where(and(eq(passkeyChallenges.sessionId, auth.sessionId), isNull(passkeyChallenges.usedAt)));
    await tx.insert(passkeyChallenges).values({
      userId: user.id,
      sessionId: auth.sessionId,
      challengeHash: sha256(options.challenge),
      expiresAt: new Date(Date.now() + REGISTER_CHALLENGE_TTL_MS),
    });
  });
  return {
    ...options,
    excludeCredentials: options.excludeCredentials?.map((c) => ({
      ...c,
      type: 'public-key' as const,
      transports: knownTransports(c.transports),
    })),
  };
}

/** The challenge the browser signed, read from its client data; '' when unreadable. */
function signedChallenge(response: PasskeyRegistrationResponse): string {
  try {
    return decodeClientDataJSON(response.response.clientDataJSON).challenge ?? '';
  } catch {
    return '';
  }
}

/**
 * Verifies a new credential and keeps it. Its challenge must be one this user's session asked for, unused and not
 * expired: it is used up first, in one conditional UPDATE, whether or not the credential then verifies. The
 * number of passkeys is checked and the new one inserted under a per-user lock; a credential already registered
 * (to anyone) is 409.
 */
export async function register(
  deps: Deps,
  auth: AuthContext,
  input: { response: PasskeyRegistrationResponse; name: string },
  rp: RelyingParty,
): Promise<PasskeyRow> {
  const challenge = signedChallenge(input.response);
  const [claimed] = await deps.db
    .update(passkeyChallenges)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passkeyChallenges.challengeHash, sha256(challenge)),
        eq(passkeyChallenges.userId, auth.user.id),
        eq(passkeyChallenges.sessionId, auth.sessionId),
        isNull(passkeyChallenges.usedAt),
        gt(passkeyChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ id: passkeyChallenges.id });
  if (!challenge || !claimed) throw unprocessable(MSG.passkeyExpired);

  let credential;
  try {
    const verified = await verifyRegistrationResponse({
      response: { ...input.response, clientExtensionResults: input.response.clientExtensionResults ?? {} },
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
    if (!verified.verified) throw unprocessable(MSG.passkeyInvalid);
    credential = verified.registrationInfo.credential;
  } catch {
    throw unprocessable(MSG.passkeyInvalid);
  }

  const row = await deps.db.transaction(async (tx) => {
    // one user's registrations queue here, so the count below holds until the insert
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('passkeys'), ${auth.user.id}::int)`);
    const [{ n }] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, auth.user.id));
    if (n >= MAX_PASSKEYS) throw unprocessable(MSG.passkeyLimit);
    const [inserted] = await tx
      .insert(passkeys)
      .values({
        userId: auth.user.id,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: knownTransports(credential.transports ?? input.response.response.transports),
        name: input.name,
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning();
    return inserted;
  });
  if (!row) throw conflict(MSG.passkeyExists);
  return passkeyRow(row);
}

/** Renames one of the caller's passkeys: before and after, or 404 when it is not theirs. */
export async function rename(deps: Deps, auth: AuthContext, id: number, name: string) {
  return deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, auth.user.id)))
      .for('update');
    if (!before) throw notFound(MSG.passkeyNotFound);
    const [after] = await tx.update(passkeys).set({ name }).where(eq(passkeys.id, id)).returning();
    return { before: passkeyRow(before), after: passkeyRow(after) };
  });
}

/**
 * Removes one of the caller's passkeys after the password. 404 (before the password is asked) when the passkey is
 * not theirs or does not exist. Returns what was removed.
 */
export async function remove(
  deps: Deps,
  auth: AuthContext,
  id: number,
  password: string,
  ip: string,
  confirmPassword: ConfirmPassword,
) {
  const mine = (await passkeysOf(deps.db, auth.user.id)).find((p) => p.id === id);
  if (!mine) throw notFound(MSG.passkeyNotFound);
  await confirmPassword(deps, auth, password, ip, 'current_password');
  const [gone] = await deps.db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, auth.user.id)))
    .returning();
  if (!gone) throw notFound(MSG.passkeyNotFound);
  return passkeyRow(gone);
}
