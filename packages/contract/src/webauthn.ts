import { z } from 'zod';

/**
 * The WebAuthn messages as they travel in JSON (WebAuthn level 3, the `...JSON` dictionaries that
 * @simplewebauthn/browser and @simplewebauthn/server exchange): binary fields are base64url strings.
 */

const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

/** The transports an authenticator may name; others a browser reports are dropped. */
export const AUTHENTICATOR_TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
export type AuthenticatorTransport = (typeof AUTHENTICATOR_TRANSPORTS)[number];

const credentialDescriptor = z.object({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.array(z.enum(AUTHENTICATOR_TRANSPORTS)).optional(),
});

const userVerification = z.enum(['required', 'preferred', 'discouraged']);
const hints = z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional();
/** the one extension asked for: whether the new credential is discoverable */
const extensions = z.object({ credProps: z.boolean().optional() }).optional();

/** What the browser passes to navigator.credentials.create() to register a passkey. */
export const passkeyCreationOptions = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
  timeout: z.number().int().optional(),
  attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: userVerification.optional(),
    })
    .optional(),
  hints,
  extensions,
});
export type PasskeyCreationOptions = z.output<typeof passkeyCreationOptions>;

/** What the browser passes to navigator.credentials.get() to sign in with one of the user's passkeys. */
export const passkeyRequestOptions = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  timeout: z.number().int().optional(),
  userVerification: userVerification.optional(),
  hints,
  extensions,
});
export type PasskeyRequestOptions = z.output<typeof passkeyRequestOptions>;

const credentialCommon = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key', { error: 'type must be public-key' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

/** The new credential navigator.credentials.create() answered (RegistrationResponseJSON). */
export const passkeyRegistrationResponse = z.object(
  {
    ...credentialCommon,
    response: z.object({
      clientDataJSON: b64url(8192),
      attestationObject: b64url(32768),
      authenticatorData: b64url(8192).optional(),
      transports: z.array(z.string().max(32)).max(16).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url(8192).optional(),
    }),
  },
  { error: 'The passkey response is missing' },
);
export type PasskeyRegistrationResponse = z.input<typeof passkeyRegistrationResponse>;

/** The signature navigator.credentials.get() answered (AuthenticationResponseJSON). */
export const passkeyAssertion = z.object({
  ...credentialCommon,
  response: z.object({
    clientDataJSON: b64url(8192),
    authenticatorData: b64url(8192),
    signature: b64url(2048),
    userHandle: b64url(1024).optional(),
  }),
});
export type PasskeyAssertion = z.input<typeof passkeyAssertion>;
