import { cardFontFamily, type SocialCard } from '@/lib/web/public/social-card';

// The drawing of a profile's social card (opengraph-image.tsx), for satori: flex layout only,
// fixed sizes in pixels of the 1200 x 630 image.

const colors = { bg: '#0f172a', panel: '#1e293b', fg: '#f8fafc', muted: '#94a3b8', accent: '#60a5fa', brand: '#0a58a8' };

function Mark() {
  return (
    <svg width="48" height="48" viewBox="0 0 32 32">
      <rect width="32" height="32" rx="6" fill={colors.brand} />
      <path d="M9 21V11m5 10V7m5 14v-6m5 6V13" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

function Stat({ value, label, fontSize }: { value: string; label: string; fontSize: number }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column' }}>
      <div style={{ fontSize, fontWeight: 800, letterSpacing: -1, whiteSpace: 'nowrap' }}>{value}</div>
      <div style={{ fontSize: 26, color: colors.muted }}>{label}</div>
    </div>
  );
}

function Languages({ languages }: { languages: SocialCard['languages'] }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, flex: 1 }}>
      <div style={{ fontSize: 24, fontWeight: 600, color: colors.muted }}>Top languages</div>
      {languages.map((l) => (
        <div key={l.name} style={{ display: 'flex', alignItems: 'center', gap: 20 }}>
          <div style={{ display: 'block', width: 180, fontSize: 28, fontWeight: 600, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }}>{l.name}</div>
          <div style={{ display: 'flex', flex: 1, height: 20, borderRadius: 10, background: colors.panel }}>
            <div style={{ width: `${Math.max(3, l.bar * 100)}%`, height: 20, borderRadius: 10, background: colors.accent }} />
          </div>
          <div style={{ display: 'flex', justifyContent: 'flex-end', width: 72, fontSize: 28, fontWeight: 600 }}>{l.percent}</div>
        </div>
      ))}
    </div>
  );
}

function Days({ days }: { days: number[] }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, flex: 1 }}>
      <div style={{ fontSize: 24, fontWeight: 600, color: colors.muted }}>Coding time per day</div>
      <div style={{ display: 'flex', alignItems: 'flex-end', gap: 5, height: 190, borderBottom: `2px solid ${colors.panel}` }}>
        {days.map((d, i) => (
          <div key={i} style={{ display: 'flex', flex: 1, height: `${Math.max(2, d * 100)}%`, borderRadius: 3, background: d > 0 ? colors.accent : colors.panel }} />
        ))}
      </div>
    </div>
  );
}

export function SocialCardImage({ card }: { card: SocialCard }) {
  return (
    <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', background: colors.bg, color: colors.fg, fontFamily: cardFontFamily }}>
      <div style={{ display: 'flex', height: 10, background: `linear-gradient(90deg, ${colors.brand}, ${colors.accent})` }} />
      <div style={{ display: 'flex', flexDirection: 'column', flex: 1, padding: '40px 64px 36px' }}>
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 16, fontSize: 34, fontWeight: 800 }}>
            <Mark />
            Codetally
          </div>
          <div style={{ display: 'flex', fontSize: 24, fontWeight: 600, color: colors.muted, padding: '8px 18px', border: `2px solid ${colors.panel}`, borderRadius: 999 }}>
            Last 30 days
          </div>
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', marginTop: 28 }}>
          <div style={{ display: 'block', fontSize: card.nameSize, fontWeight: 800, lineHeight: 1.1, letterSpacing: -1.5, overflow: 'hidden', lineClamp: 2 }}>{card.name}</div>
          <div style={{ display: 'flex', fontSize: 34, fontWeight: 600, color: colors.accent, marginTop: 6 }}>{`@${card.handle}`}</div>
        </div>
        <div style={{ display: 'flex', flex: 1, gap: 56, marginTop: 32, alignItems: 'flex-start' }}>
          <div style={{ display: 'flex', flexDirection: 'column', gap: 24, width: 470 }}>
            <Stat value={card.total} label="coded in total" fontSize={56} />
            <Stat value={card.average} label="a day, on days coded" fontSize={44} />
          </div>
          {card.languages.length > 0 ? <Languages languages={card.languages} /> : <Days days={card.days} />}
        </div>
        <div style={{ display: 'flex', fontSize: 24, color: colors.muted }}>{card.address}</div>
      </div>
    </div>
  );
}
