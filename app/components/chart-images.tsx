import type { DrawnChart } from '@/lib/charts/svg';

// A chart as the embeddable image (GET /main/api/v1/public/charts/...), in the page's theme: an
// image carries its own colours and sees none of the page's, so there is one per theme and the
// stylesheet shows the one of the page (globals.css, .chart-image). Both load lazily: a hidden
// lazy image is never fetched, and the shown one is fetched as soon as it is laid out. The size
// is given, so nothing moves when it arrives; its description is the alt text.

export function ChartImage({ src, drawn }: { src: string; drawn: Pick<DrawnChart, 'desc' | 'width' | 'height'> }) {
  const join = src.includes('?') ? '&' : '?';
  return (
    <>
      {(['light', 'dark'] as const).map((theme) => (
        // eslint-disable-next-line @next/next/no-img-element -- an SVG of the site's own, cached as is
        <img
          key={theme}
          className={`chart-image ${theme}`}
          src={`${src}${join}theme=${theme}`}
          alt={drawn.desc}
          width={drawn.width}
          height={drawn.height}
          loading="lazy"
          decoding="async"
        />
      ))}
    </>
  );
}
