// npm run admin -- <command> [options] — operator commands; prints a new token once
import { parseArgs } from 'node:util';
import { commandSchema, CommandError, runCommand, type Command } from '../lib/admin/commands';
import { controlSocketPath, sendControlCommand } from '../lib/admin/control';
import { openDb } from '../lib/db/client';
import { migrateDb } from '../lib/db/migrate';
import { ApiError } from '../lib/http/problem';
import { enterAppRoot, loadConfigOrExit } from './env';
import { directTarget } from './migrations';

const usage = `Usage: npm run admin -- <command> [options]

  create-user  --handle <h> [--display-name <n>] [--timezone <tz>] [--public] [--leaderboard]
               [--share-languages] [--share-editors] [--share-apps] [--no-community-stats]
               [--format ct|uuid]
  issue-token  --handle <h> [--name <n>] [--scopes sync,badges,account,stats] [--format ct|uuid]

  --format uuid issues a key in the format WakaTime plugins accept (scopes sync and stats unless named).
  revoke-token --handle <h> --token <id or prefix>
  list-tokens  --handle <h>`;

function commandFromArgs(argv: string[]): Command {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      handle: { type: 'string' },
      'display-name': { type: 'string' },
      timezone: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      format: { type: 'string' },
      token: { type: 'string' },
      public: { type: 'boolean' },
      leaderboard: { type: 'boolean' },
      'share-languages': { type: 'boolean' },
      'share-editors': { type: 'boolean' },
      'share-apps': { type: 'boolean' },
      'no-community-stats': { type: 'boolean' },
    },
  });
  const command = positionals[0];
  const raw =
    command === 'create-user'
      ? {
          command,
          input: {
            handle: values.handle,
            display_name: values['display-name'],
            timezone: values.timezone,
            settings: {
              profile_public: values.public ?? false,
              leaderboard: values.leaderboard ?? false,
              share_languages: values['share-languages'] ?? false,
              share_editors: values['share-editors'] ?? false,
              share_apps: values['share-apps'] ?? false,
              community_stats: !values['no-community-stats'],
            },
            token: values.format ? { format: values.format } : undefined,
          },
        }
      : { command, handle: values.handle, name: values.name, scopes: values.scopes?.split(','), format: values.format, token: values.token };
  const parsed = commandSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'command'}: ${i.message}`).join('\n');
    throw new CommandError(`${problems}\n\n${usage}`);
  }
  return parsed.data;
}

async function main(): Promise<void> {
  enterAppRoot();
  const cfg = loadConfigOrExit();
  const command = commandFromArgs(process.argv.slice(2));
  if (!cfg.DATABASE_URL) {
    const answer = await sendControlCommand(controlSocketPath(cfg.DATA_DIR), command);
    if (answer) {
      if (!answer.ok) throw new CommandError(answer.error);
      console.log(JSON.stringify(answer.result, null, 2));
      return;
    }
  }
  const handle = await openDb(directTarget(cfg), 1);
  try {
    await migrateDb(handle);
    console.log(JSON.stringify(await runCommand(handle.db, command), null, 2));
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  if (err instanceof CommandError) console.error(err.message);
  else if (err instanceof ApiError) console.error(`${err.detail} ${JSON.stringify(err.extra.errors ?? [])}`);
  else console.error('[codetally] admin command failed:', err.message ?? err);
  process.exit(1);
});
