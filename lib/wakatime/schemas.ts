import { z } from 'zod';
import { teamRoles, teamShares } from '../teams/schemas';

// The answers of the WakaTime-compatible routes, in WakaTime's shapes: openapi.json lists them
// (lib/openapi/). The routes build them in ./reading/summaries.ts, ./reading/reads.ts and ./sending/heartbeat-answers.ts.

export const wakaErrorSchema = z
  .object({ error: z.string() })
  .meta({ id: 'WakaTimeError', description: 'An error, in WakaTime\'s shape.', examples: [{ error: 'The token is unknown or revoked.' }] });

const heartbeatData = z.object({
  id: z.string(),
  type: z.string(),
  time: z.number(),
  category: z.string(),
  language: z.string(),
  project: z.string().nullable(),
});

export const heartbeatAnswerSchema = z.object({ data: heartbeatData }).meta({ id: 'WakaTimeHeartbeatAnswer' });

export const bulkAnswerSchema = z
  .object({
    responses: z.array(z.union([z.tuple([z.object({ data: heartbeatData }), z.literal(201)]), z.tuple([wakaErrorSchema, z.literal(400)])])),
  })
  .meta({ id: 'WakaTimeBulkAnswer', description: 'One entry per heartbeat, in order: `[{"data": ...}, 201]` or `[{"error": ...}, 400]`.' });

const duration = z.object({
  name: z.string(),
  total_seconds: z.number(),
  percent: z.number(),
  digital: z.string(),
  text: z.string(),
  hours: z.number().int(),
  minutes: z.number().int(),
  seconds: z.number().int(),
});

const lines = (what: string) => z.number().int().optional().meta({ description: `Lines ${what} (heartbeats' ai_line_changes / human_line_changes, and sync buckets' ai_lines / human_lines). Left out of public answers unless the owner shares AI-assisted coding.` });

const aiCount = (what: string) =>
  z.number().int().optional().meta({ description: `${what} (heartbeats' AI report, as wakatime-cli sends it). Left out of public answers unless the owner shares AI-assisted coding.` });

/** The AI figures of a period (besides the line changes): in `grand_total`, and flat on stats' `data`. */
const aiFigures = {
  ai_input_tokens: aiCount('Tokens AI agents read (ai_input_tokens)'),
  ai_output_tokens: aiCount('Tokens AI agents wrote (ai_output_tokens)'),
  ai_sessions: aiCount('AI sessions begun (distinct ai_session ids, each counted once, in the hour of the first heartbeat naming it)'),
  ai_prompt_events_total: aiCount('Heartbeats carrying a prompt\'s length (ai_prompt_length above 0): the prompts sent'),
  ai_prompt_length_sum: aiCount('The prompts\' lengths summed, in characters (never the prompts)'),
  ai_model_breakdown: z
    .array(z.object({ name: z.string(), lines: z.number().int(), input_tokens: z.number().int(), output_tokens: z.number().int() }))
    .optional()
    .meta({
      description:
        "Per AI model named in the heartbeats' User-Agent (wakatime-cli's `opus/4-5 claude-code/…` is `opus-4-5`): the AI lines it changed (additions plus deletions) and its tokens, most lines first. Kept per day for the whole account: empty when the figures are filtered by project or language. Left out of public answers unless the owner shares AI-assisted coding.",
    }),
};

const lineFigures = {
  ai_additions: lines('AI agents added'),
  ai_deletions: lines('AI agents deleted'),
  human_additions: lines('the owner added'),
  human_deletions: lines('the owner deleted'),
};

const grandTotal = z.object({
  digital: z.string(),
  hours: z.number().int(),
  minutes: z.number().int(),
  text: z.string(),
  total_seconds: z.number(),
  ...lineFigures,
  ...aiFigures,
});

const machine = duration.extend({ machine_name_id: z.string().meta({ description: 'The id of GET users/current/machine_names.' }) });

const figures = {
  grand_total: grandTotal,
  categories: z.array(duration).meta({ description: 'As WakaTime names them (`Coding`, `AI Coding`, `Code Reviewing`, …), over all history.' }),
  languages: z.array(duration),
  editors: z.array(duration),
  projects: z.array(duration),
  operating_systems: z.array(duration),
  machines: z.array(machine).meta({ description: 'Time per machine (X-Machine-Name, else the hostname); in public answers only when the owner shares machines.' }),
};

export const statusBarSchema = z
  .object({ data: z.object({ ...figures, range: z.object({ date: z.string(), text: z.string(), timezone: z.string() }) }) })
  .meta({ id: 'WakaTimeStatusBar' });

const total = z.object({ seconds: z.number(), text: z.string(), digital: z.string(), decimal: z.string() });

export const summariesSchema = z
  .object({
    data: z.array(
      z.object({
        ...figures,
        dependencies: z.array(z.unknown()),
        range: z.object({ date: z.string(), start: z.string(), end: z.string(), text: z.string().meta({ description: 'The date as WakaTime writes it, `Fri Dec 4th 2026`, today and yesterday included (Raycast\'s extension keys each day by it).' }), timezone: z.string() }),
      }),
    ),
    cumulative_total: total,
    cummulative_total: total.meta({ description: 'The same as `cumulative_total`, under WakaTime\'s old spelling, which older scripts read.' }),
    daily_average: z
      .object({ holidays: z.number().int(), days_including_holidays: z.number().int(), days_minus_holidays: z.number().int(), seconds: z.number(), text: z.string() })
      .loose()
      .meta({ description: 'WakaTime\'s definition: the total over the days with coding time (`days_minus_holidays`); a day without any is a holiday.' }),
    start: z.string(),
    end: z.string(),
  })
  .meta({ id: 'WakaTimeSummaries' });

const visible = (what: string) => z.boolean().meta({ description: `Whether ${what} this answer holds (an unshared list is empty and its flag false).` });

export const statsSchema = z
  .object({
    data: z
      .object({
        ...figures,
        total_seconds: z.number(),
        total_seconds_including_other_language: z.number(),
        human_readable_total: z.string(),
        human_readable_total_including_other_language: z.string(),
        daily_average: z.number(),
        daily_average_including_other_language: z.number(),
        human_readable_daily_average: z.string(),
        human_readable_daily_average_including_other_language: z.string(),
        days_including_holidays: z.number().int(),
        days_minus_holidays: z.number().int().meta({ description: 'Days of the range with coding time; `daily_average` is the total over these (WakaTime\'s definition).' }),
        holidays: z.number().int(),
        best_day: z.object({ date: z.string(), total_seconds: z.number(), text: z.string() }).nullable().meta({ description: 'The date with the most time (the earliest of equals); null when there is none.' }),
        range: z.string(),
        human_readable_range: z.string(),
        start: z.string().meta({ description: 'The first instant of the range (the owner\'s local midnight) in UTC, `YYYY-MM-DDTHH:MM:SSZ`.' }),
        end: z.string().meta({ description: 'The last second of the range (the end of the owner\'s today) in UTC, `YYYY-MM-DDTHH:MM:SSZ`.' }),
        timezone: z.string().optional().meta({ description: 'The owner\'s timezone: in the owner\'s own answer (with a key) only.' }),
        is_including_today: z.boolean(),
        is_up_to_date: z.boolean(),
        status: z.string(),
        is_coding_activity_visible: visible('the totals'),
        is_other_usage_visible: visible('every one of languages, editors, operating systems and categories'),
        is_language_usage_visible: visible('`languages`'),
        is_editor_usage_visible: visible('`editors`'),
        is_os_usage_visible: visible('`operating_systems`'),
        is_category_usage_visible: visible('`categories`'),
        user_id: z.string(),
        username: z.string(),
        // The line changes and AI figures of `grand_total` again, flat (where waka-readme-stats reads them).
        ...lineFigures,
        ...aiFigures,
      })
      .loose(),
  })
  .meta({ id: 'WakaTimeStats' });

export const allTimeSchema = z
  .object({ data: z.object({ total_seconds: z.number(), text: z.string(), digital: z.string(), decimal: z.string(), is_up_to_date: z.boolean() }).loose() })
  .meta({ id: 'WakaTimeAllTime' });

export const wakaUserSchema = z
  .object({
    data: z
      .object({
        id: z.string(),
        username: z.string(),
        display_name: z.string(),
        profile_url: z.string(),
        timezone: z.string().optional().meta({ description: 'With a key only.' }),
        created_at: z.string().optional().meta({ description: 'With a key only.' }),
      })
      .loose(),
  })
  .meta({ id: 'WakaTimeUser' });

const dayEnvelope = {
  start: z.string().meta({ description: 'The first instant of the date in the owner\'s timezone, in UTC (ISO 8601).' }),
  end: z.string().meta({ description: 'Its last second, in UTC.' }),
  timezone: z.string(),
};

export const dayHeartbeatsSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string(),
        entity: z.string().meta({ description: 'The stored digest of the entity (a keyed hash), never a path or URL.' }),
        type: z.string(),
        time: z.number(),
        project: z.string().nullable().meta({ description: 'null for no project, or a hidden one.' }),
        language: z.string().nullable(),
        category: z.string(),
        editor: z.string().nullable(),
        operating_system: z.string().nullable(),
        machine_name_id: z.string().nullable(),
        ai_agent: z.string().nullable(),
        is_write: z.boolean().meta({ description: 'As the heartbeat was sent: true for a save. false when it was not sent as true, and for heartbeats stored before it was kept (a data dump\'s recent heartbeats carry theirs).' }),
        ai_line_changes: z.number().int(),
        human_line_changes: z.number().int(),
      }),
    ),
    ...dayEnvelope,
    next_after: z
      .string()
      .nullable()
      .meta({ description: 'The id of the last heartbeat of this page when the day holds more: ask again with `after` set to it for the next page. null once the day is whole.' }),
  })
  .meta({ id: 'WakaTimeDayHeartbeats' });

export const durationsSchema = z
  .object({
    data: z.array(
      z
        .object({ time: z.number(), duration: z.number(), project: z.string().nullable() })
        .loose()
        .meta({ description: 'A run: its start (epoch seconds), its length in seconds, its project and, with slice_by, the sliced field (`machine_name_id` for machine).' }),
    ),
    ...dayEnvelope,
    truncated: z.literal(true).optional().meta({ description: 'Present when the day switched so often that it holds more runs than one answer gives: only the first ones are given, and the last of them may end early. Absent otherwise.' }),
  })
  .meta({ id: 'WakaTimeDurations' });

/** A ranked user in WakaTime's leaderboard shapes (the public /leaders and private boards). */
export const wakaLeaderSchema = z.object({
  rank: z.number().int(),
  running_total: z.object({
    total_seconds: z.number(),
    human_readable_total: z.string(),
    daily_average: z.number(),
    human_readable_daily_average: z.string(),
    languages: z.array(z.object({ name: z.string(), total_seconds: z.number() })).meta({ description: 'Only for users who share languages; empty otherwise.' }),
  }),
  user: z.object({
    id: z.string().meta({ description: "The user's id where it is public (the public leaderboard lists it; a private board gives it where the member's profile is public); otherwise their handle." }),
    username: z.string(),
    display_name: z.string(),
    full_name: z.string(),
    photo_public: z.boolean(),
    is_email_public: z.boolean(),
    is_hireable: z.boolean(),
    email: z.null(),
    website: z.null(),
    human_readable_website: z.null(),
    city: z.null(),
  }),
});

export const leadersSchema = z
  .object({
    data: z.array(wakaLeaderSchema),
    current_user: z
      .object({ rank: z.number().int(), page: z.number().int(), user: z.object({ id: z.string(), username: z.string(), display_name: z.string() }) })
      .nullable()
      .meta({ description: 'With a key: where its owner stands by total (null without a key, when they are not listed, or when ranking one language).' }),
    page: z.number().int(),
    total_pages: z.number().int(),
    language: z.string().nullable(),
    range: z.object({ start_date: z.string(), end_date: z.string(), name: z.string(), text: z.string() }),
  })
  .loose()
  .meta({ id: 'WakaTimeLeaders' });

export const namedListSchema = z
  .object({
    data: z.array(z.object({ id: z.string(), name: z.string(), color: z.null(), is_verified: z.boolean() })),
    total: z.number().int(),
    total_pages: z.number().int(),
  })
  .meta({ id: 'WakaTimeNamedList' });

export const metaSchema = z
  .object({ data: z.object({ ips: z.object({ api: z.array(z.string()), website: z.array(z.string()), worker: z.array(z.string()) }) }) })
  .meta({ id: 'WakaTimeMeta' });

export const machineNamesSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string().meta({ description: 'Stable per owner and name: the same id is machine_name_id in summaries and stats.' }),
        name: z.string(),
        value: z.string(),
        last_seen_at: z.string().meta({ description: 'When time was last counted on it (ISO 8601, UTC).' }),
        created_at: z.string().meta({ description: 'Midnight (UTC) of the first date with time on it.' }),
      }),
    ),
  })
  .meta({ id: 'WakaTimeMachineNames' });

export const userAgentsSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string(),
        value: z.string(),
        editor: z.string().nullable(),
        os: z.string().nullable(),
        version: z.string().nullable().meta({ description: "The plugin's version, else wakatime-cli's; null when the User-Agent names neither." }),
        is_browser_extension: z.boolean(),
        is_desktop_app: z.boolean(),
        created_at: z.string(),
        last_seen_at: z.string().meta({ description: 'Recorded at most once an hour per server process.' }),
      }),
    ),
  })
  .meta({ id: 'WakaTimeUserAgents' });

const project = z.object({
  id: z.string().meta({ description: 'The name: a project is known by it.' }),
  name: z.string(),
  urlencoded_name: z.string(),
  last_heartbeat_at: z.string().meta({ description: 'The last kept heartbeat\'s time (ISO 8601, UTC); past the 14 days heartbeats are kept, the end of the project\'s last hour with time.' }),
  human_readable_last_heartbeat_at: z.string(),
  created_at: z.string().meta({ description: 'Midnight (UTC) of the first date with time on it.' }),
  badge: z.null(),
  color: z.null(),
  url: z.string().meta({ description: 'The project\'s page on the owner\'s dashboard.' }),
  has_public_url: z.boolean(),
  repository: z.null(),
});

export const oneProjectSchema = z.object({ data: project }).meta({ id: 'WakaTimeProject' });

export const commitsSchema = z
  .object({
    commits: z.array(z.unknown()).meta({ description: 'Always empty: no repository is linked here.' }),
    project,
    status: z.string(),
    total: z.number().int(),
    total_pages: z.number().int(),
    page: z.number().int(),
  })
  .loose()
  .meta({ id: 'WakaTimeCommits' });

export const projectsSchema = z
  .object({
    data: z.array(project),
    total: z.number().int(),
    total_pages: z.number().int(),
    page: z.number().int(),
    prev_page: z.number().int().nullable(),
    next_page: z.number().int().nullable(),
  })
  .meta({ id: 'WakaTimeProjects' });

/** A page of WakaTime's team and organization lists (one page: every team of a user fits). */
const onePage = <T extends z.ZodType>(item: T, id: string, description: string) =>
  z
    .object({ data: z.array(item), total: z.number().int(), total_pages: z.number().int(), page: z.number().int(), prev_page: z.null(), next_page: z.null() })
    .meta({ id, description });

const managerFlag = z.boolean().meta({ description: 'The caller is the team\'s owner or an admin.' });
const when = z.string().meta({ description: 'ISO 8601, UTC.' });

export const wakaTeamsSchema = onePage(
  z.object({ id: z.string(), name: z.string(), color: z.null(), is_manager: managerFlag, is_member: z.boolean(), can_view_dashboard: z.boolean(), members_count: z.number().int(), created_at: when, modified_at: z.null() }),
  'WakaTimeTeams',
  'The Codetally teams the key\'s owner belongs to, by name.',
);

export const wakaOrgsSchema = onePage(
  z
    .object({
      id: z.string().meta({ description: 'The team\'s id.' }),
      name: z.string(),
      people_count: z.number().int(),
      people_count_human_readable: z.string(),
      timezone: z.string(),
      can_current_user_list_dashboards: z.boolean(),
      can_current_user_add_people_to_org: managerFlag,
      can_current_user_edit_org: managerFlag,
      can_current_user_delete_org: z.boolean().meta({ description: 'The caller owns the team.' }),
      created_at: when,
    })
    .loose(),
  'WakaTimeOrgs',
  'The same teams, each as an organization with one dashboard.',
);

export const wakaDashboardsSchema = onePage(
  z
    .object({
      id: z.string().meta({ description: 'The team\'s id, as the organization\'s.' }),
      name: z.string(),
      members_count: z.number().int(),
      members_count_human_readable: z.string(),
      is_current_user_member: z.boolean(),
      can_current_user_view: z.boolean(),
      can_current_user_add_members: managerFlag,
      can_current_user_remove_members: managerFlag,
      created_at: when,
    })
    .loose(),
  'WakaTimeOrgDashboards',
  'An organization\'s one dashboard: the team itself.',
);

export const wakaMembersSchema = onePage(
  z.object({
    id: z.string().meta({ description: 'The member\'s user id: the {member} of the summaries routes (a handle is taken too).' }),
    username: z.string(),
    display_name: z.string(),
    full_name: z.string(),
    email: z.null().meta({ description: 'Never shown to a team.' }),
    photo: z.null(),
    is_view_only: z.boolean(),
    is_manager: z.boolean(),
    role: z.enum(teamRoles),
    share: z.enum(teamShares).meta({ description: 'What the member shows the team: nothing, their total time, or their total and languages.' }),
  }),
  'WakaTimeTeamMembers',
  'A team\'s members, by handle.',
);
