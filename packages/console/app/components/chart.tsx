/**
 * A uPlot chart that follows its container's width. Series are drawn as lines, or as
 * stacked-looking bars when `bars` is set (delivery outcomes per minute).
 */
import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  /** Unit shown in the legend, e.g. "rows/s". */
  unit?: string;
}

export interface ChartProps {
  /** x (unix seconds) first, then one array per series. */
  data: AlignedData;
  series: ChartSeries[];
  height?: number;
  bars?: boolean;
  /** Text alternative read by screen readers instead of the canvas. */
  description: string;
  /** Draw a dot at each value (for sparse data). */
  points?: boolean;
}

export function Chart({ data, series, height = 220, bars = false, description, points = false }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = `${series.map((s) => s.label).join('|')}|${bars}|${height}|${points}`;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // Grouped bars: with two series the first ends at its x and the second starts there.
    const barPaths = (i: number) =>
      bars
        ? uPlot.paths.bars!({
            size: [series.length > 1 ? 0.35 : 0.7, 40],
            align: series.length > 1 ? (i === 0 ? -1 : 1) : 0,
          })
        : undefined;
    const options: Options = {
      width: el.clientWidth || 600,
      height,
      legend: { show: true, live: true },
      cursor: { drag: { x: false, y: false } },
      // Rates and counts: the y axis starts at zero so the height means something.
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: '#64748b', grid: { stroke: '#eef2f6' }, ticks: { stroke: '#e2e8f0' } },
        {
          stroke: '#64748b',
          grid: { stroke: '#eef2f6' },
          ticks: { stroke: '#e2e8f0' },
          size: 56,
          // Counts (bars) get whole-number ticks.
          ...(bars ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] } : {}),
        },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          fill: bars ? s.color : `${s.color}1f`,
          paths: barPaths(i),
          points: { show: points, size: 6, fill: s.color },
          value: (_u: uPlot, v: number | null) =>
            v === null ? '—' : `${Math.round(v * 10) / 10}${s.unit ? ` ${s.unit}` : ''}`,
        })),
      ],
    };
    plot.current = new uPlot(options, data, el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // Rebuilt only when the series change; data updates go through setData below.
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return (
    <figure className="chart">
      <div ref={box} aria-hidden="true" />
      <figcaption className="sr-only">{description}</figcaption>
    </figure>
  );
}
