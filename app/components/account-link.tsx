// The signed-in part of the header. Public pages are cached and must be the same for everyone
// (a hard rule: a page kept by the cache is served to every visitor), so the header is never
// rendered per user; both sets of links are in every page and the stylesheet shows one:
// - with JavaScript, the shell script marks <html> when the browser's session names a user
//   (app/components/shell-script.ts): "Dashboard" and "Sign out" instead of "Sign in";
// - a page rendered for its signed-in user alone (the dashboard, the sign-out page: never cached)
//   holds <SignedInPage />, and the stylesheet shows the signed-in links on it without a script.
// A cached page without JavaScript shows "Sign in", which, for a signed-in visitor, goes on to
// the dashboard (the sign-in page sends a signed-in visitor where they were going).

export function AccountLink() {
  return (
    <>
      <a className="when-signed-out" href="/signin">
        Sign in
      </a>
      <a className="when-signed-in" href="/dashboard">
        Dashboard
      </a>
      <a className="when-signed-in" href="/signout">
        Sign out
      </a>
    </>
  );
}

/** Marks a page rendered for a signed-in user (never a cached one): its header shows the signed-in links. */
export function SignedInPage() {
  return <span hidden data-signed-in-page="" />;
}
