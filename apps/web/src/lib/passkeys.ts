import {
  MSG,
  type PasskeyAssertion,
  type PasskeyCreationOptions,
  type PasskeyRegistrationResponse,
  type PasskeyRequestOptions,
} from '@obol/contract';

/**
 * The browser side of passkeys: navigator.credentials through @simplewebauthn/browser, loaded only when a passkey
 * is used (the sign-in page's JavaScript stays small). Failures become a PasskeyError whose message is for the user.
 */
export class PasskeyError extends Error {
  override name = 'PasskeyError';
}

/** The user's words for what went wrong in the browser prompt. */
export function passkeyFailure(err: unknown): PasskeyError {
  const e = err as { name?: string; code?: string; message?: string } | null;
  if (e?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || e?.name === 'InvalidStateError')
    return new PasskeyError(MSG.passkeyExists);
  if (e?.code === 'ERROR_CEREMONY_ABORTED' || e?.name === 'NotAllowedError' || e?.name === 'AbortError')
    return new PasskeyError(MSG.passkeyCancelled);
  return new PasskeyError(e?.message || MSG.passkeyInvalid);
}

const browserLib = () => import('@simplewebauthn/browser');

async function supported() {
  const lib = await browserLib();
  if (!lib.browserSupportsWebAuthn()) throw new PasskeyError(MSG.passkeyUnsupported);
  return lib;
}

/** Runs navigator.credentials.create() with the server's options: the new credential, as the server takes it. */
export async function createPasskey(options: PasskeyCreationOptions): Promise<PasskeyRegistrationResponse> {
  const lib = await supported();
  try {
    return (await lib.startRegistration({ optionsJSON: options })) as PasskeyRegistrationResponse;
  } catch (err) {
    throw passkeyFailure(err);
  }
}

/** Runs navigator.credentials.get() with the server's options: the signed assertion. */
export async function signWithPasskey(options: PasskeyRequestOptions): Promise<PasskeyAssertion> {
  const lib = await supported();
  try {
    return (await lib.startAuthentication({ optionsJSON: options })) as PasskeyAssertion;
  } catch (err) {
    throw passkeyFailure(err);
  }
}
