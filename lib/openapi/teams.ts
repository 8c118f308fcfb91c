import type { z } from 'zod';
import { queryParameters } from '../http/query';
import {
  createdTeamSchema,
  createTeamSchema,
  inviteCodeSchema,
  inviteSchema,
  invitationSchema,
  invitationSentSchema,
  joinTeamSchema,
  membershipSchema,
  memberRoleSchema,
  roleSchema,
  shareSchema,
  teamListSchema,
  teamMemberSchema,
  teamQuerySchema,
  teamSchema,
} from '../teams/schemas';
import { accountOperation, jsonBody, ok } from './operations';

// The team operations in openapi.json (lib/teams/).

/** The schemas these operations name (documentRoots). */
export const teamRoots = (): z.ZodType[] => [
  createTeamSchema, createdTeamSchema, joinTeamSchema, membershipSchema, teamListSchema, teamSchema, teamMemberSchema,
  shareSchema, roleSchema, memberRoleSchema, inviteCodeSchema, inviteSchema, invitationSchema, invitationSentSchema,
];

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, description: "The team's id." };
const handleParameter = { name: 'handle', in: 'path', required: true, schema: { type: 'string' }, description: "A member's handle (any case)." };

const notMember = 'I am not a member of that team, or no team has that id: the two look the same.';
const privacy =
  'Nothing of a team is public: every team route answers its members only, and 404 to anyone else (the same as an unknown id).';

export function teamPaths(): Record<string, unknown> {
  return {
    '/teams': {
      get: accountOperation('My teams', `The teams I belong to, by name, with my role, what I share with each, and how many members each has. ${privacy}`, { '200': ok(teamListSchema) }),
      post: accountOperation(
        'Make a team',
        'A new team with me as its owner, and its invite code (which never expires until rotated). I share my total with it until I change that (PATCH /teams/{id}/me).',
        { '201': ok(createdTeamSchema) },
        { ...jsonBody, invalid_payload: 'a bad `name` (1-100 characters, no control or invisible characters), named in `errors`.' },
        createTeamSchema,
      ),
    },
    '/teams/join': {
      post: accountOperation(
        'Join a team by its invite code',
        'Joins as a member, sharing my total (change it with PATCH /teams/{id}/me). Joining a team I am already in changes nothing and answers my role.',
        { '200': ok(membershipSchema) },
        {
          ...jsonBody,
          invalid_payload: 'no `code`, named in `errors`.',
          not_found: 'no team has that code: it was never one, was rotated, or has expired.',
          plan_limit: "the team is full (`errors[0].path` `team_members`): the detail gives the team's own figures (\"full, 3 of 3\"), never its owner's plan.",
        },
        joinTeamSchema,
      ),
    },
    '/teams/{id}': {
      get: {
        ...accountOperation(
          'A team',
          `Every member (handle, display name, role, what they share), the most time first. A member's \`seconds\` is their coding time over the range (each of their hours counted at most 3600 s, as their own totals are), shown only while they share it with the team (\`share\` total or languages; \`null\` with none); \`languages\` appear only for members who share languages. A consent change, a removal or a leave shows in the next answer. The invite code is in the answer for owners and admins. ${privacy}`,
          { '200': ok(teamSchema) },
          { invalid_query: 'a bad `range`, named in `errors`.', not_found: notMember },
        ),
        parameters: [idParameter, ...queryParameters(teamQuerySchema)],
      },
      delete: {
        ...accountOperation('Delete a team', 'Owners only: the team and every membership are gone at once.', { '204': { description: 'Deleted.' } }, {
          forbidden: 'I am an admin or a member, not an owner; or the token lacks `account`.',
          not_found: notMember,
        }),
        parameters: [idParameter],
      },
    },
    '/teams/{id}/me': {
      patch: {
        ...accountOperation(
          'What I share with a team',
          '`none`: the team lists me (handle, display name, role) without any figure; `total`: my coding time over the range; `languages`: that and my time per language. Honoured from the next request on.',
          { '200': ok(membershipSchema) },
          { ...jsonBody, invalid_payload: 'a bad `share`, named in `errors`.', not_found: notMember },
          shareSchema,
        ),
        parameters: [idParameter],
      },
    },
    '/teams/{id}/invite_code': {
      post: {
        ...accountOperation(
          'A new invite code',
          'Owners and admins: a new code replaces the old one, which stops working at once. The body may be empty (a code that never expires).',
          { '200': ok(inviteSchema) },
          { ...jsonBody, invalid_payload: 'a bad `expires_in_days`, named in `errors`.', forbidden: 'I am a member, not an owner or admin; or the token lacks `account`.', not_found: notMember },
          inviteCodeSchema,
        ),
        parameters: [idParameter],
      },
    },
    '/teams/{id}/invitations': {
      post: {
        ...accountOperation(
          'Invite by mail',
          "Owners and admins, where the site sends mail: mails the team's current invite link (the code, on the dashboard's teams page) to the address, naming the team and me. The address is not kept; rotating the code ends the invitation. Sent in the background: 202 once it is on its way.",
          { '202': { description: 'Accepted: the mail is on its way.', content: ok(invitationSentSchema).content } },
          {
            ...jsonBody,
            invalid_payload: 'a bad `email`, named in `errors`.',
            forbidden: 'I am a member, not an owner or admin; or the token lacks `account`.',
            not_found: notMember,
            invite_expired: '',
            mail_disabled: '',
            plan_limit: 'the team is full (`errors[0].path` `team_members`): the person invited would be refused, so nothing is mailed.',
            rate_limited: 'over 5 invitations an hour to one address, or 20 from one inviter; `Retry-After` says when.',
          },
          invitationSchema,
        ),
        parameters: [idParameter],
      },
    },
    '/teams/{id}/members/{handle}': {
      patch: {
        ...accountOperation(
          "Change a member's role",
          'Owners only. A team may have several owners; its only owner cannot step down (409 `last_owner`): make another member owner first.',
          { '200': ok(memberRoleSchema) },
          {
            ...jsonBody,
            invalid_payload: 'a bad `role`, named in `errors`.',
            forbidden: 'I am an admin or a member; or the token lacks `account`.',
            not_found: `${notMember} Or no member has that handle.`,
            last_owner: '',
          },
          roleSchema,
        ),
        parameters: [idParameter, handleParameter],
      },
      delete: {
        ...accountOperation(
          'Remove a member, or leave',
          "My own handle: I leave. Owners remove anyone; admins remove members (not owners or other admins); members remove no one else. The member's figures leave the team's answers at once. Removing another member also replaces the invite code, which they knew: share the new one with those still to join. The only owner cannot leave (409 `last_owner`): hand the team over or delete it.",
          { '204': { description: 'Removed.' } },
          {
            forbidden: 'my role may not remove that member; or the token lacks `account`.',
            not_found: `${notMember} Or no member has that handle.`,
            last_owner: '',
          },
        ),
        parameters: [idParameter, handleParameter],
      },
    },
  };
}
