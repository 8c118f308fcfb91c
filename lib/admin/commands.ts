import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createUserSchema, handleSchema, tokenFormatSchema, tokenNameSchema, tokenScopesSchema } from '../accounts/schemas';
import { issueToken, listTokens, revokeToken } from '../accounts/tokens';
import { createUser, findUserByHandle, userDto } from '../accounts/users';
import { setPasswordByOperator } from '../accounts/password-reset';
import { passwordSchema } from '../accounts/sign-in';
import type { Db } from '../db/client';
import { checkedText } from '../text';
import { planIdSchema, setPlan } from '../plans/account';
import { recordAction } from '../leaderboards/trust/audit';
import { setOperator } from './operators';

// Operator commands, run by the CLI directly on the database or, when the embedded database is
// owned by a running server, by that server on the CLI's behalf (see control.ts).

export const commandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('create-user'), input: createUserSchema }),
  z.object({
    command: z.literal('issue-token'),
    handle: handleSchema,
    name: tokenNameSchema.default('cli token'),
    scopes: tokenScopesSchema('scopes'),
    format: tokenFormatSchema,
  }),
  z.object({ command: z.literal('revoke-token'), handle: handleSchema, token: checkedText(z.string().min(1).max(100), 'token') }),
  z.object({ command: z.literal('list-tokens'), handle: handleSchema }),
  // The CLI prompts for the password, or leaves it out to have one generated and shown once.
  // Every API token is revoked too unless keep_tokens (a reset by mail offers the same, checked).
  z.object({ command: z.literal('reset-password'), handle: handleSchema, password: passwordSchema.optional(), keep_tokens: z.boolean().optional() }),
  // What PATCH /admin/users/{handle} {plan} does: limits change at once, nothing is removed.
  z.object({ command: z.literal('set-plan'), handle: handleSchema, plan: planIdSchema }),
  // An operator signs in to the console at /admin and may call the operator routes with their session.
  z.object({ command: z.literal('grant-operator'), handle: handleSchema }),
  z.object({ command: z.literal('revoke-operator'), handle: handleSchema }),
]);

export type Command = z.infer<typeof commandSchema>;

export class CommandError extends Error {}

async function userByHandle(db: Db, handle: string) {
  const user = await findUserByHandle(db, handle);
  if (!user) throw new CommandError(`no user with handle "${handle}"`);
  return user;
}

export async function runCommand(db: Db, command: Command): Promise<unknown> {
  switch (command.command) {
    case 'create-user':
      return createUser(db, command.input);
    case 'issue-token': {
      const user = await userByHandle(db, command.handle);
      const { token, info } = await issueToken(db, user.id, command, { via: 'operator' });
      return { user: userDto(user), token, info };
    }
    case 'revoke-token': {
      const user = await userByHandle(db, command.handle);
      if (!(await revokeToken(db, user.id, command.token))) {
        throw new CommandError(`no live token "${command.token}" for ${command.handle}`);
      }
      return { revoked: command.token };
    }
    case 'list-tokens': {
      const user = await userByHandle(db, command.handle);
      return { tokens: await listTokens(db, user.id) };
    }
    case 'set-plan': {
      const user = await userByHandle(db, command.handle);
      return setPlan(db, user.handle, command.plan);
    }
    case 'grant-operator':
    case 'revoke-operator': {
      const granted = command.command === 'grant-operator';
      const user = await setOperator(db, command.handle, granted);
      if (!user) throw new CommandError(`no user with handle "${command.handle}"`);
      await recordAction(db, { operator: 'admin-cli', action: granted ? 'grant_operator' : 'revoke_operator', handle: user.handle });
      return { handle: user.handle, operator: granted };
    }
    case 'reset-password': {
      // Where the site sends no mail, the way back into a forgotten account (lib/accounts/password-reset.ts).
      const user = await userByHandle(db, command.handle);
      const password = command.password ?? randomBytes(15).toString('base64url');
      const reset = await setPasswordByOperator(db, user.id, password, { revokeTokens: !command.keep_tokens });
      if (reset === null) throw new CommandError(`${command.handle} signs in through an outside provider: there is no password to reset`);
      return { handle: user.handle, sessions_ended: true, tokens_revoked: reset.tokensRevoked, ...(command.password ? {} : { password }) };
    }
  }
}
