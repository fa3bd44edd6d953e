import { loadConfig } from '../platform/config.ts';
import { openConfiguredDatabase } from '../platform/boot.ts';
import { ensureApiKeys } from '../features/api-keys/service.ts';
import { seedDemo, syncReferenceData } from '../seed.ts';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
await syncReferenceData(database.db);
const seeded = await seedDemo(database.db, config.demoPassword);
await ensureApiKeys(database.db, config.secretsKey);
process.stdout.write(seeded ? 'Demo data seeded.\n' : 'The database already has users: nothing seeded.\n');
await database.close();
