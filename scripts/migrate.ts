// npm run db:migrate — apply pending migrations to the configured database
import { enterAppRoot } from './env';
import { migrateConfigured } from './migrations';

enterAppRoot();
await migrateConfigured();
