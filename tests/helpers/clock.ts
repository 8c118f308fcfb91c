/**
 * Rate-limit windows are whole clock minutes. Runs `scenario` (which must start from users and
 * tokens of its own) and, if it failed while a minute boundary fell inside it, once more: its
 * requests then share one window. A process remembers a refusal only until a second before its
 * window resets (lib/http/rate-limit.ts), so a run that failed in the last two seconds of its
 * minute may have met that edge too: it is run again once the minute has turned (the only wait on
 * the clock, and only then).
 */
export async function withinOneWindow(scenario: () => Promise<void>): Promise<void> {
  const minute = () => Math.floor(Date.now() / 60_000);
  const started = minute();
  try {
    await scenario();
  } catch (err) {
    const left = 60_000 - (Date.now() % 60_000);
    if (minute() === started && left > 2_000) throw err;
    if (minute() === started) await new Promise((resolve) => setTimeout(resolve, left + 50));
    await scenario();
  }
}
