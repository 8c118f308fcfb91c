// The nudge between queuing and sending in one process: queueRelayed (./enqueue.ts) calls wake()
// after it queued, and the sender this process started (./sender.ts) runs soon after instead of at
// its next look. On globalThis: Next's bundles hold several copies of this module.

const slot = globalThis as typeof globalThis & { __codetallyRelayWake?: () => void };

/** Tells this process's sender there is something to send (nothing when none runs here). */
export function wake(): void {
  slot.__codetallyRelayWake?.();
}

/** The sender's hook. */
export function onWake(listener: () => void): void {
  slot.__codetallyRelayWake = listener;
}
