/**
 * Billing records as CSV (RFC 4180): one line per record as the service answered it, so the file
 * is the data rather than a picture of it, and spreadsheets can pivot it any way. Columns: the
 * bucket, the group id (when records are grouped), each cost component, the total.
 */
import { KINDS, type BillingKind, type BillingResponse } from './query';

/** Quotes when needed; a text cell a spreadsheet would run as a formula is defused with a quote mark. */
function cell(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (value === undefined || value === null) return '';
  // Records are parsed JSON: anything not text is written as the JSON it was.
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function billingCsv(kind: BillingKind, grouping: string | undefined, response: BillingResponse): string {
  const info = KINDS[kind];
  const field = info.groupField(grouping);
  const columns = ['startTime', 'endTime', ...(field ? [field] : []), ...info.components.map((c) => c.key), 'totalAmount'];
  const lines = [columns.join(',')];
  for (const record of response.records) lines.push(columns.map((c) => cell(record[c])).join(','));
  // CRLF, as RFC 4180 says and spreadsheet imports expect.
  return `${lines.join('\r\n')}\r\n`;
}

/** A file name that says what is in it: `billing-serverless-day-2026-05-01-2026-06-01.csv`. */
export function csvFileName(kind: BillingKind, response: BillingResponse): string {
  const { startTime, endTime, bucketSize } = response.metadata.query;
  return `billing-${kind}-${bucketSize}-${startTime.slice(0, 10)}-${endTime.slice(0, 10)}.csv`.replace(/[^\w.-]+/g, '_');
}
