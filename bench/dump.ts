import fs from 'node:fs';
import { once } from 'node:events';

// A WakaTime data dump as wakatime.com writes it: days in order, each with its heartbeats as the
// export has them (ids, branch, dependencies, line numbers: what an import must read past).

const languages = ['TypeScript', 'Go', 'Rust', 'Python', 'Markdown'];
const DAY = 86_400;

/** One heartbeat as the export writes it (about 600 bytes). */
function dumped(time: number, i: number): string {
  const project = `project-${i % 5}`;
  return JSON.stringify({
    branch: 'feature/streaming-import',
    category: i % 11 === 0 ? 'debugging' : 'coding',
    created_at: new Date(time * 1000 + 2000).toISOString(),
    cursorpos: 1000 + (i % 900),
    dependencies: ['react', 'next', 'zod', 'drizzle-orm', 'postgres'],
    entity: `/home/developer/src/${project}/packages/core/src/module-${i % 40}/implementation-${i % 13}.ts`,
    id: `5f0c9a52-${(i % 65536).toString(16).padStart(4, '0')}-4b1e-9d6c-${time.toString(16).padStart(12, '0')}`,
    is_write: i % 4 === 0,
    language: languages[i % languages.length],
    line_additions: i % 7,
    line_deletions: i % 3,
    lineno: 10 + (i % 400),
    lines: 500 + (i % 300),
    machine_name_id: '0c51c5b4-5b0a-4e8e-9e8b-0d0c0b0a0908',
    project,
    project_root_count: 5,
    time: time + (i % 10) / 10,
    type: 'file',
    user_agent_id: '3b7a3f0c-1b2c-4d5e-8f90-a1b2c3d4e5f6',
  });
}

/**
 * Writes a dump of about `bytes` bytes to `file`: working days of `perDay` heartbeats two minutes
 * apart (with breaks), ending `endDaysAgo` days ago. Returns the number of heartbeats.
 */
export async function writeDump(file: string, bytes: number, perDay: number, endDaysAgo: number): Promise<number> {
  const perHeartbeat = dumped(1_700_000_000, 1).length + 1;
  const count = Math.ceil(bytes / perHeartbeat);
  const days = Math.ceil(count / perDay);
  const lastDay = Math.floor(Date.now() / 1000 / DAY) - endDaysAgo;
  const out = fs.createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`{"user":{"id":"u","username":"developer","timezone":"UTC"},"range":{"start":0,"end":0},"days":[`);
  let n = 0;
  for (let d = 0; d < days && n < count; d++) {
    const day = lastDay - days + 1 + d;
    const parts: string[] = [];
    for (let k = 0; k < perDay && n < count; k++, n++) {
      // From 08:00, one every two minutes, a 20-minute break every 40.
      const minute = 8 * 60 + k * 2 + Math.floor(k / 20) * 20;
      parts.push(dumped(day * DAY + minute * 60, n));
    }
    await write(`${d ? ',' : ''}{"date":"${new Date(day * DAY * 1000).toISOString().slice(0, 10)}","heartbeats":[${parts.join(',')}]}`);
  }
  await write(']}');
  out.end();
  await once(out, 'finish');
  return n;
}
