import type { FastifyReply } from 'fastify';

// ---- checks of request fields, and the refusals they answer ----
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
export const positiveCents = (v: unknown) => isInt(v) && v > 0;
export const text = (v: unknown, max = 200) => typeof v === 'string' && v.trim().length > 0 && v.length <= max;
export const optionalText = (v: unknown, max = 200) =>
  v === undefined || v === null || (typeof v === 'string' && v.length <= max);
export const isHttpUrl = (v: unknown) => {
  if (typeof v !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};
export const err = (reply: FastifyReply, status: number, ...messages: string[]) =>
  reply.status(status).send({ error: messages });
/** a 400 naming the field: `{error: [message], fields: {<field>: [message]}}` */
export type Rule = [field: string, ok: boolean, message: string];
export function refuse(reply: FastifyReply, rules: Rule[]) {
  const bad = rules.find((r) => !r[1]);
  if (!bad) return null;
  return reply.status(400).send({ error: [bad[2]], fields: { [bad[0]]: [bad[2]] } });
}
export const AMOUNT_MESSAGE = 'amount must be a whole number of cents above 0';
export const KEY_RULE = (b: Record<string, unknown>): Rule => [
  'idempotency_key',
  text(b.idempotency_key, 100),
  'idempotency_key is required (at most 100 characters)',
];
