// Plots of the recorded signals beside the scene: one chart per group of signals (energy,
// constraint errors, joint coordinates, ...) showing the signals chosen in the panel over the whole
// run, with a cursor at the current frame. Curves are drawn once per choice and size into a cache;
// a frame change redraws only the cursor and the legend's values. Clicking a chart seeks.
import { signalValue } from './data.js';
import { formatTick, formatValue, niceStep } from './format.js';

const GROUPS = [
  { key: 'energy', title: 'Energy (J)' },
  { key: 'constraint', title: 'Constraint errors (m, rad)' },
  { key: 'q', title: 'Joint coordinates (rad, m)' },
  { key: 'v', title: 'Joint velocities (rad/s, m/s)' },
  { key: 'marker', title: 'Marker positions (m)' },
];
const COLORS = ['#5aa9ff', '#ffb347', '#7bd389', '#ff6f91', '#c3a6ff', '#ffe066', '#4dd6d6', '#ff8c66'];
const MARGIN = { left: 58, right: 10, top: 8, bottom: 20 };
const element = (tag, className, parent) => {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (parent) parent.appendChild(el);
  return el;
};

/** Smallest and largest finite value of signal s over the run, padded; a flat signal gets a visible band. */
function range(data, s) {
  let lo = Infinity, hi = -Infinity;
  for (let f = 0; f < data.frameCount; f++) {
    const v = signalValue(data, f, s);
    if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  return lo <= hi ? [lo, hi] : [0, 0];
}

export class Plots {
  /** Charts go into `charts`, the signal check boxes into `chooser`; `onSeek(time)` hears of clicks on a chart. */
  constructor(charts, chooser, data, onSeek) {
    this.data = data;
    this.frame = 0;
    const present = g => data.signals.some(s => s.group === g.key) && (g.key !== 'constraint' || data.constraints > 0);
    this.groups = GROUPS.filter(present).map(g => this.addGroup(g, charts, chooser, onSeek));
    this.redraw();
  }

  addGroup(spec, charts, chooser, onSeek) {
    const signals = [];
    this.data.signals.forEach((s, i) => { if (s.group === spec.key) signals.push(i); });
    // Shown at first: energies, constraint errors, up to 6 joint coordinates.
    const initially = { energy: signals.length, constraint: signals.length, q: 6 }[spec.key] ?? 0;
    const g = { ...spec, signals, chosen: new Set(signals.slice(0, initially)), ranges: new Map() };

    g.figure = element('figure', 'plot', charts);
    element('figcaption', '', g.figure).textContent = spec.title;
    g.canvas = element('canvas', '', g.figure);
    g.cache = document.createElement('canvas');
    g.legend = element('ul', 'legend', g.figure);
    const seek = e => {
      const r = g.canvas.getBoundingClientRect(), t = this.data.times, n = this.data.frameCount;
      if (!n || !(e.buttons & 1)) return;
      const u = (e.clientX - r.left - MARGIN.left) / (r.width - MARGIN.left - MARGIN.right);
      onSeek(t[0] + Math.max(0, Math.min(1, u)) * (t[n - 1] - t[0]));
    };
    g.canvas.addEventListener('pointerdown', e => { g.canvas.setPointerCapture(e.pointerId); seek(e); });
    g.canvas.addEventListener('pointermove', seek);

    const box = element('fieldset', 'signals', chooser);
    element('legend', '', box).textContent = spec.title;
    signals.forEach((s, k) => {
      const label = element('label', '', box), input = element('input', '', label);
      input.type = 'checkbox';
      input.checked = g.chosen.has(s);
      element('i', 'swatch', label).style.background = COLORS[k % COLORS.length];
      label.append(this.data.signals[s].name);
      input.addEventListener('change', () => {
        if (input.checked) g.chosen.add(s); else g.chosen.delete(s);
        this.redraw(g);
      });
    });
    return g;
  }

  color(g, s) { return COLORS[g.signals.indexOf(s) % COLORS.length]; }

  /** Draws the curves of one group (or all) into the caches, then the cursor. */
  redraw(only) {
    for (const g of only ? [only] : this.groups) {
      g.figure.hidden = g.chosen.size === 0;
      if (!g.figure.hidden) this.drawCurves(g);
      g.legend.replaceChildren();
      g.values = [...g.chosen].sort((a, b) => a - b).map(s => {
        const li = element('li', '', g.legend);
        element('i', 'swatch', li).style.background = this.color(g, s);
        li.append(this.data.signals[s].name + ' ');
        return { s, out: element('b', '', li) };
      });
    }
    this.setFrame(this.frame);
  }

  /** The chart's scales: pixel x of a time and pixel y of a value. */
  scales(g, width, height) {
    const d = this.data, t0 = d.times[0] ?? 0, t1 = d.times[d.frameCount - 1] ?? 1;
    let lo = Infinity, hi = -Infinity;
    for (const s of g.chosen) {
      if (!g.ranges.has(s)) g.ranges.set(s, range(d, s));
      const [a, b] = g.ranges.get(s);
      lo = Math.min(lo, a); hi = Math.max(hi, b);
    }
    const pad = hi > lo ? 0.06 * (hi - lo) : Math.abs(hi) > 0 ? 0.1 * Math.abs(hi) : 1;
    lo -= pad; hi += pad;
    const x0 = MARGIN.left, x1 = width - MARGIN.right, y0 = height - MARGIN.bottom, y1 = MARGIN.top;
    return {
      t0, t1, lo, hi,
      x: t => x0 + ((t - t0) / (t1 - t0 || 1)) * (x1 - x0),
      y: v => y0 + ((v - lo) / (hi - lo)) * (y1 - y0),
      x0, x1, y0, y1,
    };
  }

  drawCurves(g) {
    const c = g.canvas, dpr = window.devicePixelRatio || 1, w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight);
    for (const canvas of [c, g.cache]) { canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr); }
    const ctx = g.cache.getContext('2d'), d = this.data, S = this.scales(g, w, h);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = '11px system-ui, sans-serif';
    ctx.lineWidth = 1;
    // grid and tick labels
    ctx.strokeStyle = '#3a424d'; ctx.fillStyle = '#9aa5b1';
    const yStep = niceStep((S.hi - S.lo) / 4), tStep = niceStep(Math.max(S.t1 - S.t0, 1e-9) / 5);
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    for (let v = Math.ceil(S.lo / yStep) * yStep; v <= S.hi; v += yStep) {
      const y = Math.round(S.y(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(S.x0, y); ctx.lineTo(S.x1, y); ctx.stroke();
      ctx.fillText(formatTick(v, yStep), S.x0 - 5, y);
    }
    ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    for (let t = Math.ceil(S.t0 / tStep) * tStep; t <= S.t1 + 1e-9 * tStep; t += tStep) {
      const x = Math.round(S.x(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, S.y0); ctx.lineTo(x, S.y1); ctx.stroke();
      ctx.fillText(formatTick(t, tStep), x, S.y0 + 4);
    }
    // curves: through every pixel column, spanning the values that fall in it
    ctx.lineWidth = 1.5; ctx.lineJoin = 'round';
    for (const s of g.chosen) {
      ctx.strokeStyle = this.color(g, s);
      ctx.beginPath();
      let column = null, lo = 0, hi = 0, started = false;
      const flush = () => {
        if (column === null) return;
        if (started) ctx.lineTo(column, S.y(lo)); else ctx.moveTo(column, S.y(lo));
        ctx.lineTo(column, S.y(hi));
        started = true;
      };
      for (let f = 0; f < d.frameCount; f++) {
        const v = signalValue(d, f, s);
        if (!Number.isFinite(v)) continue;
        const x = Math.round(S.x(d.times[f]) * dpr) / dpr;
        if (x !== column) { flush(); column = x; lo = hi = v; } else { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      }
      flush();
      ctx.stroke();
    }
    g.scale = S;
  }

  setFrame(f) {
    this.frame = f;
    const d = this.data;
    if (!d.frameCount) return;
    for (const g of this.groups) {
      if (g.figure.hidden) continue;
      const ctx = g.canvas.getContext('2d'), dpr = g.canvas.width / Math.max(1, g.canvas.clientWidth), S = g.scale;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, g.canvas.width, g.canvas.height);
      ctx.drawImage(g.cache, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const x = S.x(d.times[f]);
      ctx.strokeStyle = '#f2f2f2'; ctx.lineWidth = 1;
      ctx.beginPath(); ctx.moveTo(x, S.y0); ctx.lineTo(x, S.y1); ctx.stroke();
      for (const { s, out } of g.values) {
        const v = signalValue(d, f, s);
        out.textContent = formatValue(v);
        if (!Number.isFinite(v)) continue;
        ctx.fillStyle = this.color(g, s);
        ctx.beginPath(); ctx.arc(x, S.y(v), 3, 0, 2 * Math.PI); ctx.fill();
      }
    }
  }
}
