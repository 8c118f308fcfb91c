// npm start (through scripts/launch.mjs, which builds first when there is no build), and the
// standalone output's server.js: apply migrations, then serve the production build on PORT.
import { enterAppRoot, loadConfigOrExit } from './env';
import { migrateConfigured } from './migrations';

enterAppRoot();
loadConfigOrExit();
await migrateConfigured().catch((err) => {
  console.error('[codetally] migration failed:', err.message ?? err);
  process.exit(1);
});
await import('./serve');
