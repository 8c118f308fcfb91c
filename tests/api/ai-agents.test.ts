import { describe, expect, it } from 'vitest';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { issueToken } from '@/lib/accounts/tokens';
import { getDb } from '@/lib/db/client';
import { agentOf } from '@/lib/editors';
import { NO_AGENT, ownBreakdowns } from '@/lib/stats/breakdowns';
import { aiMillis } from '@/lib/stats/queries';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { clientFixture, replayRequest } from '../helpers/client-fixtures';

// AI agents named wherever their time is (lib/editors.ts agentOf, lib/stats/agents.ts): an agent's
// own plugin (claude-code-wakatime, stored as the editor Claude Code) and the same agent named by
// wakatime-cli's AI sync in the User-Agent (`Claude/…`) are one agent, and "By agent" adds up to
// the AI-assisted total, the time no agent is named for on a line of its own.

const nowSeconds = () => Math.floor(Date.now() / 1000);
const sum = (named: { seconds: number }[]) => named.reduce((s, n) => s + n.seconds, 0);

describe('AI agents', () => {
  it('claude-code-wakatime alone: "By agent" lists Claude Code with all the AI-assisted time', async () => {
    const u = await newUser({ timezone: 'UTC' });
    const { token: key } = await issueToken(await getDb(), u.user.id, { name: 'claude', format: 'uuid' });
    const fixture = clientFixture('claude-code-wakatime');
    // Its last heartbeat two minutes ago, the first 30 minutes before: today or yesterday (UTC).
    const request = replayRequest(fixture, key, 'http://localhost', nowSeconds() - 120);
    expect((await postBulk(request, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
    const found = await ownBreakdowns(await getDb(), u.user, { name: '7d' }, 'project');
    expect(found.total_seconds).toBe(1800);
    expect(found.ai.seconds).toBe(1800);
    expect(found.ai.agents).toEqual([{ name: 'Claude Code', seconds: 1800 }]);
    expect(await aiMillis(await getDb(), u.user.id, daysFromToday(-1), daysFromToday(0))).toBe(1_800_000);
  });

  it('a mixed week: the plugin and the User-Agent word are one agent, and the agents add up to the AI total', async () => {
    const u = await newUser({ timezone: 'UTC' });
    const token = await tokenWithScopes(u.user.id, ['sync']);
    const day = (n: number) => daysFromToday(-n);
    const res = await call(postBatch, '/sync/activities', {
      token,
      body: {
        activities: [
          // Claude Code's own plugin: no agent word, the editor is the agent.
          { language: 'Go', time: 1200, date: day(1), hour: 9, project_name: 'api', ide_name: 'claude-code', category: 'ai coding' },
          // wakatime-cli's AI sync in VS Code: `Claude/2.1.5 wakatime/…`.
          { language: 'Go', time: 900, date: day(2), hour: 10, project_name: 'api', ide_name: 'vscode', category: 'ai coding', ai_agent: 'Claude' },
          { language: 'TypeScript', time: 600, date: day(3), hour: 11, project_name: 'web', ide_name: 'vscode', category: 'ai coding', ai_agent: 'Copilot' },
          // AI Coding from an editor that named no agent.
          { language: 'TypeScript', time: 300, date: day(4), hour: 12, project_name: 'web', ide_name: 'vscode', category: 'ai coding' },
          // The user's own time.
          { language: 'Go', time: 3000, date: day(2), hour: 14, project_name: 'api', ide_name: 'vscode' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const found = await ownBreakdowns(await getDb(), u.user, { name: '7d' }, 'project');
    expect(found.ai.seconds).toBe(3000);
    expect(found.ai.agents).toEqual([
      { name: 'Claude Code', seconds: 2100 },
      { name: 'Copilot', seconds: 600 },
      { name: NO_AGENT, seconds: 300 },
    ]);
    expect(sum(found.ai.agents)).toBe(found.ai.seconds);
    expect(found.ai.human_seconds).toBe(3000);
    // Every other AI figure (badges, the public profile under share_ai, the weekly mail) by the same rule.
    expect(await aiMillis(await getDb(), u.user.id, day(6), day(0))).toBe(3_000_000);
  });

  it('agentOf: one name per agent, whichever way it came', () => {
    expect(agentOf('Claude', 'VS Code')).toBe('Claude Code');
    expect(agentOf('', 'Claude Code')).toBe('Claude Code');
    // A User-Agent of the AI sync alone (`Claude/2.1.5`, outside an editor) was stored as the editor `claude` before it was named Claude Code: such rows still count as Claude Code.
    expect(agentOf('', 'claude')).toBe('Claude Code');
    expect(agentOf('Gemini', '')).toBe('Gemini CLI');
    expect(agentOf('Copilot', 'VS Code')).toBe('Copilot');
    expect(agentOf('', 'VS Code')).toBe('');
  });
});
