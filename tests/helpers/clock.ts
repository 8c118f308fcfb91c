/** Rate-limit windows are whole clock minutes: start a test well inside one so its requests share it. */
export async function freshRateWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
}
