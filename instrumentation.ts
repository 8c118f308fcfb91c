// Runs once when the server starts (lib/server/boot.ts); Node.js only.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    await (await import('./lib/server/boot')).boot();
  }
}
