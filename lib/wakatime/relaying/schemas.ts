import { z } from 'zod';
import { checkedText } from '../../text';

// The relay routes' bodies and answers (/me/relays), which also write openapi.json.

/** The most relays one user may have. */
export const MAX_RELAYS = 3;

export const createRelaySchema = z
  .object({
    api_url: z
      .string({ error: 'api_url is required: the WakaTime-compatible base of your other service' })
      .trim()
      .min(1, { error: 'api_url is required: the WakaTime-compatible base of your other service' })
      .max(2048, { error: 'api_url must be at most 2048 characters' })
      .meta({ description: 'The WakaTime-compatible base of the other service: `https://wakatime.com/api/v1`, `https://wakapi.dev/api` (or `/api/compat/wakatime/v1`), `https://hackatime.hackclub.com/api/hackatime/v1`, another Codetally\'s `https://host/api/v1`. Heartbeats go to `{api_url}/users/current/heartbeats.bulk`.' }),
    api_key: checkedText(
      z
        .string({ error: 'api_key is required: your key on the other service' })
        .trim()
        .min(1, { error: 'api_key is required: your key on the other service' })
        .max(512, { error: 'api_key must be at most 512 characters' }),
      'api_key',
    ).meta({ description: 'Your key on the other service; stored encrypted, never shown again.' }),
    name: checkedText(z.string().trim().min(1, { error: 'name must not be empty' }).max(64, { error: 'name must be at most 64 characters' }), 'name')
      .optional()
      .meta({ description: "What the dashboard calls it; the address's host when absent." }),
  })
  .meta({ id: 'RelayCreate' });

export type CreateRelayInput = z.output<typeof createRelaySchema>;

export const updateRelaySchema = z
  .object({
    paused: z.boolean({ error: 'paused must be true or false' }).meta({ description: 'false resumes a paused relay (its failures of the day start again from 0); true pauses it.' }),
  })
  .meta({ id: 'RelayUpdate' });

export const relayCreatedSchema = z.object({ id: z.string().uuid(), name: z.string(), api_url: z.string() }).meta({ id: 'RelayCreated' });

export const relaySchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    api_url: z.string(),
    created_at: z.string().meta({ format: 'date-time' }),
    last_success_at: z.string().nullable().meta({ format: 'date-time', description: 'When the service last accepted heartbeats.' }),
    last_error: z.string().nullable().meta({ description: 'What went wrong last (a failure, a refused heartbeat, heartbeats dropped after 24 hours, why it paused); null after a success.' }),
    failures_today: z.number().int().meta({ description: 'Failed attempts today (UTC); at 100 the relay pauses.' }),
    pending: z.number().int().meta({ description: 'Heartbeats waiting to be forwarded.' }),
    paused: z.boolean().meta({ description: 'Paused: nothing is sent until its owner resumes it (PATCH `{paused: false}`); heartbeats are still queued, each for 24 hours.' }),
  })
  .meta({ id: 'Relay' });

export const relayListSchema = z.object({ data: z.array(relaySchema) }).meta({ id: 'RelayList' });

export type RelayDto = z.infer<typeof relaySchema>;
