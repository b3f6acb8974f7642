// The pictures, drawn as inline SVG from the API's numbers: a bar of items by status, a ring of amounts by status,
// and the amount paid over time. Colours come from style.css (`.s-<status>`).
import { h, s } from './dom.js';

/** A horizontal bar split by the count of items in each status. */
export function statusBar(byStatus) {
  const total = byStatus.reduce((n, x) => n + x.count, 0);
  return h('div', { class: 'bar', role: 'img', 'aria-label': byStatus.filter((x) => x.count).map((x) => `${x.statusText}: ${x.count}`).join(', ') },
    byStatus.filter((x) => x.count > 0).map((x) => {
      const part = h('span', { class: `s-${x.status}`, title: `${x.statusText}: ${x.count}` });
      part.style.width = `${(100 * x.count) / total}%`;
      return part;
    }));
}

/** A ring of the amount in each status, its total in the middle, with a legend. */
export function amountRing(byStatus, totalText) {
  const r = 64;
  const length = 2 * Math.PI * r;
  const sum = byStatus.reduce((n, x) => n + x.sumCents, 0);
  let start = 0;
  const arcs = byStatus.filter((x) => x.sumCents > 0).map((x) => {
    const part = (length * x.sumCents) / sum;
    const arc = s('circle', {
      class: `s-${x.status}`, cx: 80, cy: 80, r, fill: 'none', 'stroke-width': 18,
      'stroke-dasharray': `${part} ${length - part}`, 'stroke-dashoffset': -start, transform: 'rotate(-90 80 80)',
    }, s('title', {}, `${x.statusText}: ${x.sum}`));
    start += part;
    return arc;
  });
  return h('div', { class: 'ring' },
    s('svg', { viewBox: '0 0 160 160', width: 160, height: 160, role: 'img' },
      s('circle', { class: 'ring-empty', cx: 80, cy: 80, r, fill: 'none', 'stroke-width': 18 }),
      arcs,
      s('text', { x: 80, y: 85, 'text-anchor': 'middle', class: 'ring-total' }, totalText)),
    h('ul', { class: 'legend' }, byStatus.filter((x) => x.count > 0).map((x) =>
      h('li', {}, h('i', { class: `s-${x.status}` }), `${x.statusText} · ${x.count} · ${x.sum}`))));
}

/** The amount paid so far against time, up to the batch's total. */
export function paidOverTime(points, totalCents, words) {
  const width = 760;
  const height = 180;
  const pad = { left: 8, right: 8, top: 14, bottom: 34 };
  if (!points.length) return h('p', { class: 'muted chart-empty' }, words.nothingPaid);
  const t0 = Date.parse(points[0].at);
  const t1 = Math.max(Date.parse(points.at(-1).at), t0 + 1000);
  const x = (at) => pad.left + ((Date.parse(at) - t0) / (t1 - t0)) * (width - pad.left - pad.right);
  const y = (cents) => height - pad.bottom - (cents / Math.max(totalCents, 1)) * (height - pad.top - pad.bottom);
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.at).toFixed(1)} ${y(p.paidCents).toFixed(1)}`).join(' ');
  const area = `${line} L${x(points.at(-1).at).toFixed(1)} ${y(0)} L${x(points[0].at).toFixed(1)} ${y(0)} Z`;
  const last = points.at(-1);
  return s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'timeline', role: 'img', 'aria-label': `${words.paidOverTime}: ${last.paid}` },
    s('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: y(totalCents), y2: y(totalCents) }),
    s('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0) }),
    s('path', { class: 'area', d: area }),
    s('path', { class: 'line', d: line }),
    s('text', { x: pad.left, y: height - 10, class: 'tick' }, points[0].time),
    s('text', { x: width - pad.right, y: height - 10, class: 'tick', 'text-anchor': 'end' }, last.time),
    s('text', { x: width - pad.right, y: Math.max(y(last.paidCents) - 6, 12), class: 'tick strong', 'text-anchor': 'end' }, last.paid));
}
