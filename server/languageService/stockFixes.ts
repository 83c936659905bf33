/**
 * Quick fixes for a spec whose chosen GPUs (or CPU flavors) have no serverless stock: one per alternative the
 * warning named, adding that pool to `gpu.pools` (or that flavor to `cpu`), titled with what it adds to the
 * hourly bill. The alternatives come from the same check the warning ran (core's stock.ts) on the catalog at
 * hand, kept to those the diagnostic named, so a title never prices a pool the warning did not offer.
 */
import { formatUsdChangeRange } from '../../core/billing/format';
import { stockShortage, type StockAlternative, type StockShortage } from '../../core/endpointSpec/catalog/stock';
import { isRecord } from '../../core/endpointSpec/ownData';
import { appendItem } from './edits';
import type { FixContext, QuickFix } from './quickFixes';

/** `request.related`: the alternatives' ids the diagnostic carried. */
export function stockFixes(request: FixContext): QuickFix[] {
  const data = request.document.data;
  if (!request.catalog || !isRecord(data)) return [];
  const shortage = stockShortage(data, request.catalog);
  const named = request.related ?? [];
  if (!shortage) return [];
  return shortage.alternatives.filter((a) => named.includes(a.id)).flatMap((a) => fixFor(request, shortage, a) ?? []);
}

function fixFor(request: FixContext, shortage: StockShortage, alternative: StockAlternative): QuickFix | undefined {
  const { text, document, format } = request;
  const edits =
    shortage.compute === 'gpu'
      ? appendItem(text, document, ['gpu', 'pools'], alternative.id, format)
      : appendItem(text, document, ['cpu'], { id: alternative.id, vcpuCount: alternative.vcpuCount }, format);
  if (edits.length === 0) return undefined;
  const what = shortage.compute === 'gpu' ? `pool ${alternative.id}` : `${alternative.id} with ${alternative.vcpuCount ?? 0} vCPUs`;
  return { title: `Add ${what} (${costChange(shortage, alternative)})`, edits, preferred: false };
}

/** Nothing chosen could run, so adding the alternative adds its whole price: at max workers, or per worker when none may run. */
function costChange(shortage: StockShortage, alternative: StockAlternative): string {
  const { atMaxHour, perWorkerHour } = alternative;
  if (!atMaxHour || !perWorkerHour) return `${alternative.memoryGb} GB, no catalog price`;
  if (shortage.workersMax === 0) return `${formatUsdChangeRange(perWorkerHour)}/h per worker`;
  return `${formatUsdChangeRange(atMaxHour)}/h at max workers`;
}
