/** User-visible messages, worded as the spec words them (spelling corrected per DECISIONS.md). */
export const MSG = {
  required: 'This field is required',
  requiredShort: 'Required.',
  emailInvalid: 'E-mail must be valid',
  passwordMin: 'Minimum 7 character required',
  passwordNumber: 'Must contain at least 1 number',
  passwordAlphabet: 'Must contain at least 1 alphabet',
  passwordSpecial: 'Must contain at least 1 special character',
  passwordCharset: 'Only letters, digits and ! @ # $ % ^ & * ( ) + = . _ - are allowed',
  passwordMismatch: 'Password does not match',
  incorrectPassword: 'Incorrect Password.',
  invalidCredentials: 'Invalid email or password',
  invalidCode: 'Invalid or expired code',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  sessionExpired: 'Session expired',
  loggedIn: 'Logged In',
  forbidden: 'You do not have permission to do this',
  notFound: 'Not found',
  somethingWrong: 'Something went wrong!',
  linkExpired: 'This link has expired or has already been used',
  passwordChanged: 'Password changed successfully',
  passwordSet: 'Password set successfully',
  resetMailSent: 'If the e-mail belongs to an account, a link to set a new password has been sent',
  codeSent: 'A verification code has been sent to your e-mail',
  noRecord: 'No Record Found',
  /** an export (or report) whose filters match nothing: no file is made */
  exportNoRecord: 'No record found',
  /** an export that could not be started or written */
  exportFailed: 'Something went wrong',
  processingBackground: 'Process is running in the background. Please wait.',
  copied: 'Copied To Clipboard.',
  decryptKeysFirst: 'Decrypt Keys first.',
  roleUpdated: 'Role Updated Successfully',
  userDeleted: 'User Deleted successfully.',
  passkeyAdded: 'Passkey added',
  passkeyRenamed: 'Passkey renamed',
  passkeyRemoved: 'Passkey removed',
  passkeyNotFound: 'Passkey not found',
  noPasskey: 'No passkey is registered for this account. Choose another second factor.',
  /** an account with an authenticator app or a passkey: a mailed code is weaker than either */
  emailCodeRefused:
    'This account signs in with its authenticator app or passkey, not an e-mailed code. Choose another second factor.',
  passkeyInvalid: 'The passkey could not be verified',
  passkeyExpired: 'The passkey request has expired or was already used. Please try again.',
  passkeyExists: 'This passkey is already registered',
  passkeyLimit: 'You can register at most 10 passkeys. Remove one first.',
  passkeyCancelled: 'The passkey prompt was cancelled or timed out',
  passkeyUnsupported: 'This browser cannot use passkeys',
} as const;

/** How long to wait, in words: '1 second', '45 seconds', '2 minutes' (rounded up). */
export function durationInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return s === 1 ? '1 second' : `${s} seconds`;
  const m = Math.ceil(s / 60);
  return m === 1 ? '1 minute' : `${m} minutes`;
}

/** The answer of a 429 that says when to retry: 'Too many attempts. Please try again in 45 seconds.' */
export const tryAgainIn = (seconds: number, what = 'attempts') =>
  `Too many ${what}. Please try again in ${durationInWords(seconds)}.`;
