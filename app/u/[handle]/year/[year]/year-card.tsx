import { cardFontFamily } from '@/lib/web/public/social-card';
import { MONTH_LETTERS, type YearCard } from '@/lib/web/public/year-card';

// The drawing of a public year's share image (card.png/route.tsx), for satori: flex layout only,
// fixed sizes in pixels of the 1200 x 630 image, the profile card's colours.

const colors = { bg: '#0f172a', panel: '#1e293b', fg: '#f8fafc', muted: '#94a3b8', accent: '#60a5fa', brand: '#0a58a8' };

function Mark() {
  return (
    <svg width="44" height="44" viewBox="0 0 32 32">
      <rect width="32" height="32" rx="6" fill={colors.brand} />
      <path d="M9 21V11m5 10V7m5 14v-6m5 6V13" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

function Languages({ languages }: { languages: YearCard['languages'] }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 14, flex: 1 }}>
      <div style={{ fontSize: 24, fontWeight: 600, color: colors.muted }}>Top languages</div>
      {languages.map((l) => (
        <div key={l.name} style={{ display: 'flex', alignItems: 'center', gap: 18 }}>
          <div style={{ display: 'block', width: 170, fontSize: 26, fontWeight: 600, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }}>{l.name}</div>
          <div style={{ display: 'flex', flex: 1, height: 18, borderRadius: 9, background: colors.panel }}>
            <div style={{ width: `${Math.max(3, l.bar * 100)}%`, height: 18, borderRadius: 9, background: colors.accent }} />
          </div>
          <div style={{ display: 'flex', justifyContent: 'flex-end', width: 70, fontSize: 26, fontWeight: 600 }}>{l.percent}</div>
        </div>
      ))}
    </div>
  );
}

function Months({ months }: { months: number[] }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12, flex: 1 }}>
      <div style={{ fontSize: 24, fontWeight: 600, color: colors.muted }}>Month by month</div>
      <div style={{ display: 'flex', alignItems: 'flex-end', gap: 10, height: 200, borderBottom: `2px solid ${colors.panel}` }}>
        {months.map((m, i) => (
          <div key={i} style={{ display: 'flex', flex: 1, height: `${Math.max(2, m * 100)}%`, borderRadius: 4, background: m > 0 ? colors.accent : colors.panel }} />
        ))}
      </div>
      <div style={{ display: 'flex', gap: 10 }}>
        {MONTH_LETTERS.map((letter, i) => (
          <div key={i} style={{ display: 'flex', flex: 1, justifyContent: 'center', fontSize: 20, color: colors.muted }}>
            {letter}
          </div>
        ))}
      </div>
    </div>
  );
}

export function YearCardImage({ card }: { card: YearCard }) {
  return (
    <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', background: colors.bg, color: colors.fg, fontFamily: cardFontFamily }}>
      <div style={{ display: 'flex', height: 10, background: `linear-gradient(90deg, ${colors.brand}, ${colors.accent})` }} />
      <div style={{ display: 'flex', flexDirection: 'column', flex: 1, padding: '36px 64px 32px' }}>
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 16, fontSize: 32, fontWeight: 800 }}>
            <Mark />
            Codetally
          </div>
          <div style={{ display: 'flex', fontSize: 26, fontWeight: 800, color: colors.fg, padding: '8px 20px', border: `2px solid ${colors.accent}`, borderRadius: 999 }}>
            {`Year in code ${card.year}`}
          </div>
        </div>
        <div style={{ display: 'flex', alignItems: 'baseline', gap: 20, marginTop: 24 }}>
          <div style={{ display: 'block', fontSize: card.nameSize, fontWeight: 800, letterSpacing: -1, maxWidth: 760, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }}>{card.name}</div>
          <div style={{ display: 'flex', fontSize: 30, fontWeight: 600, color: colors.accent }}>{`@${card.handle}`}</div>
        </div>
        <div style={{ display: 'flex', flex: 1, gap: 56, marginTop: 24, alignItems: 'flex-start' }}>
          <div style={{ display: 'flex', flexDirection: 'column', gap: 18, width: 440 }}>
            <div style={{ display: 'flex', flexDirection: 'column' }}>
              <div style={{ fontSize: 60, fontWeight: 800, letterSpacing: -1, whiteSpace: 'nowrap' }}>{card.total}</div>
              <div style={{ fontSize: 24, color: colors.muted }}>{`coded in ${card.year}`}</div>
            </div>
            <div style={{ display: 'flex', gap: 28 }}>
              {card.stats.map((s) => (
                <div key={s.label} style={{ display: 'flex', flexDirection: 'column', maxWidth: 160 }}>
                  <div style={{ fontSize: 36, fontWeight: 800, whiteSpace: 'nowrap' }}>{s.value}</div>
                  <div style={{ fontSize: 20, color: colors.muted }}>{s.label}</div>
                </div>
              ))}
            </div>
          </div>
          {card.languages.length > 0 ? <Languages languages={card.languages} /> : <Months months={card.months} />}
        </div>
        <div style={{ display: 'flex', fontSize: 22, color: colors.muted }}>{card.address}</div>
      </div>
    </div>
  );
}
