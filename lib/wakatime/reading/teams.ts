import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { teamMembers, teams, users } from '../../db/schema';
import { ApiError } from '../../http/problem';
import { isUuid } from '../../ids';
import type { TeamRole, TeamShare } from '../../teams/schemas';
import { membershipOf } from '../../teams/teams';
import { durationsOfDay } from './day-reads';
import { summaries } from './reads';
import type { Figures } from './summaries';

// Codetally's teams through WakaTime's team and organization routes (wakatime-client's getTeams,
// getTeamMembers, getTeamMemberSummary and its organization dashboards). A team is a WakaTime
// team, and also an organization holding one dashboard under the team's own id, so that tools
// written for either find it. Everything is for the team's members only (anyone else: 404, as the
// team routes answer), and another member's figures show only as that member shares them with the
// team (lib/teams/figures.ts): `none` nothing (403), `total` the daily totals, `languages` those and
// the languages. Projects, editors, categories, systems, machines, line changes and when in the day
// someone codes (durations) are never shown to a team; the caller's own figures are whole. A member
// is named by user id (the `id` the member lists give) or handle.

interface TeamRow {
  id: string;
  name: string;
  role: TeamRole;
  members: number;
  created_at: string;
}

/** The timezone a team's dates are in: UTC, as GET /teams/{id}'s (a team has none of its own; a member's is theirs). */
const TEAM_ZONE = 'UTC';

const manages = (role: TeamRole) => role !== 'member';
const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);
const onePage = <T>(data: T[]) => ({ data, total: data.length, total_pages: 1, page: 1, prev_page: null, next_page: null });

async function teamsOf(db: Db, userId: string): Promise<TeamRow[]> {
  const found = await rows<TeamRow>(
    db,
    sql`SELECT t.id, t.name, m.role, (SELECT count(*)::int FROM ${teamMembers} o WHERE o.team_id = t.id) AS members,
               to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
        FROM ${teamMembers} m JOIN ${teams} t ON t.id = m.team_id
        WHERE m.user_id = ${userId}::uuid ORDER BY lower(t.name), t.id`,
  );
  return found.map((t) => ({ ...t, members: Number(t.members) }));
}

/** GET users/current/teams: the teams the key's owner is a member of, by name. */
export async function wakaTeams(db: Db, userId: string) {
  return onePage(
    (await teamsOf(db, userId)).map((t) => ({
      id: t.id,
      name: t.name,
      color: null,
      is_manager: manages(t.role),
      is_member: true,
      can_view_dashboard: true,
      members_count: t.members,
      created_at: t.created_at,
      modified_at: null,
    })),
  );
}

/** GET users/current/orgs: the same teams, each as an organization. */
export async function wakaOrgs(db: Db, userId: string) {
  return onePage(
    (await teamsOf(db, userId)).map((t) => ({
      id: t.id,
      name: t.name,
      people_count: t.members,
      people_count_human_readable: people(t.members),
      invited_people_count: 0,
      invited_people_count_human_readable: '0 people',
      is_duration_visible: true,
      default_project_privacy: 'hidden',
      timezone: TEAM_ZONE,
      timeout: 15,
      writes_only: false,
      can_current_user_list_dashboards: true,
      can_current_user_create_dashboards: false,
      can_current_user_display_coding_on_dashboards: true,
      can_current_user_view_all_dashboards: true,
      can_current_user_add_people_to_org: manages(t.role),
      can_current_user_manage_groups: false,
      can_current_user_view_audit_log: false,
      can_current_user_edit_org: manages(t.role),
      can_current_user_manage_billing: false,
      can_current_user_delete_org: t.role === 'owner',
      created_at: t.created_at,
      modified_at: null,
    })),
  );
}

/** The team an organization's dashboard is: the organization's own, under its id; any other id names none. */
function assertOwnDashboard(orgId: string, dashboardId: string): void {
  if (dashboardId !== orgId) throw new ApiError('not_found', 'No such dashboard: each organization here has one, under its own id.');
}

/** GET users/current/orgs/{org}/dashboards: the organization's one dashboard (the team). */
export async function wakaOrgDashboards(db: Db, userId: string, orgId: string) {
  const me = await membershipOf(db, userId, orgId);
  const team = (await teamsOf(db, userId)).find((t) => t.id === me.id)!;
  return onePage([
    {
      id: team.id,
      name: team.name,
      members_count: team.members,
      members_count_human_readable: `${team.members} member${team.members === 1 ? '' : 's'}`,
      is_current_user_member: true,
      can_current_user_view: true,
      can_current_user_request_to_view: false,
      can_current_user_request_to_join: false,
      can_current_user_add_members: manages(me.role),
      can_current_user_remove_members: manages(me.role),
      can_current_user_delete: false,
      created_at: team.created_at,
      modified_at: null,
    },
  ]);
}

interface MemberRow {
  id: string;
  handle: string;
  display_name: string;
  timezone: string;
  role: TeamRole;
  share: TeamShare;
}

async function membersOf(db: Db, teamId: string, only?: string): Promise<MemberRow[]> {
  const [m, u] = [teamMembers, users];
  const which = only === undefined ? sql`` : isUuid(only) ? sql`AND ${u.id} = ${only}::uuid` : sql`AND lower(${u.handle}) = lower(${only})`;
  return rows<MemberRow>(
    db,
    sql`SELECT ${u.id} AS id, ${u.handle} AS handle, ${u.displayName} AS display_name, ${u.timezone} AS timezone, ${m.role} AS role, ${m.share} AS share
        FROM ${m} JOIN ${u} ON ${u.id} = ${m.userId} WHERE ${m.teamId} = ${teamId}::uuid ${which}
        ORDER BY lower(${u.handle})`,
  );
}

/** GET teams/{team}/members, and an organization dashboard's members: the roster, for members only. */
export async function wakaTeamMembers(db: Db, userId: string, teamId: string) {
  await membershipOf(db, userId, teamId);
  return onePage(
    (await membersOf(db, teamId)).map((m) => ({
      id: m.id,
      username: m.handle,
      display_name: m.display_name,
      full_name: m.display_name,
      email: null,
      photo: null,
      is_view_only: false,
      is_manager: manages(m.role),
      role: m.role,
      share: m.share,
    })),
  );
}

/** A member of the caller's team and what they share with it (the caller: `own`). */
async function teamMember(db: Db, userId: string, teamId: string, member: string): Promise<MemberRow & { own: boolean }> {
  await membershipOf(db, userId, teamId);
  const [found] = member.length <= 100 ? await membersOf(db, teamId, member) : [];
  if (!found) throw new ApiError('not_found', 'No such member of this team.');
  return { ...found, own: found.id === userId };
}

const notShared = (what: string) => new ApiError('forbidden', `${what} is not shared with a team: a member shows it only their total time, and their languages if they choose.`);

/** One period's figures as the team may see them: the totals, and the languages when shared. */
function teamView(f: Figures, share: TeamShare) {
  const { digital, hours, minutes, text, total_seconds } = f.grand_total;
  return {
    grand_total: { digital, hours, minutes, text, total_seconds },
    categories: [],
    languages: share === 'languages' ? f.languages : [],
    editors: [],
    projects: [],
    operating_systems: [],
    machines: [],
  };
}

/**
 * GET teams/{team}/members/{member}/summaries (and an organization dashboard's): the member's
 * figures per date as the team may see them (start and end, or range=; none: the last 7 days).
 * Another member's dates are the team's (UTC: `range=Today`, `Yesterday` and `range.timezone`
 * alike), each date the member's time on that local date, as the team page shows it: their own
 * timezone is shown on no team surface. The caller's own are in their own timezone.
 */
export async function wakaMemberSummaries(db: Db, userId: string, teamId: string, member: string, params: URLSearchParams) {
  const m = await teamMember(db, userId, teamId, member);
  // No dates at all (wakatime-client asks a dashboard member's so): the last 7 days.
  if (!['start', 'end', 'range'].some((name) => params.has(name))) params = new URLSearchParams({ ...Object.fromEntries(params), range: 'Last 7 Days' });
  if (m.own) return summaries(db, m, params);
  if (m.share === 'none') throw notShared("This member's time");
  if (params.get('project') !== null) throw notShared("A member's time per project");
  const found = await summaries(db, m, params, TEAM_ZONE);
  return { ...found, data: found.data.map(({ range, dependencies, ...f }) => ({ ...teamView(f, m.share), dependencies, range })) };
}

/** GET orgs/{org}/dashboards/{dashboard}/members/{member}/durations: the caller's own runs of coding time; another member's are not shared. */
export async function wakaMemberDurations(db: Db, userId: string, orgId: string, dashboardId: string, member: string, params: URLSearchParams) {
  assertOwnDashboard(orgId, dashboardId);
  const m = await teamMember(db, userId, orgId, member);
  if (!m.own) throw notShared('When in the day a member codes');
  return durationsOfDay(db, m, params);
}

/** An organization dashboard's members (the team's roster). */
export async function wakaDashboardMembers(db: Db, userId: string, orgId: string, dashboardId: string) {
  assertOwnDashboard(orgId, dashboardId);
  return wakaTeamMembers(db, userId, orgId);
}

/** An organization dashboard member's summaries. */
export async function wakaDashboardMemberSummaries(db: Db, userId: string, orgId: string, dashboardId: string, member: string, params: URLSearchParams) {
  assertOwnDashboard(orgId, dashboardId);
  return wakaMemberSummaries(db, userId, orgId, member, params);
}
