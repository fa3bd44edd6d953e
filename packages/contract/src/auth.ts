import { z } from 'zod';
import { MSG } from './messages.ts';
import { ALL_PERMISSIONS, type Permission } from './permissions.ts';
import { messageAnswer, messages, operation, timestamp } from './operation.ts';
import { ROLES } from './roles.ts';
import { passkeyAssertion, passkeyRequestOptions } from './webauthn.ts';

export const email = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.emailInvalid)
  .email(MSG.emailInvalid)
  .transform((s) => s.toLowerCase());

const allowed = /^[A-Za-z0-9!@#$%^&*()+=._-]*$/;

/** The password rules of document 3, section 5. */
export const newPassword = z
  .string({ error: MSG.required })
  .min(1, MSG.required)
  .max(128, 'Maximum 128 characters allowed')
  .refine((s) => allowed.test(s), MSG.passwordCharset)
  .refine((s) => s.length >= 7, MSG.passwordMin)
  .refine((s) => /[0-9]/.test(s), MSG.passwordNumber)
  .refine((s) => /[A-Za-z]/.test(s), MSG.passwordAlphabet)
  .refine((s) => /[!@#$%^&*()+=._-]/.test(s), MSG.passwordSpecial);

export const AUTH_TYPES = ['email', 'authenticator', 'backup', 'passkey'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const loginRequest = z.object({
  email,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(128),
  auth_type: z.enum(AUTH_TYPES, { error: 'auth_type must be email, authenticator, backup or passkey' }),
});

/**
 * The second factor: `code` for an e-mailed, authenticator or backup code; `assertion` (what
 * navigator.credentials.get() answered) for a passkey. One of the two, as the challenge's auth_type wants.
 */
const verifyCodeRequest = z
  .object({
    challenge_token: z.string({ error: MSG.required }).min(1, MSG.required).max(200),
    code: z
      .string({ error: MSG.required })
      .trim()
      .min(1, MSG.required)
      .max(64)
      .transform((s) => s.replace(/\s+/g, ''))
      .optional(),
    assertion: passkeyAssertion.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.code === undefined && v.assertion === undefined)
      ctx.addIssue({ code: 'custom', message: MSG.required, path: ['code'] });
    if (v.code !== undefined && v.assertion !== undefined)
      ctx.addIssue({ code: 'custom', message: 'Send either a code or a passkey assertion', path: ['assertion'] });
  });

const permission = z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]]);

export const sessionUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  parent: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  two_fa_as_otp: z.boolean(),
});
export type SessionUser = z.output<typeof sessionUser>;

/** The caller's own accounts (payout, pay-in, CLP), or the Fee Account for staff. */
export const accountInfo = z.object({
  account_id: z.string().nullable(),
  account_reference: z.string().nullable(),
  balance: z.number().int(),
  payin_account_id: z.string().nullable(),
  payin_balance: z.number().int(),
  clp_account_id: z.string().nullable(),
  clp_balance: z.number().int(),
});
export type AccountInfo = z.output<typeof accountInfo>;

/** The batch a user was working on, resumed by a new sign-in. */
export const currentBatch = z.object({
  batch_id: z.string(),
  merchant_name: z.string(),
  file_name: z.string(),
  account_reference: z.string(),
  batch_status: z.string(),
});
export type CurrentBatch = z.output<typeof currentBatch>;

export const sessionTiming = z.object({
  /** seconds of inactivity after which the session ends */
  idle_timeout_seconds: z.number().int(),
  /** absolute end of the session, ISO 8601 UTC */
  expires_at: timestamp,
});
export type SessionTiming = z.output<typeof sessionTiming>;

const loginResponse = z.object({
  challenge_token: z.string(),
  auth_type: z.enum(AUTH_TYPES),
  /** for auth_type passkey: what the browser passes to navigator.credentials.get() (the user's passkeys) */
  passkey_options: passkeyRequestOptions.optional(),
  message: messages,
});
export type LoginResponse = z.output<typeof loginResponse>;

const verifyCodeResponse = z.object({
  accessToken: z.string(),
  user: sessionUser,
  permission: z.array(permission),
  account: accountInfo.nullable(),
  batch: currentBatch.nullable(),
  session: sessionTiming,
  message: messages,
});
export type VerifyCodeResponse = z.output<typeof verifyCodeResponse>;

const authPermissionResponse = z.object({
  status: z.boolean(),
  data: z.object({ permission: z.array(permission) }),
  session: sessionTiming,
});

export const forgotPasswordRequest = z.object({ email });
const checkLinkRequest = z.object({
  token: z.string({ error: MSG.required }).min(1, MSG.required).max(200),
  email,
});
export const setPasswordRequest = z
  .object({
    token: z.string({ error: MSG.required }).min(1, MSG.required).max(200),
    email,
    password: newPassword,
    password_confirmation: z.string({ error: MSG.required }).min(1, MSG.required),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: MSG.passwordMismatch,
    path: ['password_confirmation'],
  });
export const changePasswordRequest = z
  .object({
    current_password: z.string({ error: MSG.required }).min(1, MSG.required).max(128),
    password: newPassword,
    password_confirmation: z.string({ error: MSG.required }).min(1, MSG.required),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: MSG.passwordMismatch,
    path: ['password_confirmation'],
  });
/** New backup codes need the account's password as well as a session. */
const exportBackupCodeRequest = z.object({
  email,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(128),
});

/** Error envelope of every failed call. */
export interface ApiErrorBody {
  error: string[];
  /** field name -> messages, for 400 answers on invalid input */
  fields?: Record<string, string[]>;
  request_id?: string;
}

// ---- the calls ----

const TAG = 'Sign-in and passwords';
export const authOps = {
  login: operation({
    id: 'login',
    method: 'POST',
    path: '/api/login',
    tag: TAG,
    summary:
      'Checks the password and starts the second factor (an e-mailed code, the authenticator, a backup code or a passkey)',
    access: 'public',
    audit: 'auth.login',
    input: loginRequest,
    output: loginResponse,
  }),
  verifyCode: operation({
    id: 'verifyCode',
    method: 'POST',
    path: '/api/verify-code',
    tag: TAG,
    summary:
      'Checks the second factor (a code or a passkey assertion) and opens a session: its bearer token, the user, permissions, accounts',
    access: 'public',
    audit: 'auth.verify-code',
    input: verifyCodeRequest,
    output: verifyCodeResponse,
  }),
  logout: operation({
    id: 'logout',
    method: 'POST',
    path: '/api/logout',
    tag: TAG,
    summary: 'Ends the session',
    access: 'authenticated',
    audit: 'auth.logout',
    output: messageAnswer,
  }),
  authPermission: operation({
    id: 'authPermission',
    method: 'POST',
    path: '/api/auth-permission',
    tag: TAG,
    summary: "The caller's permissions and session timing",
    access: 'authenticated',
    output: authPermissionResponse,
  }),
  forgotPassword: operation({
    id: 'forgotPassword',
    method: 'POST',
    path: '/api/forgot-password',
    tag: TAG,
    summary: 'Mails a password link (the same answer whether or not the account exists)',
    access: 'public',
    audit: 'auth.forgot-password',
    input: forgotPasswordRequest,
    output: messageAnswer,
  }),
  checkLinkExpiry: operation({
    id: 'checkLinkExpiry',
    method: 'POST',
    path: '/api/check-link-expiry',
    tag: TAG,
    summary: 'Tells whether a password link is still valid',
    access: 'public',
    input: checkLinkRequest,
    output: messageAnswer,
  }),
  setPassword: operation({
    id: 'setPassword',
    method: 'POST',
    path: '/api/set-password',
    tag: TAG,
    summary: 'Sets a password with a password link (single use); ends every session of the account',
    access: 'public',
    audit: 'auth.set-password',
    input: setPasswordRequest,
    output: messageAnswer,
  }),
  changePassword: operation({
    id: 'changePassword',
    method: 'POST',
    path: '/api/change-password',
    tag: TAG,
    summary: "Changes the caller's password; ends the account's other sessions",
    access: 'authenticated',
    audit: 'auth.change-password',
    input: changePasswordRequest,
    output: messageAnswer,
  }),
  exportBackupCode: operation({
    id: 'exportBackupCode',
    method: 'POST',
    path: '/api/export-backup-code',
    tag: TAG,
    summary: 'New backup codes (after the password), as a text file; the old ones stop working',
    access: 'authenticated',
    audit: 'auth.export-backup-code',
    input: exportBackupCodeRequest,
    output: { file: ['text/plain'] },
  }),
} as const;
