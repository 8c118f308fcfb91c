// npm start — build when needed, apply migrations, then serve the production build on PORT
import { ensureBuild } from './build';
import { loadConfigOrExit } from './env';
import { migrateConfigured } from './migrate';

loadConfigOrExit();
try {
  ensureBuild();
} catch (err) {
  console.error(`[codetally] ${(err as Error).message}`);
  process.exit(1);
}
await migrateConfigured();
await import('./serve');
