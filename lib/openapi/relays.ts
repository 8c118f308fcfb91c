import type { z } from 'zod';
import { createRelaySchema, MAX_RELAYS, relayCreatedSchema, relayListSchema, relaySchema, updateRelaySchema } from '../wakatime/relaying/schemas';
import { jsonBody, ok, sessionOperation } from './operations';

// Relays in openapi.json (lib/wakatime/relaying/): the old service kept in step.

/** The schemas these operations name (documentRoots). */
export const relayRoots = (): z.ZodType[] => [createRelaySchema, updateRelaySchema, relayCreatedSchema, relaySchema, relayListSchema];

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, description: "The relay's id." };
const notMine = { not_found: 'no relay of mine with that id (another user\'s is not found either).' };

const relayRules =
  "Every WakaTime heartbeat my clients send that Codetally accepts (the heartbeat routes, single and bulk) is forwarded to each relay as WakaTime's bulk request, `POST {api_url}/users/current/heartbeats.bulk`, with Basic auth of the relay's key, the client's own `User-Agent` and `X-Machine-Name`, and `X-Origin-Instance: <this install's id>`; the fields forwarded are those WakaTime's clients send (the entity, a file's path included: the relay sends it to the service I named), placeholders such as `<<LAST_PROJECT>>` replaced by the name they stood for here. A heartbeat request that carries `X-Origin-Instance` is stored and never relayed (no loops between two installs); nor are heartbeats older than 180 days, nor imports. The local write never waits for a relay: forwarding is queued in the database, sent within seconds, retried after a failure with backoff (5 s, doubling, at most 20 minutes) across restarts, each heartbeat for 24 hours after it was queued (then dropped, and `last_error` says so), and sent once per relay that accepted it (a heartbeat the service refuses with a 4xx other than 429 is dropped, `last_error` naming the refusal). After 100 failed attempts in a UTC day, when the service refuses its key (401 or 403) at the third failed attempt in a row, or when its key can no longer be read (AUTH_SECRET changed), a relay pauses (`paused`, `last_error` says why; its owner is mailed when mail is set up) until `PATCH {paused: false}`.";

export function relayPaths(): Record<string, unknown> {
  return {
    '/me/relays': {
      get: sessionOperation('My relays', `Each relay with its state: \`last_success_at\`, \`last_error\`, \`failures_today\`, \`pending\` (heartbeats waiting), \`paused\`. The key never comes back. ${relayRules}`, { '200': ok(relayListSchema) }),
      post: sessionOperation(
        'Add a relay',
        `Keeps my old service (WakaTime, Wakapi, Hackatime, another Codetally) in step. \`api_url\` is checked with the outbound rules of an import by key (public addresses, or a host in IMPORT_ALLOWED_HOSTS; no user name, query or fragment), then the key is checked once by \`GET {api_url}/users/current\`; the key is stored encrypted (AES-256-GCM under a key derived from AUTH_SECRET) and never answered. At most ${MAX_RELAYS} relays a user. ${relayRules}`,
        { '201': { ...ok(relayCreatedSchema), description: 'Created. `Location` names it.', headers: { Location: { schema: { type: 'string' } } } } },
        {
          ...jsonBody,
          invalid_payload: `naming the field and its rule: \`api_url\` (\`invalid_format\`; \`address_not_allowed\`: not public and not in IMPORT_ALLOWED_HOSTS; \`relay_unreachable\`: no answer, or \`users/current\` answered neither 2xx nor 401/403), \`api_key\` (\`key_refused\`: 401 or 403 from \`users/current\`), \`name\`; \`too_many_relays\` past ${MAX_RELAYS}.`,
          rate_limited: 'the user had 10 relay keys checked in the last hour (each a request to the address given): nothing was asked nor kept. Honour `Retry-After`.',
        },
        { body: createRelaySchema },
      ),
    },
    '/me/relays/{id}': {
      patch: sessionOperation(
        'Pause or resume a relay',
        '`{paused: false}` resumes a paused relay at once (its failures of the day and its backoff start again); `{paused: true}` pauses it (heartbeats are still queued, each for 24 hours).',
        { '200': { ...ok(relaySchema), description: 'The relay as now.' } },
        { ...jsonBody, invalid_payload: '`paused` missing or not a boolean.', ...notMine },
        { body: updateRelaySchema, parameters: [idParameter] },
      ),
      delete: sessionOperation('Delete a relay', 'Deleted at once, with the heartbeats it had waiting.', { '204': { description: 'Deleted.' } }, notMine, { parameters: [idParameter] }),
    },
  };
}
