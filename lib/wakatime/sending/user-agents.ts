import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { col, cols } from '../../db/names';
import { userAgents } from '../../db/schema';

// The User-Agents a user's heartbeats came with (GET users/current/user_agents), recorded by the
// heartbeat statement (./heartbeat-store.ts). A user keeps the MAX_USER_AGENTS most recently seen:
// each recording removes the ones past them, so a client sending a new User-Agent with every
// request keeps a few dozen rows, not one per request, and both the recording and the list read
// a bounded number of rows.

/** The most User-Agents kept per user. */
export const MAX_USER_AGENTS = 50;

/**
 * CTEs `seen` and `pruned` for a write statement: when `when` holds, record the User-Agents of
 * `agents` (a JSON array of [value, editor, os], at most MAX_USER_AGENTS) as seen now for the user,
 * and delete the user's others past the newest MAX_USER_AGENTS less those recorded. Both see the
 * rows as the statement began, so an agent recorded is kept out of the ranking (a row is never
 * changed twice by one statement), and what is left is at most MAX_USER_AGENTS. The rows of one
 * user are few (at most MAX_USER_AGENTS and one batch's worth), so the ranking reads only those.
 */
export function recordAgentsCtes(userId: SQL, agents: SQLWrapper, when: SQL): SQL {
  const ua = userAgents;
  const kept = alias(userAgents, 'kept');
  const list = sql`${agents}::text::jsonb`;
  return sql`
    seen AS (
      INSERT INTO ${ua} (${cols(ua.userId, ua.value, ua.editor, ua.os)})
      SELECT ${userId}, e->>0, e->>1, e->>2 FROM jsonb_array_elements(${list}) AS e
      WHERE ${when}
      ON CONFLICT (${cols(ua.userId, ua.value)}) DO UPDATE SET ${col(ua.lastSeenAt)} = now(), ${col(ua.editor)} = excluded.${col(ua.editor)}, ${col(ua.os)} = excluded.${col(ua.os)}
    ),
    pruned AS (
      DELETE FROM ${ua} WHERE ${ua.userId} = ${userId} AND ${when} AND ${ua.value} IN (
        SELECT ${kept.value} FROM ${ua} AS kept
        WHERE ${kept.userId} = ${userId} AND ${kept.value} NOT IN (SELECT e->>0 FROM jsonb_array_elements(${list}) AS e)
        ORDER BY ${kept.lastSeenAt} DESC, ${kept.value}
        OFFSET greatest(0, ${MAX_USER_AGENTS} - jsonb_array_length(${list}))
      )
    )`;
}
