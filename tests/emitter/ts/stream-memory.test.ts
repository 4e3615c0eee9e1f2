// Streams in flat memory (issue 28): a long stream keeps its memory flat, its body is read only as
// far as the consumer asks (backpressure), and close() lets go of what was read. Over the
// in-memory transport, with a producer that makes each chunk when it is pulled. run.sh starts node
// with --expose-gc: the figures are live memory after a collection, not garbage waiting for one.
import { Client, type SessionID } from '../opencode/src/index.js';
import { ok, run, test } from './harness.js';

declare const process: {
  memoryUsage(): { rss: number; heapTotal: number; heapUsed: number; arrayBuffers: number };
};

const MiB = 1024 * 1024;
const sid = 'ses_1' as SessionID;

interface Producer {
  /** Events made so far (every one of them handed to the reader). */
  produced: number;
  cancelled: boolean;
}

/** A text/event-stream body of total events, perChunk to a chunk, each chunk made only when the
 * reader asks for it (highWaterMark 0: nothing is made ahead of a read). */
function eventsBody(total: number, perChunk: number, frame: (seq: number) => string): { state: Producer; body: ReadableStream<Uint8Array> } {
  const state: Producer = { produced: 0, cancelled: false };
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (state.produced >= total) {
          c.close();
          return;
        }
        const n = Math.min(perChunk, total - state.produced);
        let s = '';
        for (let i = 0; i < n; i++) s += frame(++state.produced);
        c.enqueue(enc.encode(s));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { state, body };
}

/** A durable event as OpenCode sends it (about 330 bytes, as bench/canned_server.c). */
function durable(seq: number): string {
  const id = String(seq).padStart(26, '0');
  return (
    `data: {"id":"evt_${id}","type":"session.next.prompt.admitted","durable":{"aggregateID":"ses_1",` +
    `"seq":${seq},"version":1},"data":{"timestamp":${1795312829363 + seq},"sessionID":"ses_1",` +
    `"messageID":"msg_${id}","prompt":{"text":"hello"},"delivery":"steer"}}\n\n`
  );
}

function client(body: ReadableStream<Uint8Array>): Client {
  return new Client({
    baseUrl: 'http://sdk.test',
    handler: async () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
  });
}

/** Live memory. Two full collections: V8 frees the backing stores of dead ArrayBuffers on a
 * background thread after a collection, and the next one waits for that. */
function live(): { rss: number; heapTotal: number; heapUsed: number; arrayBuffers: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  ok(gc, 'node runs with --expose-gc (tests/emitter/ts/run.sh)');
  gc();
  gc();
  return process.memoryUsage();
}

const mib = (n: number) => (n / MiB).toFixed(1);

test('300k events: rss, arrayBuffers and the live heap stay within a few MiB of the first 10k', async () => {
  const total = 300_000;
  const { state, body } = eventsBody(total, 100, durable);
  const stream = client(body).session.events({ sessionID: sid });
  let count = 0;
  let first: ReturnType<typeof live> | undefined;
  let last: ReturnType<typeof live> | undefined;
  for await (const ev of stream) {
    const seq = (ev as unknown as { durable: { seq: number } }).durable.seq;
    if (seq !== count + 1) throw new Error(`event ${count + 1}: seq ${seq}`);
    count++;
    // A collection every 10k events: garbage then never decides how far V8 grows its heap (and
    // rss), so rss measures what the stream keeps.
    if (count % 10_000 === 0) {
      const m = live();
      if (count === 10_000) first = m;
    }
    if (count === total) {
      last = live(); // the stream still open: what it holds counts
      break;
    }
  }
  ok(first !== undefined && last !== undefined && count === total, `${count} events`);
  ok(state.cancelled, 'break cancelled the body');
  console.log(
    `stream memory after 10k -> ${total} events (MiB): rss ${mib(first.rss)} -> ${mib(last.rss)}, arrayBuffers ` +
      `${mib(first.arrayBuffers)} -> ${mib(last.arrayBuffers)}, live heap ${mib(first.heapUsed)} -> ${mib(last.heapUsed)}`,
  );
  // 290k events are 95 MiB of body: what a stream keeps of its chunks shows in every figure.
  ok(last.arrayBuffers - first.arrayBuffers < 2 * MiB, 'arrayBuffers: no chunk kept');
  ok(last.heapUsed - first.heapUsed < 4 * MiB, 'live JS heap: no event or text kept');
  ok(last.rss - first.rss < 4 * MiB, 'rss');
});

test('backpressure: the body is read no further than the events taken, a slow consumer reads nothing ahead', async () => {
  const total = 20_000;
  const perChunk = 50;
  const { state, body } = eventsBody(total, perChunk, durable);
  const stream = client(body).session.events({ sessionID: sid });
  ok(state.produced === 0, 'cold: nothing read before next()');
  let count = 0;
  let ahead = 0;
  for await (const ev of stream) {
    ok(ev !== undefined, 'an item');
    count++;
    ahead = Math.max(ahead, state.produced - count);
    if (count === 1 || count === 5_000 || count === 12_345) {
      const before: number = state.produced;
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 4));
      ok(state.produced === before, `a consumer that waits at event ${count}: ${state.produced - before} more events read meanwhile`);
    }
    if (count === 15_000) break;
  }
  ok(ahead < perChunk, `read ahead of the consumer: ${ahead} events (at most the rest of one chunk)`);
  ok(state.produced < 15_000 + perChunk, `${state.produced} events read for 15000 taken`);
  ok(state.cancelled, 'break cancelled the body');
});

test('one chunk of 50k or 250k events: parsed one event at a time, released on close()', async () => {
  const tiny = (seq: number) => `data: {"seq":${seq}}\n\n`;
  for (const n of [50_000, 250_000]) {
    const { state, body } = eventsBody(n, n, tiny); // one chunk of 1 or 5 MiB
    const stream = client(body).session.events({ sessionID: sid });
    const before = live();
    for (let i = 1; i <= 3; i++) {
      const r = await stream.next();
      ok(!r.done && (r.value as unknown as { seq: number }).seq === i, `${n}: event ${i}`);
    }
    ok(state.produced === n, `${n}: the one chunk was read`);
    stream.close();
    const after = live();
    ok(state.cancelled, `${n}: close() cancelled the body`);
    ok((await stream.next()).done === true, `${n}: closed`);
    console.log(
      `one chunk of ${n} events, closed after 3 (MiB): live heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)}, ` +
        `arrayBuffers ${mib(before.arrayBuffers)} -> ${mib(after.arrayBuffers)}`,
    );
    // The stream object is still reachable here: what it held of the chunk must not be.
    ok(after.heapUsed - before.heapUsed < 0.5 * MiB, `${n}: live heap after close()`);
    ok(after.arrayBuffers - before.arrayBuffers < 0.5 * MiB, `${n}: arrayBuffers after close()`);
  }
});

await run('stream-memory');
