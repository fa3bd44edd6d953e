import type { DemoShopEventRow } from '@obol/contract';

/**
 * The shop's inbox (its receiving address's secret part), kept in this browser so a return from the payment page
 * finds it.
 */
export const INBOX_STORE = 'obol-demo-shop-inbox';
/** The endpoint's signing secret, pasted by whoever runs the shop: kept in this tab only, as the API key is. */
export const SECRET_STORE = 'obol-demo-shop-secret';

export function shopInbox(): string {
  let inbox = localStorage.getItem(INBOX_STORE) ?? '';
  if (!/^[0-9a-f]{32}$/.test(inbox)) {
    inbox = crypto.randomUUID().replace(/-/g, '');
    localStorage.setItem(INBOX_STORE, inbox);
  }
  return inbox;
}

export const shopAddress = (origin: string, inbox: string) => `${origin}/api/demo-shop/${inbox}/webhook`;

/** What an Obol event says, as the shop reads it. */
export interface ShopEvent {
  eventId: string;
  type: string;
  object: { kind: string; id: string; status: string; amount: number; currency: string } | null;
  times: number;
  receivedAt: string;
  check: Check;
}
export type Check = 'verified' | 'mismatch' | 'no-secret' | 'unavailable';

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Checks an Obol-Signature as a merchant's server would: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, one v1
 * per valid secret (two for a day after a rotation). WebCrypto needs a secure context (https or localhost).
 */
export async function checkSignature(secret: string, header: string, body: string): Promise<Check> {
  if (!secret.trim()) return 'no-secret';
  if (!globalThis.crypto?.subtle) return 'unavailable';
  const parts = header.split(',').map((p) => p.trim());
  const t = parts.find((p) => p.startsWith('t='))?.slice(2);
  const given = parts.filter((p) => p.startsWith('v1=')).map((p) => p.slice(3));
  if (!t || !given.length) return 'mismatch';
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    enc.encode(secret.trim()),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = hex(await crypto.subtle.sign('HMAC', key, enc.encode(`${t}.${body}`)));
  return given.includes(mac) ? 'verified' : 'mismatch';
}

export async function readEvents(rows: DemoShopEventRow[], secret: string): Promise<ShopEvent[]> {
  return Promise.all(
    rows.map(async (r) => {
      let object: ShopEvent['object'] = null;
      try {
        object = (JSON.parse(r.body) as { data?: { object?: ShopEvent['object'] } }).data?.object ?? null;
      } catch {
        object = null;
      }
      return {
        eventId: r.event_id,
        type: r.event,
        object,
        times: r.times,
        receivedAt: r.received_at,
        check: await checkSignature(secret, r.signature, r.body),
      };
    }),
  );
}
