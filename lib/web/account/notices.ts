import { z } from 'zod';
import { ApiError } from '../../http/problem';

// What a dashboard page may say after a form of its was refused: a code in the address
// (`?error=<code>`), shown as this list's text. Never text from the address itself: a link anyone
// can make would otherwise put their words in the site's own frame ("your account is suspended,
// sign in at ..."). An unknown code shows nothing.

export const dashboardNotices = {
  invalid_name: 'Give it a name of 1 to 100 characters, without control or invisible characters.',
  invalid_code: 'That is not an invite code: paste the code or the whole link you were given.',
  invalid_email: 'Enter an email address.',
  invalid_days: 'How long the code works is a whole number of days from 1 to 365, or empty for no end.',
  invalid_form: 'The form could not be read: try again from this page.',
  not_found: 'Nothing was found: the invite code is unknown or has expired, or the member or team is no longer there.',
  forbidden: 'Your role in this team does not allow that.',
  last_owner: "The team's only owner cannot leave or step down: make another member owner first, or delete the team.",
  invite_expired: "The team's invite code has expired: make a new one first.",
  mail_disabled: 'This site sends no mail: share the invite code or link instead.',
  team_full: 'This team is full: it has as many members as its limit allows. Ask its owners to make room, then open the invite link again.',
  plan_limit: 'That would pass a limit: your plan’s (see Plan in your settings), the team owner’s, or the one no plan lifts (20 teams owned).',
  rate_limited: 'Too many invitations for now: try again in an hour.',
} as const;

export type DashboardNotice = keyof typeof dashboardNotices;

/** The text of a notice code from the address; undefined for anything not in the list. */
export function noticeText(code: unknown): string | undefined {
  return typeof code === 'string' && Object.hasOwn(dashboardNotices, code) ? dashboardNotices[code as DashboardNotice] : undefined;
}

/** Which fields' refusals have a notice of their own. */
const fieldNotices: Record<string, DashboardNotice> = { name: 'invalid_name', code: 'invalid_code', email: 'invalid_email', expires_in_days: 'invalid_days' };

/** The notice code of a refusal (a schema's or the API's); null for anything else (a real failure, thrown on). */
export function noticeOf(err: unknown): DashboardNotice | null {
  if (err instanceof z.ZodError) return fieldNotices[String(err.issues[0]?.path[0])] ?? 'invalid_form';
  if (err instanceof ApiError) {
    // A full team (lib/teams/teams.ts teamFull) is the team's limit, not the visitor's plan: said as such.
    if (err.code === 'plan_limit' && err.extra.errors?.[0]?.path === 'team_members') return 'team_full';
    return Object.hasOwn(dashboardNotices, err.code) ? (err.code as DashboardNotice) : 'invalid_form';
  }
  return null;
}
