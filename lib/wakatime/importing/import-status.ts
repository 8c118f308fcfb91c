import { z } from 'zod';
import { imports } from '../../db/schema';
import { heartbeatSchema } from '../sending/heartbeat-input';

// What an import is to its owner: its statuses, the answers of the import routes (and the dump's
// shape, for openapi.json), made from an `imports` row.

/** What a dump looks like (for openapi.json: the reader follows only `days` and their `heartbeats`). */
export const wakatimeDumpSchema = z
  .object({
    user: z.unknown().optional(),
    range: z.unknown().optional(),
    days: z.array(z.object({ date: z.string(), heartbeats: z.array(heartbeatSchema) })),
    user_agents: z
      .array(z.object({ id: z.string(), value: z.string().nullish(), editor: z.string().nullish(), os: z.string().nullish() }))
      .optional()
      .meta({
        description:
          "The User-Agents the heartbeats name by `user_agent_id`, before or after `days`: each heartbeat without a `user_agent` of its own gets the editor and operating system of its entry (the User-Agent read as the heartbeat routes read one, else the entry's `editor` and `os`), or of its own `editor` and `operating_system`; editors under their canonical names. At most 10 000 entries are read.",
      }),
  })
  .meta({ id: 'WakaTimeDump', description: 'A WakaTime data dump of heartbeats; a bare array of heartbeats is read too.' });

export const importStatuses = ['receiving', 'queued', 'running', 'done', 'failed'] as const;
/** The statuses of an import that has not ended, and of one that may be read. */
export const unfinished = ['receiving', 'queued', 'running'];
export const readable = ['queued', 'running'];

export const importSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(importStatuses).meta({ description: 'receiving: the upload is arriving; queued: received, waiting its turn; running; done; failed: `error` says why.' }),
    bytes: z.number().int().meta({ description: 'The size of the uploaded dump.' }),
    bytes_read: z.number().int(),
    heartbeats_read: z.number().int().meta({ description: 'Heartbeats read from the dump so far, skipped ones included.' }),
    heartbeats_skipped: z.number().int().meta({ description: 'Heartbeats left out: not valid under the heartbeat rules, or more than an hour ahead.' }),
    done: z.boolean().meta({ description: 'True once the import has ended, done or failed.' }),
    error: z.string().nullable().meta({ description: 'Why it failed; for an import by key, what the other server answered (its status and a short reason), never the key.' }),
    source: z.enum(['file', 'wakatime', 'compatible']).meta({ description: 'file: an uploaded dump; wakatime: a data dump fetched from WakaTime by key (or a pasted download link); compatible: read day by day from a compatible server by key.' }),
    days_total: z.number().int().meta({ description: 'An import from a compatible server: the days it reads (0 otherwise).' }),
    days_done: z.number().int().meta({ description: 'The days read so far, of `days_total`.' }),
    stage: z.string().nullable().meta({ description: 'What an import by key is doing now, in words (waiting for WakaTime to prepare the dump, downloading it, reading days); null otherwise.' }),
    created_at: z.iso.datetime({ offset: true }),
    finished_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'Import' });

export const importListSchema = z.object({ imports: z.array(importSchema) }).meta({ id: 'ImportList' });

export type ImportStatus = z.infer<typeof importSchema>;

type ImportRow = typeof imports.$inferSelect;

export function present(row: ImportRow): ImportStatus {
  return {
    id: row.id,
    status: row.status as ImportStatus['status'],
    bytes: row.bytes,
    bytes_read: row.bytesRead,
    heartbeats_read: row.heartbeatsRead,
    heartbeats_skipped: row.heartbeatsSkipped,
    done: row.status === 'done' || row.status === 'failed',
    error: row.error,
    source: (row.source ?? 'file') as ImportStatus['source'],
    days_total: row.daysTotal ?? 0,
    days_done: row.daysDone ?? 0,
    stage: row.stage ?? null,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}
