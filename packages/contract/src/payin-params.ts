import { z } from 'zod';

// The input fields the pay-in lists share (payin-*.ts): internal to the contract, index.ts does not re-export them.

export const sortBy = z.enum(['DESC', 'ASC'], { error: 'sortby must be DESC or ASC' }).optional().default('DESC');
