import type { z } from 'zod';
import { importSchema } from '../wakatime/importing/import-status';
import { remoteImportSchema } from '../wakatime/importing/remote';
import { accountOperation, ok } from './operations';

// The import by key in openapi.json (lib/wakatime/importing/remote.ts).

/** The schemas these operations name (documentRoots). */
export const remoteImportRoots = (): z.ZodType[] => [remoteImportSchema];

export function remoteImportPaths(): Record<string, unknown> {
  return {
    '/me/imports/remote': {
      post: accountOperation(
        'Import my history by key',
        "Instead of a file: `{from: \"wakatime\", api_key}` asks WakaTime (WAKATIME_API_URL) for the account's heartbeat data dump (`POST`/`GET /users/current/data_dumps`, type `heartbeats`), waits until it is `Completed`, downloads its `download_url` (only from the hosts in IMPORT_DOWNLOAD_HOSTS) and imports it as an upload is, editors and machines named through `user_agents` and `machine_names` read with the same key; with `download_url`, a data dump link copied from wakatime.com (Settings, Export) is imported instead of asking WakaTime for one (WakaTime sometimes makes none by key). `{from: \"compatible\", api_url, api_key}` reads a Wakapi, Hackatime or Codetally server's `users/current` (at `api_url`, else at `/v1`, `/compat/wakatime/v1` or `/wakatime/v1` below it when it answers 404), `all_time_since_today` (its first day; else the account's creation), `user_agents`, `machine_names`, then `heartbeats?date=` day by day from the first day to today (at most 20 years; a paged day is followed through `next_after`), and imports them. Answered 202 at once; `GET /me/imports/{id}` shows `stage`, `days_done` of `days_total`, and the end (`error`: what the other server answered, its status and a short reason). The key is used for this import only: never stored, logged or answered. Requests go only to public addresses or to hosts in IMPORT_ALLOWED_HOSTS (WAKATIME_API_URL and IMPORT_DOWNLOAD_HOSTS are the operator's, trusted as set), never follow a redirect off them, and each answer is bounded (30 s, 32 MiB; a dump's download IMPORT_MAX_BYTES). Importing the same days again counts nothing twice. A restart of the service while the key is held ends the import, failed, saying so (its days kept, counted once when imported again); a WakaTime dump already downloaded resumes as an upload does. One import at a time per user; at most 10 imports by key (or look-ups with a key) an hour.",
        { '202': { ...ok(importSchema), description: 'Accepted: running in the background. `Location` is its status.', headers: { Location: { schema: { type: 'string' } } } } },
        {
          invalid_payload: '`from` is neither `wakatime` nor `compatible`; `api_key` is missing or not a key; `api_url` is not an http(s) address, carries a user name, a query or a fragment, or is loopback, private or otherwise not public and not in IMPORT_ALLOWED_HOSTS; `download_url` is not on a host in IMPORT_DOWNLOAD_HOSTS. `errors[].path` names the field.',
          malformed_json: 'the body is not a JSON object.',
          import_in_progress: 'another import of mine is unfinished (one at a time).',
          rate_limited: 'the user started 10 imports by key (or look-ups with a key) in the last hour; honour `Retry-After`.',
          unavailable: 'the database did not answer in time; honour `Retry-After`.',
        },
        remoteImportSchema,
      ),
    },
  };
}
