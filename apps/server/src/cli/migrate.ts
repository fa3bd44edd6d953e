import { loadConfig } from '../platform/config.ts';
import { openConfiguredDatabase } from '../platform/boot.ts';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
process.stdout.write(`Migrations applied (${database.kind}).\n`);
await database.close();
