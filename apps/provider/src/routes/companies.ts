import type { FastifyInstance } from 'fastify';
import { INVALID_COMPANY_KEY, companyAccounts, companyBeneficiaries } from '../testdata.ts';
import { err } from '../validation.ts';

/**
 * GET /companies/accounts with `X-Company-Key: <company key>`: the company's bank accounts and saved
 * beneficiaries, derived from the key (nothing is stored). An unknown or missing key answers 422.
 */
export function companyRoutes(app: FastifyInstance) {
  app.get('/companies/accounts', async (req, reply) => {
    const header = req.headers['x-company-key'];
    const key = typeof header === 'string' ? header : '';
    const accounts = companyAccounts(key);
    const beneficiaries = companyBeneficiaries(key);
    if (!accounts || !beneficiaries) return err(reply, 422, INVALID_COMPANY_KEY);
    return { accounts, beneficiaries };
  });
}
