// The generated OpenCode TypeScript SDK over the in-memory transport: unary calls, tagged errors,
// pages, cold streams, header merging, cancellation and time limits.
import {
  Client,
  ClientError,
  DEFAULT_HEAD_TIMEOUT,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT,
  isClientError,
  isSessionNotFoundError,
  isStreamFailureError,
  SessionNotFoundError,
  type SessionID,
  type SessionListCursor,
} from '../opencode/src/index.js';
import type { OperationSpec } from '../opencode/src/runtime.js';
import { eq, ok, rejects, run, test } from './harness.js';

type Handler = (req: Request) => Promise<Response>;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** A client whose calls are answered by handler; every request is recorded. */
function client(handler: Handler, extra: Partial<ConstructorParameters<typeof Client>[0]> = {}) {
  const seen: Request[] = [];
  const c = new Client({
    baseUrl: 'http://sdk.test/base/',
    credentials: [{ username: 'opencode', password: 'secret' }],
    handler: async (req) => {
      seen.push(req);
      return handler(req);
    },
    ...extra,
  });
  return { c, seen };
}

const sid = 'ses_1' as SessionID;
const notFound = { _tag: 'SessionNotFoundError', sessionID: 'ses_1', message: 'no such session' };

test('unary: path, credentials, Accept, {data} unwrapped', async () => {
  const { c, seen } = client(async () => json(200, { data: { id: 'ses_1', title: 'hello' } }));
  const info = await c.session.get({ sessionID: sid });
  eq(info.id as string, 'ses_1', 'unwrapped id');
  eq((info as unknown as { title: string }).title, 'hello', 'unwrapped title');
  eq(seen.length, 1, 'one request');
  const r = seen[0]!;
  eq(r.method, 'GET', 'method');
  eq(r.url, 'http://sdk.test/base/api/session/ses_1', 'url');
  eq(r.headers.get('authorization'), 'Basic ' + btoa('opencode:secret'), 'basic auth');
  eq(r.headers.get('accept'), 'application/json', 'accept');
});

test('unary: a flattened body, 204 gives undefined', async () => {
  const { c, seen } = client(async () => new Response(null, { status: 204 }));
  const out = await c.session.switchAgent({ sessionID: sid, agent: 'build' } as Parameters<
    typeof c.session.switchAgent
  >[0]);
  eq(out, undefined, '204 result');
  const r = seen[0]!;
  eq(r.method, 'POST', 'method');
  eq(r.url, 'http://sdk.test/base/api/session/ses_1/agent', 'url');
  eq(r.headers.get('content-type'), 'application/json', 'content type');
  eq(await r.text(), '{"agent":"build"}', 'body: the input without its path parameter');
});

test('tagged error: class, structural guard, payload fields', async () => {
  const { c } = client(async () => json(404, notFound));
  const e = await rejects(c.session.get({ sessionID: sid }), 'get');
  ok(e instanceof SessionNotFoundError, 'instanceof the generated class');
  ok(e instanceof Error, 'an Error');
  ok(isSessionNotFoundError(e), 'guard');
  eq(e._tag, 'SessionNotFoundError', '_tag');
  eq(e.status, 404, 'status');
  eq(e.sessionID, 'ses_1', 'payload field on the error');
  eq(e.message, 'SessionNotFoundError (HTTP 404): no such session', 'message');
  ok(!isClientError(e), 'not a ClientError');
  // a copy from another package instance: only the shape counts
  ok(isSessionNotFoundError({ _tag: 'SessionNotFoundError' }), 'structural guard');
  ok(!isSessionNotFoundError({ _tag: 'Other' }), 'another tag');
  ok(!isSessionNotFoundError(null), 'null');
});

test('client errors: undeclared tag, malformed, unsupported content type', async () => {
  let answer: Response = json(404, { _tag: 'Nope' });
  const { c } = client(async () => answer);
  let e = await rejects(c.session.get({ sessionID: sid }), 'undeclared tag');
  ok(isClientError(e) && e.reason === 'unexpected_status' && e.status === 404, `unexpected_status: ${e}`);
  ok(e.body === '{"_tag":"Nope"}', 'body kept');
  answer = json(418, notFound);
  e = await rejects(c.session.get({ sessionID: sid }), 'undeclared status');
  ok(isClientError(e) && e.reason === 'unexpected_status', 'undeclared status');
  answer = new Response('{"data":', { status: 200, headers: { 'Content-Type': 'application/json' } });
  e = await rejects(c.session.get({ sessionID: sid }), 'malformed');
  ok(isClientError(e) && e.reason === 'malformed_response', `malformed: ${e}`);
  answer = json(200, { nodata: 1 });
  e = await rejects(c.session.get({ sessionID: sid }), 'no data');
  ok(isClientError(e) && e.reason === 'malformed_response', 'missing data field');
  answer = new Response('<html/>', { status: 200, headers: { 'Content-Type': 'text/html' } });
  e = await rejects(c.session.get({ sessionID: sid }), 'html');
  ok(isClientError(e) && e.reason === 'unsupported_content_type', 'unsupported content type');
  const t = client(async () => {
    throw new TypeError('connection refused');
  });
  e = await rejects(t.c.session.get({ sessionID: sid }), 'transport');
  ok(isClientError(e) && e.reason === 'transport', 'transport');
});

test('page: items, next/previous send the cursor only, iterAll walks every page', async () => {
  const pages: Record<string, unknown> = {
    first: { data: [{ id: 'a' }, { id: 'b' }], cursor: { next: 'c2', previous: null } },
    c2: { data: [{ id: 'c' }], cursor: { next: 'c3', previous: 'c1' } },
    c1: { data: [{ id: 'a' }, { id: 'b' }], cursor: { next: 'c2' } },
    c3: { data: [{ id: 'd' }], cursor: {} },
  };
  const { c, seen } = client(async (req) => {
    const cur = new URL(req.url).searchParams.get('cursor');
    return json(200, pages[cur ?? 'first']);
  });
  const p1 = await c.session.list({ limit: 2, order: 'desc' });
  eq(p1.items.map((s) => s.id as string), ['a', 'b'], 'first page');
  eq(p1.nextCursor as string | undefined, 'c2', 'next cursor');
  eq(p1.previousCursor, undefined, 'null cursor is none');
  eq(seen[0]!.url, 'http://sdk.test/base/api/session?limit=2&order=desc', 'first request');
  const p2 = (await p1.next())!;
  eq(seen[1]!.url, 'http://sdk.test/base/api/session?cursor=c2', 'continuation: the cursor only');
  eq(p2.items.map((s) => s.id as string), ['c'], 'second page');
  const p0 = (await p2.previous())!;
  eq(seen[2]!.url, 'http://sdk.test/base/api/session?cursor=c1', 'previous');
  eq(p0.items.length, 2, 'previous page');
  eq(await (await p2.next())!.next(), undefined, 'after the last page');
  const all: string[] = [];
  for await (const s of p1.iterAll()) all.push(s.id as string);
  eq(all, ['a', 'b', 'c', 'd'], 'iterAll');
  // a cursor of one operation is a type of its own
  const cur: SessionListCursor | undefined = p1.nextCursor;
  await c.session.list({ cursor: cur! });
});

test('page with a path parameter: continuation keeps it', async () => {
  const { c, seen } = client(async (req) =>
    json(200, {
      data: [{ id: 'msg_1' }],
      cursor: { next: new URL(req.url).searchParams.get('cursor') ? null : 'm2' },
    }),
  );
  const p = await c.session.messages({ sessionID: sid, limit: 1 });
  await p.next();
  eq(seen[1]!.url, 'http://sdk.test/base/api/session/ses_1/message?cursor=m2', 'path + cursor');
});

test('header merge: client headers, per-call overrides by name', async () => {
  const { c, seen } = client(async () => json(200, { data: {} }), {
    headers: { 'X-A': 'client', 'X-B': 'client' },
  });
  await c.session.get({ sessionID: sid }, { headers: { 'x-b': 'call', 'X-C': 'call' } });
  const h = seen[0]!.headers;
  eq([h.get('x-a'), h.get('x-b'), h.get('x-c')], ['client', 'call', 'call'], 'merged headers');
  await c.session.get({ sessionID: sid }, { headers: { Authorization: 'Bearer other' } });
  eq(seen[1]!.headers.get('authorization'), 'Bearer other', 'a call header overrides credentials');
});

test('cancel: AbortSignal before and during a call; timeout', async () => {
  let calls = 0;
  const { c } = client(
    () =>
      new Promise<Response>(() => {
        calls++; // never answers
      }),
  );
  const before = new AbortController();
  before.abort();
  let e = await rejects(c.session.get({ sessionID: sid }, { signal: before.signal }), 'pre-aborted');
  ok(isClientError(e) && e.reason === 'cancelled', 'cancelled before sending');
  eq(calls, 0, 'nothing sent');
  const during = new AbortController();
  const p = c.session.get({ sessionID: sid }, { signal: during.signal });
  setTimeout(() => during.abort(), 5);
  e = await rejects(p, 'aborted');
  ok(isClientError(e) && e.reason === 'cancelled', `cancelled while waiting: ${e}`);
  e = await rejects(c.session.get({ sessionID: sid }, { timeout: 5, maxRetries: 0 }), 'timeout');
  ok(isClientError(e) && e.reason === 'timeout', `timeout: ${e}`);
  ok(e instanceof ClientError, 'ClientError class');
});

test('time limits: head, total, off; per client and per call; the defaults', async () => {
  eq([DEFAULT_TIMEOUT, DEFAULT_HEAD_TIMEOUT, DEFAULT_MAX_RETRIES], [60000, 30000, 2], 'the defaults');
  const silent = () => new Promise<Response>(() => undefined); // accepts, never answers
  const { c } = client(silent, { headTimeout: 20, maxRetries: 0 });
  let e = await rejects(c.session.get({ sessionID: sid }), 'head');
  ok(isClientError(e) && e.reason === 'timeout' && e.message.includes('no response head within 20 ms'), `${e}`);
  e = await rejects(c.session.get({ sessionID: sid }, { headTimeout: 30 }), 'head per call');
  ok(isClientError(e) && e.message.includes('within 30 ms'), `${e}`);
  // a stream open too
  e = await rejects(c.session.events({ sessionID: sid }).next(), 'stream head');
  ok(isClientError(e) && e.reason === 'timeout' && e.message.includes('no response head'), `${e}`);
  // off per call: the client's signal (either one cancels) ends it instead
  const stop = new AbortController();
  const { c: d } = client(silent, { headTimeout: 20, maxRetries: 0, signal: stop.signal });
  const p = d.session.get({ sessionID: sid }, { headTimeout: 0, timeout: 0 });
  setTimeout(() => stop.abort(), 200);
  e = await rejects(p, 'off: cancelled by the client signal');
  ok(isClientError(e) && e.reason === 'cancelled', `${e}`);
  // the head arrives, the body never ends: the total timeout
  const stalled = async () =>
    new Response(new ReadableStream<Uint8Array>({ start() {} }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  const { c: s } = client(stalled, { headTimeout: 20, timeout: 60, maxRetries: 0 });
  e = await rejects(s.session.get({ sessionID: sid }), 'total');
  ok(isClientError(e) && e.reason === 'timeout' && e.message.includes('total timeout'), `${e}`);
  // a late answer with the head timeout off (client) gets through
  const late = () => new Promise<Response>((r) => setTimeout(() => r(json(200, { data: { id: 'ses_1' } })), 150));
  const { c: l } = client(late, { headTimeout: 0, maxRetries: 0 });
  eq(((await l.session.get({ sessionID: sid })) as { id: string }).id, 'ses_1', 'head timeout off');
  const { c: l2 } = client(late, { headTimeout: 20, maxRetries: 0 });
  eq(((await l2.session.get({ sessionID: sid }, { headTimeout: 0 })) as { id: string }).id, 'ses_1', 'off per call');
  // a stream's head arrives, then silence: no timeout by default, the idle timeout when set
  const sse = async () =>
    new Response(new ReadableStream<Uint8Array>({ start() {} }), {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream' },
    });
  const { c: st } = client(sse, { headTimeout: 20, idleTimeout: 50 });
  e = await rejects(st.session.events({ sessionID: sid }).next(), 'idle');
  ok(isClientError(e) && e.reason === 'timeout' && e.message.includes('idle timeout'), `${e}`);
});

test('retries: on by default, Retry-After, POST only with a key, cancel ends the wait', async () => {
  let n = 0;
  const flaky = async () => (n++ === 0 ? json(503, {}, { 'retry-after-ms': '1' }) : json(200, { data: { id: 'ses_1' } }));
  const { c, seen } = client(flaky);
  eq(((await c.session.get({ sessionID: sid })) as { id: string }).id, 'ses_1', '503 then 200, no option set');
  eq(seen.length, 2, 'two attempts');
  // three attempts in all, then the last answer
  const always = async () => json(503, {}, { 'retry-after': '0' });
  const a = client(always);
  let e = await rejects(a.c.session.get({ sessionID: sid }), '503 thrice');
  ok(isClientError(e) && e.status === 503, `${e}`);
  eq(a.seen.length, 3, 'three attempts');
  const a0 = client(always, { maxRetries: 0 });
  await rejects(a0.c.session.get({ sessionID: sid }), 'off');
  eq(a0.seen.length, 1, 'maxRetries 0: one attempt');
  const a1 = client(always);
  await rejects(a1.c.session.get({ sessionID: sid }, { maxRetries: 1 }), 'per call');
  eq(a1.seen.length, 2, 'maxRetries 1 per call');
  // a POST without a key is sent once; with one it is retried, the same key each time
  const b = client(always);
  await rejects(b.c.session.create({}), 'post');
  eq(b.seen.length, 1, 'POST without a key: once');
  await rejects(b.c.session.create({}, { idempotencyKey: 'auto' }), 'post keyed');
  eq(b.seen.length, 4, 'POST with a key: three attempts');
  const keys = b.seen.slice(1).map((r) => r.headers.get('idempotency-key') ?? '');
  const k0 = keys[0] ?? '';
  ok(/^[0-9a-f-]{36}$/.test(k0), `a UUID: ${k0}`);
  eq(keys, [k0, k0, k0], 'the same key on each attempt');
  // a cancel during the wait ends it at once
  const slow = client(async () => json(503, {}, { 'retry-after': '30' }));
  const stop = new AbortController();
  const p = slow.c.session.get({ sessionID: sid }, { signal: stop.signal });
  setTimeout(() => stop.abort(), 50);
  e = await rejects(p, 'cancelled while waiting');
  ok(isClientError(e) && e.reason === 'cancelled' && e.message.includes('waiting to retry after HTTP 503'), `${e}`);
  eq(slow.seen.length, 1, 'no second attempt');
  // a 404 is not retried; a transport error is
  const nf = client(async () => json(404, notFound));
  await rejects(nf.c.session.get({ sessionID: sid }), '404');
  eq(nf.seen.length, 1, '404 once');
  let m = 0;
  const cut = client(async () => {
    if (m++ === 0) throw new TypeError('fetch failed');
    return json(200, { data: { id: 'ses_1' } });
  });
  await cut.c.session.get({ sessionID: sid });
  eq(cut.seen.length, 2, 'a transport error, then success');
});

test('a declared idempotency header: a generated key, kept across retries; the caller\'s wins', async () => {
  let n = 0;
  const { c, seen } = client(async () => (n++ % 2 === 0 ? json(503, {}, { 'retry-after': '0' }) : new Response(null, { status: 201 })));
  const op: OperationSpec = {
    id: 'orders.create',
    method: 'POST',
    path: '/orders',
    params: [['key', 'X-Idempotency-Key', 'header', 'simple', false, false]],
    status: 201,
    encoding: 'none',
    errors: [],
    idempotencyHeader: 'X-Idempotency-Key',
  };
  await c.call(op, {});
  eq(seen.length, 2, 'a POST retried');
  const k = seen[0]!.headers.get('x-idempotency-key') ?? '';
  ok(/^[0-9a-f-]{36}$/.test(k), `generated: ${k}`);
  eq(seen[1]!.headers.get('x-idempotency-key'), k, 'the same key on the retry');
  await c.call(op, { key: 'mine' });
  eq([seen[2]!.headers.get('x-idempotency-key'), seen[3]!.headers.get('x-idempotency-key')], ['mine', 'mine'], 'the parameter');
  await c.call(op, {}, { idempotencyKey: 'opt' });
  eq(seen[4]!.headers.get('x-idempotency-key'), 'opt', 'the option, in the declared header');
  eq(seen[4]!.headers.get('idempotency-key'), null, 'not in the client\'s default header');
});

/** An SSE response whose body the test feeds; records cancellation. */
function sseBody() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      ctl = c;
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return {
    state,
    response: () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    send: (s: string) => ctl.enqueue(enc.encode(s)),
    end: () => ctl.close(),
  };
}

const ev = (seq: number) => ({ type: 'session.next.prompted', durable: { seq } });

test('stream: cold, heartbeats skipped, items, split frames, end', async () => {
  const s = sseBody();
  const { c, seen } = client(async () => s.response());
  const events = c.session.events({ sessionID: sid, after: '3' });
  await new Promise((r) => setTimeout(r, 5));
  eq(seen.length, 0, 'cold: no request before next()');
  s.send(': heartbeat\n\n');
  s.send(`data: ${JSON.stringify(ev(4))}\n\n`);
  s.send(`data: ${JSON.stringify(ev(5)).slice(0, 10)}`);
  s.send(`${JSON.stringify(ev(5)).slice(10)}\r\n\r\n: heartbeat\n\n`);
  s.end();
  const got: number[] = [];
  for await (const e of events) got.push((e as unknown as { durable: { seq: number } }).durable.seq);
  eq(got, [4, 5], 'items');
  eq(seen.length, 1, 'one connection');
  eq(seen[0]!.url, 'http://sdk.test/base/api/session/ses_1/event?after=3', 'explicit after');
  eq(seen[0]!.headers.get('accept'), 'text/event-stream', 'accept');
});

test('stream: a failure frame becomes the declared error', async () => {
  const s = sseBody();
  const { c } = client(async () => s.response());
  s.send(`data: ${JSON.stringify(ev(1))}\n\n`);
  s.send(`event: effect/httpapi/stream/failure\ndata: ${JSON.stringify([{ _tag: 'Fail', error: notFound }])}\n\n`);
  const it = c.session.events({ sessionID: sid });
  const first = await it.next();
  ok(!first.done, 'an item first');
  const e = await rejects(it.next(), 'failure');
  ok(isSessionNotFoundError(e), `typed failure: ${e}`);
  eq((await it.next()).done, true, 'ended after the failure');
  const s2 = sseBody();
  const t = client(async () => s2.response());
  s2.send(`event: effect/httpapi/stream/failure\ndata: ${JSON.stringify([{ _tag: 'Die', defect: 'boom' }])}\n\n`);
  const e2 = await rejects(t.c.session.events({ sessionID: sid }).next(), 'defect');
  ok(isStreamFailureError(e2), `defect: ${e2}`);
});

test('stream: return() aborts the connection; an error status is typed', async () => {
  const s = sseBody();
  const { c, seen } = client(async () => s.response());
  s.send(`data: ${JSON.stringify(ev(1))}\n\n`);
  for await (const e of c.session.events({ sessionID: sid })) {
    ok(e !== undefined, 'an item');
    break; // calls return()
  }
  ok(seen[0]!.signal.aborted, 'request signal aborted');
  await new Promise((r) => setTimeout(r, 0));
  ok(s.state.cancelled, 'body cancelled');
  const t = client(async () => json(404, notFound));
  const e = await rejects(t.c.session.events({ sessionID: sid }).next(), '404');
  ok(isSessionNotFoundError(e), 'tagged 404 on open');
  const ctl = new AbortController();
  const s3 = sseBody();
  const u = client(async () => s3.response());
  const st = u.c.session.events({ sessionID: sid }, { signal: ctl.signal });
  const pending = st.next();
  setTimeout(() => ctl.abort(), 5);
  const e3 = await rejects(pending, 'cancel');
  ok(isClientError(e3) && e3.reason === 'cancelled', `cancelled stream: ${e3}`);
});

await run('opencode');
