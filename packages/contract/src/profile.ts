import { z } from 'zod';
import { MSG } from './messages.ts';
import { messages, operation, timestamp } from './operation.ts';
import type { RoleName } from './roles.ts';

/** The caller's password, re-entered to confirm a change of the account's own security. */
const currentPassword = z.string({ error: MSG.required }).min(1, MSG.required).max(128);

// ---- the 2FA-for-payouts switch: e-mailed codes or the authenticator app ----

const twoFaSetupRequest = z.object({ current_password: currentPassword });

/**
 * A new authenticator secret, pending until a code from the app confirms it (the active one, if any, keeps
 * working until then): the otpauth:// URI, the secret in base32 for typing in, and the URI as a QR code (an SVG
 * data URL).
 */
const twoFaSetupResponse = z.object({
  otpauth_url: z.string(),
  secret: z.string(),
  qr_code: z.string(),
  /** the pending secret must be confirmed before this time */
  expires_at: timestamp,
  message: messages,
});
export type TwoFaSetupResponse = z.output<typeof twoFaSetupResponse>;

const switchValue = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], {
    error: 'enable_two_fa must be true or false',
  })
  .transform((v) => v === true || v === 1 || v === '1');

/**
 * `enable_two_fa` true: codes (sign-in and payouts) come from the authenticator app, once `code` from the app
 * confirms the pending secret; false: they go by e-mail again (the authenticator secret is forgotten).
 */
const enableTwoFaRequest = z
  .object({
    enable_two_fa: switchValue,
    current_password: currentPassword,
    code: z
      .string({ error: 'code must be text' })
      .max(64)
      .transform((s) => s.replace(/\s+/g, ''))
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.enable_two_fa && !v.code) ctx.addIssue({ code: 'custom', message: MSG.required, path: ['code'] });
    else if (v.enable_two_fa && !/^\d{6}$/.test(v.code ?? ''))
      ctx.addIssue({ code: 'custom', message: TWO_FA_MSG.codeDigits, path: ['code'] });
  });

const enableTwoFaResponse = z.object({ two_fa_as_otp: z.boolean(), message: messages });
export type EnableTwoFaResponse = z.output<typeof enableTwoFaResponse>;

export const TWO_FA_MSG = {
  codeDigits: 'The code has 6 digits',
  noPendingSetup: 'Scan a new QR code first: the authenticator setup has expired or was not started.',
  toAuthenticator: 'Codes now come from your authenticator app.',
  toEmail: 'Codes are now sent to your e-mail.',
  setupStarted: 'Scan the QR code with your authenticator app, then enter the code it shows.',
} as const;

// ---- the caller's own API key (Merchant and Brand) ----

export const API_KEY_ROLES = ['Merchant', 'Brand'] as const satisfies readonly RoleName[];
export const hasOwnApiKey = (role: RoleName) => (API_KEY_ROLES as readonly string[]).includes(role);

/** What the profile shows before a reveal: the account reference and the masked public key. */
const apiKeyOverviewResponse = z.object({
  account_reference: z.string().nullable(),
  /** e.g. `pk_3fA9…x2Qe`; null when the account has no key yet */
  public_key_masked: z.string().nullable(),
  created_at: timestamp.nullable(),
});
export type ApiKeyOverview = z.output<typeof apiKeyOverviewResponse>;

const apiKeyRequest = z.object({
  current_password: z.string({ error: MSG.requiredShort }).min(1, MSG.requiredShort).max(128),
  email: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(254).toLowerCase(),
});

/** The keys in plain text, only after the password: the one answer that ever carries the private key. */
const apiKeyResponse = z.object({
  user_verified: z.literal(1),
  public_key: z.string(),
  private_key: z.string(),
  account_reference: z.string().nullable(),
  /** a merchant's brands' keys, in plain text too */
  brands: z
    .array(z.object({ id: z.number().int(), name: z.string(), public_key: z.string(), private_key: z.string() }))
    .optional(),
  message: messages,
});
export type ApiKeyResponse = z.output<typeof apiKeyResponse>;

/** How long a rotated key keeps working beside its successor, so integrations can switch without downtime. */
export const API_KEY_GRACE_HOURS = 24;

/** Rotate the caller's key: the password again (the same rules and limits as a reveal). */
const rotateApiKeyRequest = z.object({
  current_password: z.string({ error: MSG.requiredShort }).min(1, MSG.requiredShort).max(128),
});

/** The new keys in plain text, and until when the previous public key still authenticates. */
const rotateApiKeyResponse = z.object({
  public_key: z.string(),
  private_key: z.string(),
  previous_public_key_masked: z.string().nullable(),
  previous_valid_until: timestamp.nullable(),
  message: messages,
});
export type RotateApiKeyResponse = z.output<typeof rotateApiKeyResponse>;

/** The masked form of a public key: its prefix and first 4 characters, an ellipsis and its last 4. */
export function maskKey(key: string): string {
  if (key.length <= 12) return `${key.slice(0, 3)}…`;
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}

// ---- the calls ----

const TAG = 'Profile';
export const profileOps = {
  twoFaSetup: operation({
    id: 'twoFaSetup',
    method: 'POST',
    path: '/api/two-fa-setup',
    tag: TAG,
    summary:
      'After the password: a new authenticator secret, pending until a code confirms it (otpauth URI, secret, QR code)',
    access: 'authenticated',
    audit: 'auth.two-fa-setup',
    input: twoFaSetupRequest,
    output: twoFaSetupResponse,
  }),
  enableTwoFa: operation({
    id: 'enableTwoFa',
    method: 'POST',
    path: '/api/enable-two-fa',
    tag: TAG,
    summary:
      'After the password: codes from the authenticator (confirming the pending secret with a code) or by e-mail',
    access: 'authenticated',
    audit: 'auth.enable-two-fa',
    input: enableTwoFaRequest,
    output: enableTwoFaResponse,
  }),
  apiKeyOverview: operation({
    id: 'apiKeyOverview',
    method: 'POST',
    path: '/api/api-key-overview',
    tag: TAG,
    summary: "The caller's account reference and masked public key (a Merchant's or Brand's own)",
    access: { roles: API_KEY_ROLES },
    output: apiKeyOverviewResponse,
  }),
  apiKey: operation({
    id: 'apiKey',
    method: 'POST',
    path: '/api/api-key',
    tag: TAG,
    summary: "After the password: the caller's own public and private key in plain text (every reveal is logged)",
    access: { roles: API_KEY_ROLES },
    audit: 'api-key.reveal',
    input: apiKeyRequest,
    output: apiKeyResponse,
  }),
  rotateApiKey: operation({
    id: 'rotateApiKey',
    method: 'POST',
    path: '/api/rotate-api-key',
    tag: TAG,
    summary: `After the password: a new key pair for the caller; the previous key keeps working for ${API_KEY_GRACE_HOURS} hours`,
    access: { roles: API_KEY_ROLES },
    audit: 'api-key.rotate',
    input: rotateApiKeyRequest,
    output: rotateApiKeyResponse,
  }),
} as const;
