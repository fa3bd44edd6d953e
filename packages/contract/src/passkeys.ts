import { z } from 'zod';
import { MSG } from './messages.ts';
import { messages, operation, timestamp } from './operation.ts';
import { INT4_MAX, wholeNumber } from './params.ts';
import { passkeyCreationOptions, passkeyRegistrationResponse } from './webauthn.ts';

/** At most this many passkeys per user. */
export const MAX_PASSKEYS = 10;

const currentPassword = z.string({ error: MSG.required }).min(1, MSG.required).max(128);
const passkeyName = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(50, 'Maximum 50 characters allowed');
const passkeyId = wholeNumber('id', 1, INT4_MAX, {
  invalid: MSG.required,
  min: MSG.passkeyNotFound,
  max: MSG.passkeyNotFound,
  whole: MSG.passkeyNotFound,
});

const passkeyRegisterOptionsRequest = z.object({ current_password: currentPassword });
const passkeyRegisterOptionsResponse = z.object({ options: passkeyCreationOptions, message: messages });

const passkeyRegisterRequest = z.object({ response: passkeyRegistrationResponse, name: passkeyName });

/** A passkey as its owner sees it in the profile (never its key). */
export const passkeyRow = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
});
export type PasskeyRow = z.output<typeof passkeyRow>;

const passkeyAnswer = z.object({ passkey: passkeyRow, message: messages });
const passkeyListResponse = z.object({ data: z.array(passkeyRow), total: z.number().int() });

const renamePasskeyRequest = z.object({ id: passkeyId, name: passkeyName });
const deletePasskeyRequest = z.object({ id: passkeyId, current_password: currentPassword });

// ---- the calls ----

const TAG = 'Passkeys';
const PROFILE = 'User can view profile';
export const passkeyOps = {
  passkeyRegisterOptions: operation({
    id: 'passkeyRegisterOptions',
    method: 'POST',
    path: '/api/passkey-register-options',
    tag: TAG,
    summary:
      'After the password, the options for navigator.credentials.create(): a one-time challenge bound to the caller and session (5 minutes)',
    access: PROFILE,
    audit: 'passkeys.register-options',
    input: passkeyRegisterOptionsRequest,
    output: passkeyRegisterOptionsResponse,
  }),
  passkeyRegister: operation({
    id: 'passkeyRegister',
    method: 'POST',
    path: '/api/passkey-register',
    tag: TAG,
    summary: "Verifies the new credential against the caller's challenge (used up) and keeps it as a passkey",
    access: PROFILE,
    audit: 'passkeys.register',
    input: passkeyRegisterRequest,
    output: passkeyAnswer,
    status: 201,
  }),
  passkeys: operation({
    id: 'passkeys',
    method: 'POST',
    path: '/api/passkeys',
    tag: TAG,
    summary: "The caller's passkeys: name, when added, when last used",
    access: PROFILE,
    output: passkeyListResponse,
  }),
  renamePasskey: operation({
    id: 'renamePasskey',
    method: 'POST',
    path: '/api/rename-passkey',
    tag: TAG,
    summary: "Renames one of the caller's passkeys",
    access: PROFILE,
    audit: 'passkeys.rename',
    input: renamePasskeyRequest,
    output: passkeyAnswer,
  }),
  deletePasskey: operation({
    id: 'deletePasskey',
    method: 'POST',
    path: '/api/delete-passkey',
    tag: TAG,
    summary: "Removes one of the caller's passkeys, after the password",
    access: PROFILE,
    audit: 'passkeys.delete',
    input: deletePasskeyRequest,
    output: z.object({ message: messages }),
  }),
} as const;
