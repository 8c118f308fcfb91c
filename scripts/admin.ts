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
  list-tokens  --handle <h>
  reset-password --handle <h> [--generate] [--keep-tokens]
               sets a new password, signs the user out everywhere and revokes every API token
               (unless --keep-tokens): typed at the prompt, or (empty answer, --generate, or no
               terminal) generated and printed once
  set-plan     --handle <h> --plan <id>
               puts the user on the plan (free, pro, team, ...) at once; nothing of theirs is removed
  grant-operator --handle <h>
               makes the user an operator: the console at /admin (revoke-operator undoes it)`;

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
      generate: { type: 'boolean' },
      'keep-tokens': { type: 'boolean' },
      plan: { type: 'string' },
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
      : { command, handle: values.handle, name: values.name, scopes: values.scopes?.split(','), format: values.format, token: values.token, plan: values.plan, keep_tokens: values['keep-tokens'] };
  const parsed = commandSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'command'}: ${i.message}`).join('\n');
    throw new CommandError(`${problems}\n\n${usage}`);
  }
  return parsed.data;
}

/** Reads a line from the terminal without showing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    let value = '';
    const done = () => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stdout.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0003') {
          done();
          if (ch === '\u0003') reject(new CommandError('cancelled'));
          else resolve(value);
          return;
        }
        value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** reset-password: the new password typed twice at a terminal; none (generated) when left empty, asked for, or without a terminal. */
async function withPassword(command: Command, generate: boolean): Promise<Command> {
  if (command.command !== 'reset-password' || generate || !process.stdin.isTTY) return command;
  const password = await promptHidden(`New password for ${command.handle} (empty: generate one): `);
  if (password === '') return command;
  if ((await promptHidden('The same again: ')) !== password) throw new CommandError('the two passwords differ; nothing was changed');
  const parsed = commandSchema.safeParse({ ...command, password });
  if (!parsed.success) throw new CommandError(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
}

async function main(): Promise<void> {
  enterAppRoot();
  const cfg = loadConfigOrExit();
  const argv = process.argv.slice(2);
  const command = await withPassword(commandFromArgs(argv), argv.includes('--generate'));
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
