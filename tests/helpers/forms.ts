// A page's form sent as a browser without JavaScript sends it: the hidden fields React rendered
// for its server action, the fields given, multipart/form-data, redirects not followed.

const unescaped = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

export interface FormAnswer {
  status: number;
  type: string | null;
  location: string | null;
  /** The cookies the answer set, as a Cookie header sends them back. */
  cookies: string;
  body: string;
}

/**
 * Loads `page` (with `cookie`), takes its first POST form that has every field named in `fields`,
 * fills them in and posts it to the page's URL, as the form's empty `action` does. `headers` go
 * with both requests (an X-Forwarded-For, to be a visitor from another address behind a proxy;
 * an Origin, to post from another site's page).
 */
export async function postForm(base: string, page: string, fields: Record<string, string>, cookie = '', headers: Record<string, string> = {}): Promise<FormAnswer> {
  const html = await (await fetch(`${base}${page}`, { headers: { ...headers, cookie } })).text();
  const forms = [...html.matchAll(/<form[^>]*method="POST"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]);
  const form = forms.find((f) => Object.keys(fields).every((name) => f.includes(`name="${name}"`)));
  if (!form) throw new Error(`no form with ${Object.keys(fields).join(', ')} on ${page}`);
  const data = new FormData();
  for (const [, attributes] of form.matchAll(/<input([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(attributes)?.[1];
    if (name && /type="hidden"/.test(attributes) && !(name in fields)) data.append(unescaped(name), unescaped(/value="([^"]*)"/.exec(attributes)?.[1] ?? ''));
  }
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  const res = await fetch(`${base}${page}`, { method: 'POST', body: data, redirect: 'manual', headers: { origin: base, ...headers, cookie } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    location: res.headers.get('location'),
    cookies: res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
    body: await res.text(),
  };
}

/** Signs up with email and password through the sign-up form; returns the session cookie of signing in. */
export async function passwordUser(base: string, password = 'a long enough password'): Promise<{ email: string; password: string; cookie: string }> {
  const handle = `p${Math.random().toString(36).slice(2, 10)}`;
  const email = `${handle}@example.com`;
  const signedUp = await postForm(base, '/signup', { handle, email, password });
  if (signedUp.status !== 303) throw new Error(`sign-up answered ${signedUp.status}`);
  const signedIn = await postForm(base, '/signin', { email, password });
  if (!/session-token=/.test(signedIn.cookies)) throw new Error(`sign-in answered ${signedIn.status} without a session`);
  return { email, password, cookie: signedIn.cookies.split('; ').filter((c) => c.includes('session-token=')).join('; ') };
}
