/** Where the operator's command is named, for sites that send no mail. */
export function OperatorReset() {
  return (
    <p>
      This site sends no mail, so a password cannot be reset by a link. Ask the site&rsquo;s operator: they can set a new one for you with{' '}
      <code>npm run admin -- reset-password --handle &lt;your handle&gt;</code>.
    </p>
  );
}
