// Runs once when the server starts: with the embedded database, open the operator socket.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { config } = await import('./lib/config');
  if (config().DATABASE_URL) return;
  const { startControlSocket } = await import('./lib/admin/control');
  await startControlSocket();
}
