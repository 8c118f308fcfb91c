/**
 * Rate-limit windows are whole clock minutes. Runs `scenario` (which must start from users and
 * tokens of its own) and, if it failed while a minute boundary fell inside it, once more: its
 * requests then share one window. No test waits for the clock.
 */
export async function withinOneWindow(scenario: () => Promise<void>): Promise<void> {
  const minute = () => Math.floor(Date.now() / 60_000);
  const started = minute();
  try {
    await scenario();
  } catch (err) {
    if (minute() === started) throw err;
    await scenario();
  }
}
