// A bar chart drawn by uPlot (a small canvas charting library, loaded with this tab only).
// Categories run down the left as horizontal bars, so long names (clubs, sizes) stay
// readable on a 360 px phone; days run along the bottom as columns. Each bar carries its
// number, and the chart is hidden from screen readers: the table beside it holds the same
// figures. Columns can be compared with a second series (another edition's), drawn beside
// each of the first.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface BarChartProps {
  labels: string[];
  values: number[];
  /** A theme colour token, e.g. `--color-fire-500`, with its value as the fallback. */
  color: readonly [token: string, fallback: string];
  /** Columns along the bottom (days) instead of bars down the side (categories). */
  columns?: boolean;
  /** Columns only: a second series, its column to the right of each of the first's. */
  compare?: { values: number[]; color: readonly [token: string, fallback: string] };
}

const BAR_PX = 30;
/** Each of two compared columns takes this share of a day's room, up to this many pixels. */
const PAIR_SHARE = 0.36;
const PAIR_MAX_PX = 28;
const AXIS_PX = 30;
const COLUMNS_HEIGHT = 240;
const LABEL_GAP = 6;
const FONT = 'bold 12px system-ui, sans-serif';

function themeColor([token, fallback]: readonly [string, string]): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(token).trim();
  return value || fallback;
}

let measurer: CanvasRenderingContext2D | null = null;
function textWidth(text: string): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * 7;
  measurer.font = FONT;
  return measurer.measureText(text).width;
}

/** Room for category labels: the widest one, but never more than 45% of the chart. */
function labelRoom(labels: string[], chartWidth: number): number {
  const widest = Math.max(0, ...labels.map((l) => textWidth(l)));
  return Math.min(Math.ceil(widest) + LABEL_GAP * 2, Math.floor(chartWidth * 0.45));
}

/** A label cut with an ellipsis to fit the room (the table beside the chart has it whole). */
function fit(label: string, room: number): string {
  const max = room - LABEL_GAP * 2;
  if (textWidth(label) <= max) return label;
  let cut = label;
  while (cut.length > 1 && textWidth(`${cut}…`) > max) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Whole-number ticks only: these are counts of riders. */
function countTicks(_u: uPlot, splits: number[]): string[] {
  return splits.map((v) => (Number.isInteger(v) ? v.toLocaleString('en-PH') : ''));
}

export function chartHeight(count: number, columns: boolean): number {
  return columns ? COLUMNS_HEIGHT : count * BAR_PX + AXIS_PX + 8;
}

export function BarChart({ labels, values, color, columns = false, compare }: BarChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const bone = themeColor(['--color-bone', '#f7f1e8']);
    const ash = themeColor(['--color-ash', '#c9bfb2']);
    const grid = themeColor(['--color-ink-700', '#342e28']);
    const fill = themeColor(color);
    const n = labels.length;
    const height = chartHeight(n, columns);
    const pair = columns ? compare : undefined;
    const top = Math.max(1, ...values, ...(pair?.values ?? []));
    const column = (colour: string, align: -1 | 0 | 1): uPlot.Series => ({
      label: 'Riders',
      fill: colour,
      stroke: colour,
      width: 0,
      points: { show: false },
      paths: uPlot.paths.bars?.(pair ? { size: [PAIR_SHARE, PAIR_MAX_PX], align } : { size: [0.72, 64], align }),
    });
    const series = [{ values, shift: pair ? -0.5 : 0 }, ...(pair ? [{ values: pair.values, shift: 0.5 }] : [])];

    // Days: as many labels as fit, one every `step` columns.
    const dayStep = (w: number) => Math.max(1, Math.ceil(n / Math.max(1, Math.floor(w / 56))));

    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      cursor: { show: false },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      padding: columns ? [12, 12, 0, 0] : [4, 40, 0, 0],
      scales: {
        x: { time: false, range: [-0.5, n - 0.5], ori: columns ? 0 : 1, dir: columns ? 1 : -1 },
        y: { range: [0, top * 1.12], ori: columns ? 1 : 0, dir: 1 },
      },
      axes: [
        {
          scale: 'x',
          side: columns ? 2 : 3,
          stroke: bone,
          font: FONT,
          size: columns ? AXIS_PX : (u) => labelRoom(labels, u.width),
          gap: LABEL_GAP,
          grid: { show: false },
          ticks: { show: false },
          splits: (u) => {
            const step = columns ? dayStep(u.width) : 1;
            return labels.map((_, i) => i).filter((i) => i % step === 0);
          },
          values: (u, splits) =>
            splits.map((i) => (columns ? (labels[i] ?? '') : fit(labels[i] ?? '', labelRoom(labels, u.width)))),
        },
        {
          scale: 'y',
          side: columns ? 3 : 2,
          stroke: ash,
          font: FONT,
          size: AXIS_PX,
          gap: 4,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
          values: countTicks,
        },
      ],
      series: [{}, column(fill, pair ? -1 : 0), ...(pair ? [column(themeColor(pair.color), 1)] : [])],
      hooks: {
        // The number at the end of each bar, so the chart reads without the table.
        draw: [
          (u) => {
            const ctx = u.ctx;
            const ratio = uPlot.pxRatio;
            ctx.save();
            ctx.font = `bold ${Math.round(12 * ratio)}px system-ui, sans-serif`;
            ctx.fillStyle = bone;
            ctx.textAlign = columns ? 'center' : 'left';
            ctx.textBaseline = columns ? 'bottom' : 'middle';
            const every = columns ? dayStep(u.width) : 1;
            // Compared columns: each number over its own column, half a column off the day, and
            // only where it fits over it (the table has them all).
            const half = Math.min((u.bbox.width / Math.max(1, n)) * PAIR_SHARE, PAIR_MAX_PX * ratio) / 2;
            for (const { values: drawn, shift } of series) {
              drawn.forEach((v, i) => {
                const text = v.toLocaleString('en-PH');
                if (columns && v === 0) return;
                if (pair ? textWidth(text) * ratio > 2 * half : columns && i % every !== 0) return;
                const along = u.valToPos(i, 'x', true) + shift * 2 * half;
                const across = u.valToPos(v, 'y', true);
                if (columns) ctx.fillText(text, along, across - 3 * ratio);
                else ctx.fillText(text, across + 5 * ratio, along);
              });
            }
            ctx.restore();
          },
        ],
      },
    };

    const chart = new uPlot(opts, [labels.map((_, i) => i), ...series.map((s) => s.values)], el);
    const resize = new ResizeObserver(() => {
      const w = Math.max(200, el.clientWidth);
      if (w !== chart.width) chart.setSize({ width: w, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [labels, values, color, columns, compare]);

  return <div ref={box} aria-hidden="true" className="w-full min-w-0 overflow-hidden" data-chart="uplot" />;
}
