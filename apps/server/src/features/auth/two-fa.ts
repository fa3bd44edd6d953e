import { MSG, TWO_FA_MSG, type EnableTwoFaResponse, type TwoFaSetupResponse } from '@obol/contract';
import QRCode from 'qrcode';
import { decryptSecret, encryptSecret, newTotpSecret, verifyTotp } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { activatePendingTotp, setPendingTotp, useEmailCodes } from '../users/credentials.ts';
import { confirmPassword } from './passwords.ts';

/** How long a new authenticator secret waits for the code that confirms it. */
export const TOTP_SETUP_TTL_MS = 10 * 60_000;

export const ISSUER = 'Obol';

/**
 * The otpauth:// URI authenticator apps read (Key Uri Format): issuer, account, base32 secret, SHA-1, 6 digits,
 * 30 s.
 */
export const otpauthUrl = (email: string, secret: string) =>
  `otpauth://totp/${ISSUER}:${encodeURIComponent(email)}?secret=${secret}&issuer=${ISSUER}&algorithm=SHA1&digits=6&period=30`;

/** What the profile's switch is set to, for the activity log's before and after. */
const state = (twoFaAsOtp: boolean) => ({
  two_fa_as_otp: twoFaAsOtp,
  codes_by: twoFaAsOtp ? 'email' : 'authenticator',
});

export interface TwoFaAudit {
  before?: unknown;
  after?: unknown;
  detail?: string;
}

/**
 * Starts enrolling the authenticator, after the password: a new secret kept pending (encrypted with SECRETS_KEY)
 * beside the active one, which keeps working until a code confirms the new one. Counted per user (429), and the
 * password under the account's and the address's sign-in limits.
 */
export async function startTotpSetup(
  deps: Deps,
  auth: AuthContext,
  password: string,
  ip: string,
  audit: (a: TwoFaAudit) => void,
): Promise<TwoFaSetupResponse> {
  await throttle(deps, 'twoFa', auth.user.id);
  const user = await confirmPassword(deps, auth, password, ip, 'current_password');
  const secret = newTotpSecret();
  const until = new Date(Date.now() + TOTP_SETUP_TTL_MS);
  await setPendingTotp(deps.db, user.id, encryptSecret(deps.config.secretsKey, secret), until);
  const url = otpauthUrl(user.email, secret);
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  // never the secret: only that a setup is pending
  audit({
    before: { ...state(user.twoFaAsOtp), authenticator_pending: !!user.totpPendingEnc },
    after: { ...state(user.twoFaAsOtp), authenticator_pending: true },
    detail: `authenticator setup started, to be confirmed by ${until.toISOString()}`,
  });
  return {
    otpauth_url: url,
    secret,
    qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    expires_at: until.toISOString(),
    message: [TWO_FA_MSG.setupStarted],
  };
}

const codeRefused = (message: string) => new ApiError(422, [message], { code: [message] });

/**
 * The 2FA-for-payouts switch, after the password. To the authenticator: `code` must be a current code of the
 * pending secret, which then becomes the active one (in one conditional UPDATE) and codes of sign-in and payouts
 * come from the app. To e-mail: the authenticator secret is forgotten. Counted like the setup.
 */
export async function switchTwoFa(
  deps: Deps,
  auth: AuthContext,
  input: { enable_two_fa: boolean; current_password: string; code?: string },
  ip: string,
  audit: (a: TwoFaAudit) => void,
): Promise<EnableTwoFaResponse> {
  await throttle(deps, 'twoFa', auth.user.id);
  const user = await confirmPassword(deps, auth, input.current_password, ip, 'current_password');
  const before = state(user.twoFaAsOtp);
  if (!input.enable_two_fa) {
    await useEmailCodes(deps.db, user.id);
    audit({ before, after: state(true), detail: 'codes by e-mail; authenticator secret removed' });
    return { two_fa_as_otp: true, message: [TWO_FA_MSG.toEmail] };
  }
  const pending = user.totpPendingEnc;
  if (!pending || !user.totpPendingUntil || user.totpPendingUntil.getTime() <= Date.now()) {
    throw codeRefused(TWO_FA_MSG.noPendingSetup);
  }
  const step = verifyTotp(decryptSecret(deps.config.secretsKey, pending), input.code ?? '');
  if (step === null) throw codeRefused(MSG.invalidCode);
  if (!(await activatePendingTotp(deps.db, user.id, pending, step))) throw codeRefused(TWO_FA_MSG.noPendingSetup);
  audit({ before, after: state(false), detail: 'authenticator confirmed with a code; codes from the app' });
  return { two_fa_as_otp: false, message: [TWO_FA_MSG.toAuthenticator] };
}
