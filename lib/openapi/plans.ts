import type { z } from 'zod';
import { accountPlanSchema, setPlanSchema, userPlanSchema } from '../plans/account';
import { limitsSchema } from '../plans';
import { ref } from './components';
import { always, jsonBody, problems } from './operations';

// Plans in openapi.json: an operator's change of a user's plan. The plan list is
// /get/list/plans; what a plan allows is PlanLimits, enforced as `plan_limit` on each route that
// makes a thing a plan bounds.

export const planRoots: z.ZodType[] = [limitsSchema, accountPlanSchema, setPlanSchema, userPlanSchema];

/** What a create route answers when the plan's limit is reached. */
export const planLimitNote = (limit: string) =>
  `the user holds as many as the plan's \`${limit}\` allows (with plans off, the server's own cap); \`errors[0].path\` is \`${limit}\`, the detail names the plan that allows more. Nothing was made.`;

export function planPaths() {
  return {
    '/admin/users/{handle}': {
      patch: {
        summary: 'Put a user on a plan',
        description:
          'An operator\'s change of plan (also `npm run admin -- set-plan --handle H --plan P`), and where a payment provider\'s webhook, forwarded by the operator, lands: see docs/running.md, Plans. The plan\'s limits apply from the next request on every process: a longer window of history shows what was kept all along, a shorter one hides older days (nothing is deleted). A downgrade removes nothing: tokens or badges over the new limit stay, and making more is refused (403 `plan_limit`) until the user is under it. Any plan id may be given, listed or not. On an install that sells no plans (no `PLANS=on`) the plan is stored and applies once plans are on; until then the answer\'s `plan` is what applies now: `self-hosted`, the caps that protect the server.',
        security: [{ admin: [] }],
        parameters: [{ name: 'handle', in: 'path', required: true, schema: { type: 'string' }, description: 'The user\'s handle, in any case.' }],
        requestBody: { required: true, content: { 'application/json': { schema: ref(setPlanSchema) } } },
        responses: {
          '200': { description: 'The user\'s plan, its limits and what the user uses of each.', content: { 'application/json': { schema: ref(userPlanSchema) } } },
          ...problems({
            ...jsonBody,
            unauthorized: 'wrong admin token.',
            not_found: 'ADMIN_TOKEN is not set, or no user has this handle.',
            rate_limited: 'too many wrong admin tokens from this address; honour `Retry-After`.',
            invalid_payload: 'naming `plan`: not a plan id (`unknown_plan`), or another field.',
            ...always,
          }),
        },
      },
    },
  };
}
