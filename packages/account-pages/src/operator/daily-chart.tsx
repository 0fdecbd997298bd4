import { useEffect, useRef } from 'react';
import type uPlotClass from 'uplot';

const DAY_SECONDS = 86_400;
const HEIGHT = 180;
const BAR_COLOUR = '#2563eb';

type Day = { label: string; value: number };
type UPlot = typeof uPlotClass;

/** Draws the bars into `target` and keeps them as wide as it; the returned function undoes both. */
function draw(uPlot: UPlot, target: HTMLDivElement, title: string, days: Day[]): () => void {
  /** uPlot draws in local time by default; the report's days are UTC days. */
  const utc = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');
  const xs = days.map((day) => Date.parse(`${day.label}T00:00:00Z`) / 1000);
  const width = () => Math.max(240, target.clientWidth);
  const plot = new uPlot(
    {
      width: width(),
      height: HEIGHT,
      tzDate: utc,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        // Half a day of room either side, so that a single day is a bar and not a line at the edge.
        x: { time: true, range: (_plot, min, max) => [min - DAY_SECONDS / 2, max + DAY_SECONDS / 2] },
        y: { range: (_plot, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [
        { stroke: 'currentColor', grid: { show: false }, incrs: [DAY_SECONDS] },
        { stroke: 'currentColor', grid: { stroke: 'rgba(128,128,128,0.2)' } },
      ],
      series: [
        {},
        {
          label: title,
          stroke: BAR_COLOUR,
          fill: BAR_COLOUR,
          points: { show: false },
          paths: uPlot.paths.bars?.({ size: [0.6, 48] }),
        },
      ],
    },
    [xs, days.map((day) => day.value)],
    target,
  );
  const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
  resize.observe(target);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}

/**
 * Daily totals as bars, drawn by uPlot (a small, well-kept canvas chart library, imported when a chart
 * is first drawn: it touches the window as it loads, and only this screen needs it). The canvas is a picture: the figure is an image whose name lists every day's value, and the
 * same numbers are in the report's table beside it.
 */
export function DailyChart({ title, rows }: { title: string; rows: Day[] }) {
  const box = useRef<HTMLDivElement>(null);
  // Rebuilt only when the numbers change (the caller derives a new array on every render).
  const key = JSON.stringify(rows);
  useEffect(() => {
    const target = box.current;
    const days: Day[] = JSON.parse(key);
    if (!target || days.length === 0) return;
    let undo: (() => void) | undefined;
    let gone = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: uPlot }]) => {
      if (!gone) undo = draw(uPlot, target, title, days);
    });
    return () => {
      gone = true;
      undo?.();
    };
  }, [key, title]);
  if (rows.length === 0) return null;
  return (
    <figure className="monitoring-chart">
      <div
        ref={box}
        role="img"
        aria-label={`${title}: ${rows.map((row) => `${row.label} ${row.value}`).join(', ')}`}
      />
      <figcaption>{title}</figcaption>
    </figure>
  );
}
