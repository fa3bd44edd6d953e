import { z } from 'zod';
import { MSG } from './messages.ts';
import type { Permission } from './permissions.ts';
import type { RoleName } from './roles.ts';

export const email = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.emailInvalid)
  .email(MSG.emailInvalid)
  .transform((s) => s.toLowerCase());

export const PASSWORD_SYMBOLS = '!@#$%^&*()+=._-';
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

export const AUTH_TYPES = ['email', 'authenticator', 'backup'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const loginRequest = z.object({
  email,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(128),
  auth_type: z.enum(AUTH_TYPES, { error: 'auth_type must be email, authenticator or backup' }),
});
export type LoginRequest = z.input<typeof loginRequest>;
export interface LoginResponse {
  challenge_token: string;
  auth_type: AuthType;
  message: string[];
}

export const verifyCodeRequest = z.object({
  challenge_token: z.string({ error: MSG.required }).min(1, MSG.required).max(200),
  code: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .max(64)
    .transform((s) => s.replace(/\s+/g, '')),
});
export type VerifyCodeRequest = z.input<typeof verifyCodeRequest>;

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  role: RoleName;
  parent: { id: number; name: string } | null;
  two_fa_as_otp: boolean;
}
export interface AccountInfo {
  account_id: string | null;
  account_reference: string | null;
  balance: number;
  payin_account_id: string | null;
  payin_balance: number;
  clp_account_id: string | null;
  clp_balance: number;
}
export interface CurrentBatch {
  batch_id: string;
  merchant_name: string;
  file_name: string;
  account_reference: string;
  batch_status: string;
}
export interface SessionTiming {
  /** seconds of inactivity after which the session ends */
  idle_timeout_seconds: number;
  /** absolute end of the session, ISO 8601 UTC */
  expires_at: string;
}
export interface VerifyCodeResponse {
  accessToken: string;
  user: SessionUser;
  permission: Permission[];
  account: AccountInfo | null;
  batch: CurrentBatch | null;
  session: SessionTiming;
  message: string[];
}
export interface AuthPermissionResponse {
  status: boolean;
  data: { permission: Permission[] };
  session: SessionTiming;
}

export const forgotPasswordRequest = z.object({ email });
export const checkLinkRequest = z.object({
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
export const exportBackupCodeRequest = z.object({
  email,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(128),
});
export type ExportBackupCodeRequest = z.input<typeof exportBackupCodeRequest>;

/** Error envelope of every failed call. */
export interface ApiErrorBody {
  error: string[];
  /** field name -> messages, for 400 answers on invalid input */
  fields?: Record<string, string[]>;
  request_id?: string;
}
