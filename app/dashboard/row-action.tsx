// A one-button form acting on one token or badge; works without JavaScript.
export function RowAction({ action, id, label, ariaLabel }: { action: (form: FormData) => Promise<void>; id: string; label: string; ariaLabel: string }) {
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="secondary" aria-label={ariaLabel}>
        {label}
      </button>
    </form>
  );
}
