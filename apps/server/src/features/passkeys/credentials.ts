import type { AuthenticatorTransport, PasskeyAssertion, PasskeyRequestOptions, PasskeyRow } from '@obol/contract';
import { AUTHENTICATOR_TRANSPORTS } from '@obol/contract';
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, asc, eq, sql } from 'drizzle-orm';
import { safeEqualHex, sha256 } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { RelyingParty } from './rp.ts';
import { passkeys } from './tables.ts';

/** How long the browser prompt may take (the sign-in challenge itself lasts as long as an e-mailed code). */
export const PROMPT_TIMEOUT_MS = 2 * 60_000;

export const knownTransports = (list: readonly string[] | undefined): AuthenticatorTransport[] =>
  (list ?? []).filter((t): t is AuthenticatorTransport => (AUTHENTICATOR_TRANSPORTS as readonly string[]).includes(t));

const toRow = (p: typeof passkeys.$inferSelect): PasskeyRow => ({
  id: p.id,
  name: p.name,
  created_at: p.createdAt.toISOString(),
  last_used_at: p.lastUsedAt?.toISOString() ?? null,
});

/** The user's passkeys, oldest first. */
export async function passkeysOf(db: Executor, userId: number) {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
}

/** Whether the user has a passkey (a sign-in factor stronger than an e-mailed code). */
export async function hasPasskey(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return !!row;
}

export async function listPasskeys(db: Executor, userId: number): Promise<PasskeyRow[]> {
  return (await passkeysOf(db, userId)).map(toRow);
}

export { toRow as passkeyRow };

/**
 * Starts a passkey sign-in of the user: the options for navigator.credentials.get() (allowCredentials = the user's
 * passkeys) and the hash of their challenge, which the sign-in challenge keeps. Null when the user has no passkey.
 */
export async function startPasskeySignIn(
  deps: Deps,
  userId: number,
  rp: RelyingParty,
): Promise<{ options: PasskeyRequestOptions; challengeHash: string } | null> {
  const mine = await passkeysOf(deps.db, userId);
  if (!mine.length) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: knownTransports(p.transports) })),
    // the password was the first factor: the passkey proves possession, a PIN or a fingerprint is welcome
    userVerification: 'preferred',
    timeout: PROMPT_TIMEOUT_MS,
  });
  return {
    options: {
      ...options,
      allowCredentials: options.allowCredentials?.map((c) => ({
        ...c,
        type: 'public-key' as const,
        transports: knownTransports(c.transports),
      })),
    },
    challengeHash: sha256(options.challenge),
  };
}

/**
 * The one check of a passkey assertion for the user's sign-in challenge (`challengeHash`, the hash of the WebAuthn
 * challenge it sent): the credential must be one of the user's, signed over that challenge, for this relying
 * party's origin and RP ID, with a signature counter above the one kept. The counter is raised in one conditional
 * UPDATE, so two racing uses of one signature cannot both pass. False on anything wrong.
 */
export async function checkPasskeyAssertion(
  deps: Deps,
  userId: number,
  challengeHash: string | null,
  assertion: PasskeyAssertion,
  rp: RelyingParty,
): Promise<boolean> {
  if (!challengeHash) return false;
  const [key] = await deps.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, assertion.id), eq(passkeys.userId, userId)))
    .limit(1);
  if (!key) return false;
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response: { ...assertion, clientExtensionResults: assertion.clientExtensionResults ?? {} },
      expectedChallenge: (c) => safeEqualHex(sha256(c), challengeHash),
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: key.credentialId,
        publicKey: isoBase64URL.toBuffer(key.publicKey),
        counter: key.counter,
        transports: key.transports,
      },
      requireUserVerification: false,
    });
    if (!verified.verified) return false;
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    return false;
  }
  const raised = await deps.db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(
      and(
        eq(passkeys.id, key.id),
        // an authenticator that keeps no counter sends 0 each time; one that does must go up
        sql`(${passkeys.counter} < ${newCounter} OR (${passkeys.counter} = 0 AND ${newCounter}::int = 0))`,
      ),
    )
    .returning({ id: passkeys.id });
  return raised.length === 1;
}
