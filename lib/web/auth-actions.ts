import { cookies, headers } from 'next/headers';
import { runAuthAction } from '../auth/authjs';
import { requestOrigin } from './session';

// Server actions reach Auth.js through here: run the action, keep the cookies it set.

type SameSite = 'lax' | 'strict' | 'none';

async function keepCookies(response: Response): Promise<void> {
  const jar = await cookies();
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = decodeURIComponent(pair.slice(at + 1).trim());
    const options: Parameters<typeof jar.set>[2] = {};
    for (const attribute of attributes) {
      const [key, raw = ''] = attribute.trim().split('=');
      const k = key.toLowerCase();
      if (k === 'path') options.path = raw;
      else if (k === 'max-age') options.maxAge = Number(raw);
      else if (k === 'expires') options.expires = new Date(raw);
      else if (k === 'httponly') options.httpOnly = true;
      else if (k === 'secure') options.secure = true;
      else if (k === 'samesite') options.sameSite = raw.toLowerCase() as SameSite;
    }
    jar.set(name, value, options);
  }
}

/** Runs an Auth.js action (sign-in, sign-out) and returns where Auth.js sends the browser. */
export async function authAction(action: string, form: Record<string, string>): Promise<string> {
  const h = await headers();
  const response = await runAuthAction(await requestOrigin(), action, form, { cookie: h.get('cookie') ?? '', forwardedFor: h.get('x-forwarded-for') });
  await keepCookies(response);
  return response.headers.get('location') ?? '/';
}
