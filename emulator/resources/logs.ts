/**
 * `GET /v2/serverless/{id}/workers/{workerId}/logs`: Server-Sent Events that stay open. The
 * backfill comes from `Last-Event-ID` (exactly the lines after it), else `since` (lines at or
 * after that time), else the last `tail` lines (default 100, at most 5000).
 */
import type { EmulatorContext } from '../context';
import { badRequest, notFound } from '../http/problems';
import { route, type Route } from '../http/router';
import { eventId, seqFromEventId, type LogLine } from '../simulation/logs';
import { requireEndpoint } from './serverless';

const HEARTBEAT_MS = 15000;

function selectBackfill(lines: readonly LogLine[], lastEventId: string | undefined, since: string | null, tail: number): LogLine[] {
  if (lastEventId !== undefined) {
    const seq = seqFromEventId(lastEventId);
    if (seq !== undefined) return lines.filter((l) => l.seq > seq);
    // A bare timestamp (an EventSource from elsewhere): resume strictly after it.
    const t = Date.parse(lastEventId);
    if (!Number.isNaN(t)) return lines.filter((l) => Date.parse(l.ts) > t);
  }
  if (since !== null) {
    const t = Date.parse(since);
    return lines.filter((l) => Date.parse(l.ts) >= t);
  }
  return tail === 0 ? [] : lines.slice(-tail);
}

export function logRoutes(ctx: EmulatorContext, onStream: (close: () => void) => () => void): Route[] {
  return [
    route(
      'GET',
      '/v2/serverless/{id}/workers/{workerId}/logs',
      "Stream a worker's logs (Server-Sent Events)",
      ({ params, query, req, res, headers }) => {
        const endpoint = requireEndpoint(ctx, params.id);
        if (!ctx.sim.workerBelongsTo(params.workerId, endpoint.id)) throw notFound(`worker ${params.workerId}`);
        const source = query.get('source');
        if (source !== null && source !== 'container' && source !== 'system')
          throw badRequest(`source must be container or system; got: ${JSON.stringify(source)}`, ['$.source: invalid value']);
        const tailParam = query.get('tail');
        const tail = tailParam === null ? 100 : Number(tailParam);
        if (tailParam !== null && (!/^\d+$/.test(tailParam) || tail > 5000))
          throw badRequest(`tail must be an integer from 0 to 5000; got: ${JSON.stringify(tailParam)}`, ['$.tail: invalid value']);
        const since = query.get('since');
        if (since !== null && Number.isNaN(Date.parse(since)))
          throw badRequest(`since must be an RFC 3339 timestamp; got: ${JSON.stringify(since)}`, ['$.since: invalid value']);
        const lastEventHeader = req.headers['last-event-id'];
        const lastEventId = typeof lastEventHeader === 'string' && lastEventHeader.trim() !== '' ? lastEventHeader : undefined;

        res.writeHead(200, {
          ...headers,
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-cache',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        });
        res.flushHeaders();
        const wanted = (line: LogLine): boolean => source === null || line.source === source;
        const send = (line: LogLine): void => {
          if (!wanted(line) || res.writableEnded) return;
          res.write(`id: ${eventId(line)}\ndata: ${JSON.stringify({ ts: line.ts, source: line.source, line: line.line })}\n\n`);
        };
        // Subscribe before reading the backfill, and skip what the backfill already sent, so a line
        // appended in between is neither lost nor repeated.
        const pending: LogLine[] = [];
        let live = false;
        let lastSent = 0;
        const sendNew = (line: LogLine): void => {
          if (line.seq <= lastSent) return;
          lastSent = line.seq;
          send(line);
        };
        const unsubscribe = ctx.sim.logs.subscribe(params.workerId, (line) => {
          if (live) sendNew(line);
          else pending.push(line);
        });
        // `tail` counts lines of the chosen source, not lines that are then filtered away.
        const backfill = selectBackfill(ctx.sim.logs.all(params.workerId).filter(wanted), lastEventId, since, tail);
        for (const line of [...backfill, ...pending]) sendNew(line);
        live = true;
        const heartbeat = setInterval(() => {
          if (!res.writableEnded) res.write(': keep-alive\n\n');
        }, HEARTBEAT_MS);
        heartbeat.unref();
        let closed = false;
        const close = (): void => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          unsubscribe();
          untrack();
          if (!res.writableEnded) res.end();
        };
        const untrack = onStream(close);
        res.on('close', close);
        res.on('error', close);
        return 'handled';
      },
    ),
  ];
}
