/** Waits until `ok` holds of what `get` gives (asked every 25 ms, for up to a minute), and returns that. */
export async function until<T>(get: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 25))) {
    const value = await get();
    if (ok(value)) return value;
    if (Date.now() - t0 > 60_000) throw new Error(`still not ${what}: ${JSON.stringify(value)}`);
  }
}
