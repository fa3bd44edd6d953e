import type { Config } from '../../platform/config.ts';

/** The WebAuthn relying party a request is answered as: its id (a domain) and the origin browsers sign for. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

/**
 * WEBAUTHN_ORIGIN and WEBAUTHN_RP_ID when set. Otherwise in production the origin of PUBLIC_URL, and elsewhere the
 * origin the request was sent to (its protocol and Host header), so a development server works under the name it
 * is reached by (localhost, a Vite proxy that keeps the Host). The RP ID defaults to the origin's host name.
 */
export function relyingParty(config: Config, req: { protocol: string; host: string }): RelyingParty {
  const origin =
    config.webauthnOrigin ?? new URL(config.production ? config.publicUrl : `${req.protocol}://${req.host}`).origin;
  return { origin, rpID: config.webauthnRpId ?? new URL(origin).hostname };
}
