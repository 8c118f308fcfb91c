'use client';

import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';

// Interactive charts, hydrated on top of the server-rendered figures and tables next to them.

const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;
const palette = ['#0a58a8', '#d97706', '#1d6b35', '#a4161a', '#6b3fa0', '#0e7490', '#7c5e10', '#be185d', '#4a5060', '#2f7bc8'];
const size = { width: '100%', aspectRatio: 2.6, maxHeight: 280 } as const;

export function DailyBars({ days, label }: { days: { date: string; seconds: number }[]; label: string }) {
  const data = days.map((d) => ({ date: d.date.slice(5), hours: hours(d.seconds) }));
  return (
    <figure className="chart" aria-label={label}>
      <BarChart responsive style={size} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tick={{ fontSize: 12 }} minTickGap={12} />
        <YAxis tick={{ fontSize: 12 }} unit="h" />
        <Tooltip formatter={(v) => [`${v} h`, 'coding']} />
        <Bar dataKey="hours" fill="#0a58a8" isAnimationActive={false} />
      </BarChart>
    </figure>
  );
}

export function LanguagePie({ items, label }: { items: { name: string; seconds: number; percent: number }[]; label: string }) {
  const top = items.slice(0, 8);
  const rest = items.slice(8).reduce((sum, i) => sum + i.seconds, 0);
  const data = [...top.map((i) => ({ name: i.name, value: hours(i.seconds) })), ...(rest > 0 ? [{ name: 'Other', value: hours(rest) }] : [])];
  return (
    <figure className="chart" aria-label={label}>
      <PieChart responsive style={{ width: '100%', aspectRatio: 1.6, maxHeight: 260 }}>
        <Pie data={data} dataKey="value" nameKey="name" innerRadius="45%" outerRadius="80%" isAnimationActive={false}>
          {data.map((d, i) => (
            <Cell key={d.name} fill={palette[i % palette.length]} />
          ))}
        </Pie>
        <Tooltip formatter={(v, name) => [`${v} h`, name]} />
      </PieChart>
    </figure>
  );
}

export function WeeklyTrend({ weeks, label }: { weeks: { week_start: string; seconds: number }[]; label: string }) {
  const data = weeks.map((w) => ({ week: w.week_start.slice(5), hours: hours(w.seconds) }));
  return (
    <figure className="chart" aria-label={label}>
      <AreaChart responsive style={size} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="week" tick={{ fontSize: 12 }} />
        <YAxis tick={{ fontSize: 12 }} unit="h" />
        <Tooltip formatter={(v) => [`${v} h`, 'week']} />
        <Area dataKey="hours" stroke="#0a58a8" fill="#b6d4f2" isAnimationActive={false} />
      </AreaChart>
    </figure>
  );
}
