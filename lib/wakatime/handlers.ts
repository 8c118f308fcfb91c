import { wakaGoalById, wakaGoals } from '../figures/wakatime-goals';
import { json, jsonContentType, parseJsonText, readJsonBody } from '../http/body';
import { siteOrigin } from '../http/origin';
import { ApiError } from '../http/problem';
import { metrics } from '../metrics/registry';
import { ownFiguresText } from '../stats/own-cache';
import type { WakaContext } from './api-key';
import { MAX_HEARTBEATS } from './sending/heartbeat';
import { answerStatus, bulkAnswer, heartbeatAnswer } from './sending/heartbeat-answers';
import { readHeartbeats } from './sending/heartbeat-check';
import { storeHeartbeats } from './sending/heartbeat-store';
import { queueRelayed } from './relaying/enqueue';
import { allTimeSinceToday, currentUser, DEFAULT_STATS_RANGE, oneProject, projectCommits, projects, stats, statsFilter, summaries } from './reading/reads';
import { durationsOfDay, heartbeatsOfDay } from './reading/day-reads';
import { machineNames, userAgentList } from './reading/machines';
import { statusBarToday } from './reading/summaries';
import { wakaDashboardMembers, wakaDashboardMemberSummaries, wakaMemberDurations, wakaMemberSummaries, wakaOrgDashboards, wakaOrgs, wakaTeamMembers, wakaTeams } from './reading/teams';

// The WakaTime-compatible routes' handlers (their auth wrapper: ./api-key.ts).

function bulkItems(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new ApiError('malformed_json', 'The body must be a JSON array of heartbeats.');
  if (value.length > MAX_HEARTBEATS) {
    throw new ApiError('payload_too_large', `A bulk request holds at most ${MAX_HEARTBEATS} heartbeats; this one has ${value.length}.`);
  }
  return value;
}

/**
 * A heartbeat request's body: JSON whatever its Content-Type (WakaTime's browser extension posts
 * it as text/plain), read once more when it is a JSON string holding the JSON (vscode.dev's
 * extension encodes its array twice).
 */
async function heartbeatBody(request: Request): Promise<unknown> {
  const { value } = await readJsonBody(request, { anyMediaType: true });
  return typeof value === 'string' ? parseJsonText(value) : value;
}

/**
 * POST heartbeats (one) and heartbeats.bulk (an array): every valid heartbeat is stored, and
 * each gets its own answer, in order, so that wakatime-cli requeues only what may succeed later.
 * An array sent to the route of one is taken as a bulk (Wakapi's `/api/heartbeat` takes both).
 */
export function heartbeatHandler(route: 'one' | 'bulk') {
  return async ({ request, db, user, admission }: WakaContext): Promise<Response> => {
    const value = await heartbeatBody(request);
    const shape = route === 'bulk' || Array.isArray(value) ? 'bulk' : 'one';
    const items = shape === 'bulk' ? bulkItems(value) : [value];
    const sender = { userAgent: request.headers.get('user-agent'), machine: request.headers.get('x-machine-name') };
    const { valid, results, agents } = await readHeartbeats(db, user, items, sender);
    await storeHeartbeats(db, user, valid, admission, agents);
    // Forwarded to the user's relays, if any (never failing the request: ./relaying/enqueue.ts).
    await queueRelayed(db, user.id, request, items, results);
    countHeartbeats(shape, results);
    if (shape === 'one') return json(heartbeatAnswer(results[0]), { status: answerStatus(results[0]) });
    return json(bulkAnswer(results), { status: 201 });
  };
}

/** A stored request in the metrics: how many heartbeats were taken and refused, nothing of them. */
function countHeartbeats(shape: 'one' | 'bulk', results: readonly unknown[]): void {
  const m = metrics();
  const rejected = results.filter((r) => typeof r === 'string').length;
  m.heartbeatBatches.inc({ shape });
  m.heartbeats.inc({ outcome: 'accepted' }, results.length - rejected);
  if (rejected > 0) m.heartbeats.inc({ outcome: 'rejected' }, rejected);
}

/** The owner's own figures: for them only, never kept by a shared cache. */
const own = (body: unknown) => json(body, { headers: { 'cache-control': 'private, no-store' } });

/** GET statusbar/today: what the editor's status bar shows. */
export async function statusBarHandler({ db, user }: WakaContext): Promise<Response> {
  return own({ data: await statusBarToday(db, user) });
}

/** GET summaries?start&end (or range=). */
export async function summariesHandler({ db, user, request }: WakaContext): Promise<Response> {
  return own(await summaries(db, user, new URL(request.url).searchParams));
}

/** The owner's figures of a long range, from memory until their data changes (lib/stats/own-cache.ts). */
const ownCached = async ({ user, statsVersion }: WakaContext, what: string, compute: () => Promise<unknown>) =>
  new Response(await ownFiguresText({ ...user, statsVersion }, what, compute), { headers: { 'content-type': jsonContentType, 'cache-control': 'private, no-store' } });

/** GET stats/{range}, or stats (the last 7 days), with ?project=&language= filters. */
export async function statsHandler(ctx: WakaContext): Promise<Response> {
  const range = ctx.params.range ?? DEFAULT_STATS_RANGE;
  const filter = await statsFilter(ctx.db, ctx.user, new URL(ctx.request.url).searchParams);
  return ownCached(ctx, `stats/${range}\u0000${JSON.stringify(filter)}`, () => stats(ctx.db, ctx.user, range, filter));
}

/** POST plugins/errors: wakatime-cli's diagnostics of a plugin's crash; counted, nothing of them kept (the body is not read). */
export async function pluginErrorsHandler(): Promise<Response> {
  metrics().pluginErrors.inc();
  return json({}, { status: 201 });
}

/** GET all_time_since_today. */
export async function allTimeHandler(ctx: WakaContext): Promise<Response> {
  return ownCached(ctx, 'all_time_since_today', () => allTimeSinceToday(ctx.db, ctx.user));
}

/** GET users/current. */
export async function userHandler({ db, user, request }: WakaContext): Promise<Response> {
  return own(await currentUser(db, user.id, siteOrigin(request.headers)));
}

/** GET projects?q=&page=. */
export async function projectsHandler({ db, user, request }: WakaContext): Promise<Response> {
  return own(await projects(db, user, new URL(request.url).searchParams, siteOrigin(request.headers)));
}

/** GET goals: every goal of the owner, in WakaTime's shape. */
export async function goalsHandler({ db, user }: WakaContext): Promise<Response> {
  return own(await wakaGoals(db, user));
}

/** GET goals/{id}: one goal (wakatime-cli --today-goal prints its last chart entry's actual_seconds_text). */
export async function goalHandler({ db, user, params }: WakaContext): Promise<Response> {
  return own(await wakaGoalById(db, user, params.id ?? ''));
}

/** GET machine_names: the machines the owner's time was counted on (read over all their history: kept as stats are). */
export async function machineNamesHandler(ctx: WakaContext): Promise<Response> {
  return ownCached(ctx, 'machine_names', () => machineNames(ctx.db, ctx.user.id));
}

/** GET user_agents: the User-Agents the owner's heartbeats came with. */
export async function userAgentsHandler({ db, user }: WakaContext): Promise<Response> {
  return own(await userAgentList(db, user.id));
}

/** GET users/current/heartbeats?date=: one day's heartbeats, digests for entities. */
export async function dayHeartbeatsHandler({ db, user, request }: WakaContext): Promise<Response> {
  return own(await heartbeatsOfDay(db, user, new URL(request.url).searchParams));
}

/** GET durations?date=&project=&slice_by=: one day's runs of coding time. */
export async function durationsHandler({ db, user, request }: WakaContext): Promise<Response> {
  return own(await durationsOfDay(db, user, new URL(request.url).searchParams));
}

/** GET projects/{project}. */
export async function projectHandler({ db, user, request, params }: WakaContext): Promise<Response> {
  return own(await oneProject(db, user, params.project ?? '', siteOrigin(request.headers)));
}

/** GET projects/{project}/commits. */
export async function commitsHandler({ db, user, request, params }: WakaContext): Promise<Response> {
  return own(await projectCommits(db, user, params.project ?? '', siteOrigin(request.headers)));
}

// Teams, as WakaTime's teams and organizations (./reading/teams.ts).
const query = (request: Request) => new URL(request.url).searchParams;

/** GET teams. */
export const teamsHandler = async ({ db, user }: WakaContext) => own(await wakaTeams(db, user.id));
/** GET teams/{team}/members. */
export const teamMembersHandler = async ({ db, user, params }: WakaContext) => own(await wakaTeamMembers(db, user.id, params.team ?? ''));
/** GET teams/{team}/members/{member}/summaries. */
export const teamMemberSummariesHandler = async ({ db, user, params, request }: WakaContext) =>
  own(await wakaMemberSummaries(db, user.id, params.team ?? '', params.member ?? '', query(request)));
/** GET orgs. */
export const orgsHandler = async ({ db, user }: WakaContext) => own(await wakaOrgs(db, user.id));
/** GET orgs/{org}/dashboards. */
export const orgDashboardsHandler = async ({ db, user, params }: WakaContext) => own(await wakaOrgDashboards(db, user.id, params.org ?? ''));
/** GET orgs/{org}/dashboards/{dashboard}/members. */
export const dashboardMembersHandler = async ({ db, user, params }: WakaContext) => own(await wakaDashboardMembers(db, user.id, params.org ?? '', params.dashboard ?? ''));
/** GET orgs/{org}/dashboards/{dashboard}/members/{member}/summaries. */
export const dashboardMemberSummariesHandler = async ({ db, user, params, request }: WakaContext) =>
  own(await wakaDashboardMemberSummaries(db, user.id, params.org ?? '', params.dashboard ?? '', params.member ?? '', query(request)));
/** GET orgs/{org}/dashboards/{dashboard}/members/{member}/durations. */
export const dashboardMemberDurationsHandler = async ({ db, user, params, request }: WakaContext) =>
  own(await wakaMemberDurations(db, user.id, params.org ?? '', params.dashboard ?? '', params.member ?? '', query(request)));
