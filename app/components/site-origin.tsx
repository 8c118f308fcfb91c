// Text that names the site's address, on a page served from the cache (the same for everyone):
// rendered with the configured origin (SITE_URL), then given the address this browser used by
// the shell script (app/components/shell-script.ts).

/** The lines of ~/.wakatime.cfg that point a WakaTime plugin here, for WithOrigin (the key a placeholder). */
export const wakatimeCfgLines = '[settings]\napi_url = {origin}/api/wakatime/v1\napi_key = <your key>';

/** `text` with every `{origin}` replaced by the site's origin, and `{host}` by its host (a README card's `api_domain`). */
export function WithOrigin({ text, configured }: { text: string; configured: string }) {
  return (
    <span data-origin-text={text} suppressHydrationWarning>
      {text.replaceAll('{origin}', configured).replaceAll('{host}', new URL(configured).host)}
    </span>
  );
}
