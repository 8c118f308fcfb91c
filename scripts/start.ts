// npm start (through scripts/launch.mjs, which builds first when there is no build), and the
// standalone output's server.js: apply migrations, then serve the production build on PORT.
import { enterAppRoot } from './env';
import { migrateConfigured } from './migrations';

enterAppRoot();
await migrateConfigured();
await import('./serve');
