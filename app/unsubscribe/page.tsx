import type { Metadata } from 'next';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Unsubscribe from the weekly report', robots: { index: false }, referrer: 'no-referrer' };

/**
 * The weekly report's unsubscribe link, opened in a browser: a button, since opening a link
 * changes nothing (mail scanners open links too). The button posts to this address, which
 * proxy.ts sends to the API's one-click route, as a mail client's one-click POST is.
 */
export default async function Unsubscribe({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token, done } = await searchParams;
  return (
    <>
      <h1>Weekly report</h1>
      {done ? (
        <p className="notice" role="status">
          You are unsubscribed: no more weekly reports. You can turn them on again in your dashboard&rsquo;s settings.
        </p>
      ) : typeof token === 'string' ? (
        <form method="post" action={`/unsubscribe?${new URLSearchParams({ token })}`}>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <input type="hidden" name="then" value="page" />
          <p>Stop the weekly report mails?</p>
          <p>
            <button type="submit">Unsubscribe</button>
          </p>
        </form>
      ) : (
        <p>This address lacks its token: open the unsubscribe link of the mail again.</p>
      )}
    </>
  );
}
