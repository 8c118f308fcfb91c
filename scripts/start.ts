// npm start — build when needed, apply migrations, then serve the production build on PORT
import { spawn } from 'node:child_process';
import { ensureBuild, nextBin } from './build';
import { loadConfigOrExit } from './env';
import { migrateConfigured } from './migrate';

const cfg = loadConfigOrExit();
try {
  ensureBuild();
} catch (err) {
  console.error(`[codetally] ${(err as Error).message}`);
  process.exit(1);
}
await migrateConfigured();

const server = spawn(process.execPath, [nextBin(), 'start', '-p', String(cfg.PORT)], {
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
