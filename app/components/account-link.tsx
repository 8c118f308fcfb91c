// The signed-in part of the header: both links are in the page, which is the same for everyone
// (cached); the shell script marks <html> when the browser's session names a user, and the
// stylesheet shows the one that applies (app/components/shell-script.ts).

export function AccountLink() {
  return (
    <>
      <a className="when-signed-out" href="/signin">
        Sign in
      </a>
      <a className="when-signed-in" href="/dashboard">
        Dashboard
      </a>
    </>
  );
}
