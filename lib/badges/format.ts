/** Durations the way coders read them on other trackers: 1 hr 30 mins, 2 hrs, 45 mins, 0 mins. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const hr = `${hours} ${hours === 1 ? 'hr' : 'hrs'}`;
  const min = `${minutes} ${minutes === 1 ? 'min' : 'mins'}`;
  if (hours === 0) return min;
  return minutes === 0 ? hr : `${hr} ${min}`;
}

/** A change in percent with its sign: +12.5%, -3%, +0%. */
export const formatChange = (percent: number): string => `${percent >= 0 ? '+' : ''}${percent}%`;
