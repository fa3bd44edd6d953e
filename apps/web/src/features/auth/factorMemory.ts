import type { AuthType } from '@obol/contract';

/**
 * The addresses that signed in on this browser with an authenticator app or a passkey. The server refuses an
 * e-mailed code to such accounts (docs/decisions/005), so the sign-in page does not offer it to them. Only a hint:
 * the server's 403 is the rule, and it also teaches this list.
 */
const KEY = 'obol.strong-factor';

type Memory = Record<string, 'authenticator' | 'passkey'>;

function read(): Memory {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return v && typeof v === 'object' ? (v as Memory) : {};
  } catch {
    return {};
  }
}

/** The stronger factor this address last used here, if it has one (its e-mail code is then not offered). */
export function strongFactorOf(email: string): 'authenticator' | 'passkey' | undefined {
  return read()[email.trim().toLowerCase()];
}

/** Records the factor a sign-in completed with: a stronger one is remembered, an e-mailed code forgets it. */
export function rememberFactor(email: string, factor: AuthType) {
  const memory = read();
  const key = email.trim().toLowerCase();
  if (factor === 'authenticator' || factor === 'passkey') memory[key] = factor;
  else if (factor === 'email') delete memory[key];
  else return;
  localStorage.setItem(KEY, JSON.stringify(memory));
}
