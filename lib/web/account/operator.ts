import { notFound } from 'next/navigation';
import { operatorHandle } from '../../admin/operators';
import { getDb } from '../../db/client';
import { currentUser } from './session';

// The console's guard: the signed-in operator's handle; anyone else (a signed-out visitor too)
// finds no such page, as the operator routes answer 404.

export async function requireOperator(): Promise<string> {
  const user = await currentUser();
  const handle = user && (await operatorHandle(await getDb(), user.id));
  if (!handle) notFound();
  return handle;
}
