// The product's rate limits and sign-in throttle: what is limited and how much
// (docs/decisions/005-sign-in-and-sessions.md).

/** A fixed window: at most `limit` counted events per key within `seconds`. */
export interface RateWindow {
  limit: number;
  seconds: number;
}

/**
 * What is throttled and how much (docs/decisions/005-sign-in-and-sessions.md). Not read from the environment:
 * these are the product's rules; tests may change them on their own app's config.
 */
export interface Limits {
  /** sign-in attempts per account: free attempts, then each next one waits first, 2x first, ... up to max seconds */
  account: { freeAttempts: number; firstDelaySeconds: number; maxDelaySeconds: number; quietSeconds: number };
  /** failed sign-in steps (password, second factor, current password) per client address */
  signInAddress: RateWindow;
  /** password-reset mails per e-mail address asked for, and requests per client address */
  resetAccount: RateWindow;
  resetAddress: RateWindow;
  /**
   * approval codes asked for, per user: one per money movement, so an operator paying one payout after
   * another is not stopped; each code goes to the user's own mailbox, voids the previous one and has 5 tries
   */
  approvalCode: RateWindow;
  /** CSV/XLSX batch uploads, per user */
  upload: RateWindow;
  /** transaction exports, per user */
  export: RateWindow;
  /** reveals of the own API key, per user (each also checks the password under the account's limits) */
  apiKeyReveal: RateWindow;
  /** authenticator setups and 2FA switches, per user (each also checks the password under the account's limits) */
  twoFa: RateWindow;
  /** users invited, per inviting user */
  invite: RateWindow;
  /** invitation mails sent again, per invited user */
  resendInvitation: RateWindow;
  /** passkey changes (register options, register, rename, delete), per user */
  passkey: RateWindow;
  /** merchant API calls: tokens asked per public key, and calls per key */
  merchantApi: RateWindow;
  /** company consent links looked at or approved, per client address (the link's token is the secret) */
  consent: RateWindow;
  /**
   * password links (reset or invitation) that did not check, per client address: /check-link-expiry and
   * /set-password, a slot taken before the check and given back when the link is valid
   */
  passwordLinkAddress: RateWindow;
}

export const DEFAULT_LIMITS: Limits = {
  account: { freeAttempts: 5, firstDelaySeconds: 1, maxDelaySeconds: 60, quietSeconds: 15 * 60 },
  signInAddress: { limit: 20, seconds: 15 * 60 },
  resetAccount: { limit: 3, seconds: 60 * 60 },
  resetAddress: { limit: 10, seconds: 60 * 60 },
  approvalCode: { limit: 20, seconds: 10 * 60 },
  upload: { limit: 30, seconds: 10 * 60 },
  export: { limit: 20, seconds: 10 * 60 },
  apiKeyReveal: { limit: 10, seconds: 10 * 60 },
  twoFa: { limit: 10, seconds: 10 * 60 },
  invite: { limit: 20, seconds: 60 * 60 },
  resendInvitation: { limit: 5, seconds: 60 * 60 },
  passkey: { limit: 20, seconds: 10 * 60 },
  merchantApi: { limit: 300, seconds: 60 },
  consent: { limit: 30, seconds: 10 * 60 },
  passwordLinkAddress: { limit: 20, seconds: 15 * 60 },
};
