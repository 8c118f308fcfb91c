import { sql, type SQL } from 'drizzle-orm';
import { agentAliases } from '../editors';

// Which buckets are AI-assisted time, in SQL, by the rule agentOf (lib/editors.ts) names agents
// by: a bucket is an agent's when the User-Agent named one (`ai_agent`) or an agent's own plugin
// sent it (its editor is one: claude-code-wakatime sends as the editor Claude Code), and AI-assisted
// when it is an agent's or in the AI Coding category. Every figure that sums AI time uses it, and
// every list of agents sums what it counts by agentOf over the stored (ai_agent, editor) pairs
// (few: a grouping by them is cheap, where naming each bucket's agent in SQL was not), so that
// "By agent" adds up to the AI total. Read from the stored names at each read: history stored
// before this rule follows it too.

const lower = (column: SQL) => sql`translate(${column}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/** Every spelling (ASCII lowered) an agent's own plugin may be stored under as an editor. */
const agentSpellings = () => `{${agentAliases().map(([alias]) => JSON.stringify(alias)).join(',')}}`;

/** Whether a bucket (its `ai_agent`, `editor` and `category` columns) is AI-assisted time: agentOf names an agent for it, or it is in the AI Coding category. */
export function isAiSql(aiAgent: SQL, editor: SQL, category: SQL): SQL {
  return sql`(${aiAgent} <> '' OR ${category} = 'ai coding' OR ${lower(editor)} = ANY(${agentSpellings()}::text[]))`;
}
