// Number formatting and round steps, shared by the scene (grid, axes) and the plots.

/** A round number (1, 2 or 5 times a power of ten) near x > 0. */
export function niceStep(x) {
  const e = Math.pow(10, Math.floor(Math.log10(x))), m = x / e;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * e;
}

/** A tick label for a multiple of `step`: as many decimals as the step needs, or an exponent. */
export function formatTick(x, step) {
  if (Math.abs(x) < step * 1e-6) return '0';
  const magnitude = Math.max(Math.abs(x), step);
  if (magnitude >= 1e5 || magnitude < 1e-3) return x.toExponential(Math.max(0, Math.round(Math.log10(magnitude / step))));
  return x.toFixed(Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
}

/** A value readout with 4 significant digits. */
export function formatValue(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  return a >= 1e5 || a < 1e-3 ? x.toExponential(3) : x.toPrecision(4);
}
