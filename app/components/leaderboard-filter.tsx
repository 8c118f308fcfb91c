import type { LeaderboardRange } from '@/lib/stats/leaderboard/query';

/**
 * The range and language choice of a leaderboard, public or private: a plain GET form to `action`.
 * `languages` are the ones people are ranked by; `chosen` stays selected in the spelling listed,
 * whatever its case.
 */
export function LeaderboardFilter({ action, range, languages, chosen }: { action: string; range: LeaderboardRange; languages: string[]; chosen: string }) {
  return (
    <form className="inline" method="get" action={action} aria-label="Filter the leaderboard">
      <div>
        <label htmlFor="range">Range</label>
        <select id="range" name="range" defaultValue={range}>
          <option value="7d">Last 7 days</option>
          <option value="30d">Last 30 days</option>
        </select>
      </div>
      <div>
        <label htmlFor="language">Language</label>
        <select id="language" name="language" defaultValue={languages.find((l) => l.toLowerCase() === chosen.toLowerCase()) ?? ''}>
          <option value="">All languages</option>
          {languages.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Show</button>
    </form>
  );
}
