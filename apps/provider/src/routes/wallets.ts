import type { FastifyInstance } from 'fastify';
import { findWallet } from '../testdata.ts';
import { err } from '../validation.ts';

/** GET /wallets/:obol_id: the test wallets (no API key needed). */
export function walletRoutes(app: FastifyInstance) {
  app.get('/wallets/:obol_id', async (req, reply) => {
    const w = findWallet((req.params as { obol_id: string }).obol_id);
    return w ?? err(reply, 404, 'Invalid Obol Id');
  });
}
