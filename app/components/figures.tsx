// A row of headline figures ("12 hrs 5 mins / last 30 days").

export function Figures({ items }: { items: { label: string; value: string }[] }) {
  return (
    <div className="figures">
      {items.map((i) => (
        <div className="figure" key={i.label}>
          <strong>{i.value}</strong>
          <span className="muted">{i.label}</span>
        </div>
      ))}
    </div>
  );
}
