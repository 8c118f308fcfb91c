import type { DrawnChart } from '@/lib/charts/svg';

// A chart as the embeddable image (GET /main/api/v1/public/charts/...), in the page's theme: an
// image carries its own colours and sees none of the page's, so there is one per theme. One
// <picture> holds both: the browser fetches only the one of the system's scheme, and the shell
// script (app/components/shell-script.ts) points the dark source at the footer's choice where the
// visitor made one. The page's largest chart (`first`) is fetched at once, at high priority; the
// others when they come near the screen. The size is given, so nothing moves when it arrives; its
// description is the alt text.

/** The smallest text a chart is drawn with on a page, in CSS pixels. */
const LEAST_TEXT_PX = 9;

export function ChartImage({ src, drawn, first = false }: { src: string; drawn: Pick<DrawnChart, 'desc' | 'width' | 'height' | 'textPx'>; first?: boolean }) {
  const join = src.includes('?') ? '&' : '?';
  // An image is drawn no narrower than keeps its text 9 px: one made for a phone's card fits it;
  // a wider one (the year) scrolls sideways in its own box.
  const least = Math.min(drawn.width, Math.ceil((drawn.width * LEAST_TEXT_PX) / drawn.textPx));
  return (
    <div className="chart-scroll" tabIndex={0} role="group" aria-label="Chart" style={{ ['--chart-min' as string]: `${least}px` }}>
      <picture className="chart-image">
        <source srcSet={`${src}${join}theme=dark`} media="(prefers-color-scheme: dark)" data-dark-chart="" suppressHydrationWarning />
        <img
          src={`${src}${join}theme=light`}
          alt={drawn.desc}
          width={drawn.width}
          height={drawn.height}
          loading={first ? 'eager' : 'lazy'}
          fetchPriority={first ? 'high' : undefined}
          decoding="async"
        />
      </picture>
    </div>
  );
}
