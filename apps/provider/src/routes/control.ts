import type { FastifyInstance } from 'fastify';
import { defaultControls, type Controls, type Parts } from '../context.ts';
import { err, isInt } from '../validation.ts';

/** `/_control`: the fault switches (no API key), and settle-now. */
export function controlRoutes(app: FastifyInstance, { ctx, deliveries, settlement }: Parts) {
  const { store } = ctx;
  const SWITCHES: Record<keyof Controls, (v: unknown) => boolean> = {
    latency_ms: (v) => isInt(v) && v >= 0 && v <= 60_000,
    fail_next: (v) => isInt(v) && v >= 0,
    timeout_next: (v) => isInt(v) && v >= 0,
    drop_after_accept_next: (v) => isInt(v) && v >= 0,
    duplicate_webhooks: (v) => typeof v === 'boolean',
    out_of_order_webhooks: (v) => typeof v === 'boolean',
    settle_ms: (v) => v === null || (isInt(v) && v >= 0),
    paused_settlement: (v) => typeof v === 'boolean',
  };
  const controlState = () => ({ ...ctx.controls, pending_deliveries: store.data.deliveries.length });
  app.get('/_control', async () => controlState());
  app.post('/_control', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || Array.isArray(b)) return err(reply, 400, 'body must be an object of switches');
    for (const [k, v] of Object.entries(b)) {
      const ok = SWITCHES[k as keyof Controls];
      if (!ok) return err(reply, 400, `unknown switch ${k}`);
      if (!ok(v)) return err(reply, 400, `invalid value for ${k}`);
    }
    const wasOutOfOrder = ctx.controls.out_of_order_webhooks;
    ctx.controls = { ...ctx.controls, ...(b as Partial<Controls>) };
    if (wasOutOfOrder && !ctx.controls.out_of_order_webhooks) deliveries.releaseHeld();
    return controlState();
  });
  app.post('/_control/reset', async () => {
    ctx.controls = defaultControls();
    deliveries.releaseHeld();
    return controlState();
  });
  app.post('/_control/settle-now', async () => ({ settled: settlement.settleNow() }));
}
