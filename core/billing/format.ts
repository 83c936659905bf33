/**
 * Money as every billing surface shows it (tree, panel, CLI table, hovers, deploy plan): US
 * dollars with cents, and more digits only for amounts so small that cents would read as zero,
 * since an emulator-scale or a few-minutes spend is real money that must not vanish as `$0.00`.
 */

/** A low..high span of US dollars; equal ends when there is one price. */
export interface UsdRange {
  readonly low: number;
  readonly high: number;
}

const CENTS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const FINE = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** `1007.4` → `1,007.40`; `0.0042` → `0.0042`; no currency sign. */
export function formatAmount(n: number): string {
  const magnitude = Math.abs(n);
  // Rounding first keeps -0.000001 from printing as "-0.00".
  if (magnitude < 0.00005) return '0.00';
  const text = magnitude < 0.005 ? FINE.format(magnitude) : CENTS.format(magnitude);
  return n < 0 ? `-${text}` : text;
}

/** `$1,007.40`, `-$0.50`. */
export function formatUsd(n: number): string {
  const text = formatAmount(n);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** `+$0.69`, `-$0.69`, `$0.00`: a change, with its sign always written. */
function formatUsdChange(n: number): string {
  const text = formatUsd(n);
  return text === '$0.00' || text.startsWith('-') ? text : `+${text}`;
}

/** `$0.69` or `$0.72–$1.38`. */
export function formatUsdRange(range: UsdRange): string {
  const [low, high] = [formatUsd(range.low), formatUsd(range.high)];
  return low === high ? low : `${low}–${high}`;
}

/** `+$0.69` or `+$0.72–+$1.38` (each end signed, since a range of changes may cross zero). */
export function formatUsdChangeRange(range: UsdRange): string {
  const [low, high] = [formatUsdChange(range.low), formatUsdChange(range.high)];
  return low === high ? low : `${low} to ${high}`;
}

export function scaleRange(range: UsdRange, factor: number): UsdRange {
  return { low: range.low * factor, high: range.high * factor };
}
