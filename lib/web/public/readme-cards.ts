import { WAKATIME_ALIAS } from '../../wakatime/paths';

// Ready-made setups for the README tools that read WakaTime-shaped stats, pointed at this site:
// the dashboard fills in the owner's handle and the site's address, /docs/readme-cards shows
// them with placeholders. The parameter names are each tool's own (their READMEs and sources):
// - github-readme-stats' WakaTime card: `username`, `api_domain` (a host: the card always asks
//   https://{api_domain}/api/v1/users/{username}/stats, without a key, so it shows public figures);
// - athul/waka-readme: `API_BASE_URL` (it appends /v1/users/current/stats/{TIME_RANGE}) and
//   `WAKATIME_API_KEY`;
// - anmol098/waka-readme-stats: `WAKATIME_API_URL` (a base ending in /api/v1/) and `WAKATIME_API_KEY`;
// - lowlighter/metrics' WakaTime plugin: `plugin_wakatime_url` (the site; it appends
//   /api/v1/users/{user}/stats/{range}), `plugin_wakatime_token`, `plugin_wakatime_user`.
// The three GitHub Actions send a key (scope `stats`) and show the owner's own figures.

export interface ReadmeCard {
  id: string;
  tool: string;
  /** The tool's home, for the docs. */
  home: string;
  /** What it shows and what it needs. */
  what: string;
  /** What to paste, and where. */
  where: string;
  snippet: string;
}

/**
 * `origin` and `host`: the site's (`https://codetally.example` and `codetally.example`, or the
 * docs' placeholders `{origin}` and `{host}`); `handle`: the user's.
 */
export function readmeCards({ origin, host, handle }: { origin: string; host: string; handle: string }): ReadmeCard[] {
  const api = `${origin}${WAKATIME_ALIAS}`;
  const secret = '${{ secrets.WAKATIME_API_KEY }}';
  return [
    {
      id: 'github-readme-stats',
      tool: 'github-readme-stats (WakaTime card)',
      home: 'https://github.com/anuraghazra/github-readme-stats',
      what: 'An image of your top languages over the last 7 days, read without a key: your profile must be public, and languages shared. The card asks the site over HTTPS.',
      where: 'Your README (Markdown).',
      snippet: `[![Coding time](https://github-readme-stats.vercel.app/api/wakatime?username=${encodeURIComponent(handle)}&api_domain=${host}&layout=compact)](${origin}/u/${encodeURIComponent(handle)})`,
    },
    {
      id: 'waka-readme',
      tool: 'waka-readme (GitHub Action)',
      home: 'https://github.com/athul/waka-readme',
      what: 'A text graph of your languages, committed to your README. Needs a key with the stats scope as the repository secret WAKATIME_API_KEY, and <!--START_SECTION:waka--><!--END_SECTION:waka--> in the README.',
      where: 'A step of a workflow in .github/workflows/.',
      snippet: `- uses: athul/waka-readme@master\n  with:\n    WAKATIME_API_KEY: ${secret}\n    API_BASE_URL: ${origin}/api\n    TIME_RANGE: last_7_days`,
    },
    {
      id: 'waka-readme-stats',
      tool: 'waka-readme-stats (GitHub Action)',
      home: 'https://github.com/anmol098/waka-readme-stats',
      what: 'Your languages, editors, projects, operating systems and total time, committed to your README. Needs a key with the stats scope as the repository secret WAKATIME_API_KEY, and <!--START_SECTION:waka--><!--END_SECTION:waka--> in the README.',
      where: 'A step of a workflow in .github/workflows/.',
      snippet: `- uses: anmol098/waka-readme-stats@master\n  with:\n    WAKATIME_API_KEY: ${secret}\n    WAKATIME_API_URL: ${api}/\n    GH_TOKEN: \${{ secrets.GH_TOKEN }}`,
    },
    {
      id: 'metrics',
      tool: 'lowlighter/metrics (WakaTime plugin)',
      home: 'https://github.com/lowlighter/metrics',
      what: 'A section of your metrics image with your time, languages, editors, operating systems and projects. Needs a key with the stats scope as the repository secret WAKATIME_API_KEY.',
      where: 'The with: block of the lowlighter/metrics step.',
      snippet: `plugin_wakatime: yes\nplugin_wakatime_token: ${secret}\nplugin_wakatime_url: ${origin}\nplugin_wakatime_user: current\nplugin_wakatime_days: 7`,
    },
  ];
}
