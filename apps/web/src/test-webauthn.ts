/** For component tests: a browser with WebAuthn, whose navigator.credentials answers like an authenticator. */
import { vi } from 'vitest';

const buf = (s: string) => new TextEncoder().encode(s).buffer;
/** base64url of 'cred', the id of the credential the fake authenticator answers with */
export const FAKE_CREDENTIAL_ID = 'Y3JlZA';

export function stubWebAuthn() {
  const create = vi.fn(async (_options: CredentialCreationOptions): Promise<unknown> => ({
    id: FAKE_CREDENTIAL_ID,
    rawId: buf('cred'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: buf('{"type":"webauthn.create"}'),
      attestationObject: buf('attestation'),
      getTransports: () => ['internal'],
    },
    getClientExtensionResults: () => ({}),
  }));
  const get = vi.fn(async (_options: CredentialRequestOptions): Promise<unknown> => ({
    id: FAKE_CREDENTIAL_ID,
    rawId: buf('cred'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: buf('{"type":"webauthn.get"}'),
      authenticatorData: buf('authdata'),
      signature: buf('signature'),
      userHandle: null,
    },
    getClientExtensionResults: () => ({}),
  }));
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  Object.defineProperty(navigator, 'credentials', { value: { create, get }, configurable: true });
  return { create, get };
}

/** What a browser throws when the user closes the passkey prompt. */
export const promptClosed = () =>
  new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');
