// The TypeScript SDK of tests/emitter/data/successes.yaml over the in-memory transport: several
// declared successes (one value type: the value, the status through onResponse; different types:
// `{status, value}`), a JSON success also offered as text/event-stream (`createStream`), and a
// contract without security schemes (the client's credentials on every operation).
import {
  Client,
  isClientError,
  type Credential,
  type ItemsPutResult,
  type ResponseInfo,
} from '../successes/src/index.js';
import { eq, ok, rejects, run, test } from './harness.js';

type Handler = (req: Request) => Promise<Response> | Response;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function client(handler: Handler, credentials: Credential[] = []) {
  const seen: Request[] = [];
  const c = new Client({
    baseUrl: 'http://sdk.test',
    credentials,
    handler: async (req) => {
      seen.push(req);
      return handler(req);
    },
  });
  return { c, seen };
}

test('one value type: each declared status resolves to the value; onResponse says which', async () => {
  let status = 201;
  const { c } = client(() => json(status, { id: status, content: 'smile' }));
  const statuses: number[] = [];
  const onResponse = (r: ResponseInfo) => statuses.push(r.status);
  const a = await c.reactions.create({ onResponse });
  eq(a.id, 201, 'the 201 value');
  status = 200;
  const b = await c.reactions.create({ onResponse });
  eq(b.content, 'smile', 'the 200 value');
  eq(statuses, [201, 200], 'statuses seen');
  status = 202; // not declared
  const e = await rejects(c.reactions.create(), 'undeclared 2xx');
  ok(isClientError(e) && e.reason === 'unexpected_status' && e.status === 202, `undeclared: ${e}`);
});

test('no content either way: 200 and 204 both resolve to undefined', async () => {
  let status = 204;
  const { c, seen } = client(() => new Response(status === 204 ? null : '', { status }));
  let got = 0;
  eq(await c.items.remove({ id: 'a' }, { onResponse: (r) => (got = r.status) }), undefined, '204');
  eq(got, 204, '204 seen');
  status = 200;
  eq(await c.items.remove({ id: 'a' }, { onResponse: (r) => (got = r.status) }), undefined, '200');
  eq(got, 200, '200 seen');
  eq(seen[0]!.method, 'DELETE', 'method');
});

test('different types: {status, value} for each declared success', async () => {
  let reply: () => Response = () => json(200, { id: 'a', name: 'first' });
  const { c, seen } = client(() => reply());
  const describe = (r: ItemsPutResult): string => {
    switch (r.status) {
      case 200:
        return `item ${r.value.id} ${r.value.name ?? ''}`; // narrowed to Item
      case 202:
        return `text ${r.value.toUpperCase()}`; // narrowed to string
      case 204:
        return `none ${String(r.value)}`;
    }
  };
  eq(describe(await c.items.put({ id: 'a' })), 'item a first', '200');
  eq(seen[0]!.headers.get('accept'), 'application/json, text/plain', 'Accept names every success');
  reply = () => new Response('later', { status: 202, headers: { 'Content-Type': 'text/plain' } });
  const r202 = await c.items.put({ id: 'a' });
  eq(r202, { status: 202, value: 'later' }, '202');
  reply = () => new Response(null, { status: 204 });
  const r204 = await c.items.put({ id: 'a' });
  eq(r204.status, 204, '204 status');
  ok('value' in r204 && r204.value === undefined, '204 has no value');
  reply = () => new Response('{"id": 1', { status: 200, headers: { 'Content-Type': 'application/json' } });
  const e = await rejects(c.items.put({ id: 'a' }), 'bad JSON');
  ok(isClientError(e) && e.reason === 'malformed_response', `malformed: ${e}`);
  reply = () => json(201, { id: 'a' });
  const e2 = await rejects(c.items.put({ id: 'a' }), 'undeclared 201');
  ok(isClientError(e2) && e2.reason === 'unexpected_status' && e2.status === 201, `201: ${e2}`);
});

/** chat.create answers JSON, or event-stream chunks when the body says `"stream":true` (as
 * OpenAI decides) to a request that accepts them. */
async function chat(req: Request): Promise<Response> {
  const body = await req.clone().text();
  if (body.includes('"stream":true') && (req.headers.get('accept') ?? '').includes('text/event-stream')) {
    const frames = ': heartbeat\n\ndata: {"delta":"Hel"}\n\ndata: {"delta":"lo"}\n\n';
    return new Response(frames, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  }
  return json(200, { id: 'c1', text: 'Hello' });
}

test('stream variant: create() resolves, createStream() is a cold AsyncIterable', async () => {
  const { c, seen } = client(chat);
  const done = await c.chat.create({ prompt: 'hi' });
  eq(done, { id: 'c1', text: 'Hello' }, 'unary value');
  // the stream form sends `stream: true` itself (unset, or even false in the input)
  const s = c.chat.createStream({ prompt: 'hi' });
  eq(seen.length, 1, 'cold: nothing sent before next()');
  const deltas: string[] = [];
  for await (const chunk of s) deltas.push(chunk.delta);
  eq(deltas, ['Hel', 'lo'], 'chunks');
  eq(seen.length, 2, 'one request for the stream');
  const r = seen[1]!;
  eq(r.headers.get('accept'), 'text/event-stream', 'stream Accept');
  eq(await r.text(), '{"prompt":"hi","stream":true}', 'the input with stream: true');
  const input = { prompt: 'hi', stream: false };
  const again: string[] = [];
  for await (const chunk of c.chat.createStream(input)) again.push(chunk.delta);
  eq(again, ['Hel', 'lo'], 'stream: false in the input is overridden');
  eq(input.stream, false, "the caller's input is left as it was");
});

test('stream variant: return() closes it; JSON instead of events is unsupported_content_type', async () => {
  const { c } = client(chat);
  const s = c.chat.createStream({ prompt: 'hi', stream: true });
  const first = await s.next();
  ok(!first.done && first.value.delta === 'Hel', 'first chunk');
  await s.return();
  eq(await s.next(), { done: true, value: undefined }, 'closed');
  const { c: c2 } = client(() => json(200, { id: 'c1', text: 'Hello' }));
  const e = await rejects(c2.chat.createStream({ prompt: 'hi' }).next(), 'JSON answer');
  ok(isClientError(e) && e.reason === 'unsupported_content_type', `content type: ${e}`);
});

test('no security scheme declared: the credentials go on every operation', async () => {
  const cases: [Credential[], string, string][] = [
    [[{ username: 'u', password: 'p' }], 'authorization', 'Basic ' + btoa('u:p')],
    [[{ token: 't0k' }], 'authorization', 'Bearer t0k'],
    [[{ token: 'k3y', header: 'X-API-Key' }], 'x-api-key', 'k3y'],
    // a scheme name fits nothing declared, and is sent all the same
    [[{ scheme: 'basic', username: 'n', password: 'q' }], 'authorization', 'Basic ' + btoa('n:q')],
  ];
  for (const [creds, header, value] of cases) {
    const { c, seen } = client((req) => {
      if (req.method === 'DELETE') return new Response(null, { status: 204 });
      if (req.url.endsWith('/chat')) return chat(req);
      return req.url.includes('/items/') ? json(200, { id: 'a' }) : json(201, { id: 1, content: 'x' });
    }, creds);
    await c.reactions.create(); // declares 401
    await c.items.put({ id: 'a' }); // declares none
    await c.items.remove({ id: 'a' });
    await c.chat.create({ prompt: 'x' });
    for await (const _ of c.chat.createStream({ prompt: 'x', stream: true })) void _;
    eq(seen.length, 5, 'five requests');
    for (const r of seen) eq(r.headers.get(header), value, `${r.method} ${r.url}: ${header}`);
  }
  // an API key and a bearer token together: both
  const { c, seen } = client(() => json(201, { id: 1, content: 'x' }), [
    { token: 'k3y', header: 'X-API-Key' },
    { token: 't0k' },
    { token: 'ignored' },
  ]);
  await c.reactions.create();
  eq(seen[0]!.headers.get('x-api-key'), 'k3y', 'api key');
  eq(seen[0]!.headers.get('authorization'), 'Bearer t0k', 'the first bearer token');
  // no credentials: nothing
  const { c: bare, seen: seen2 } = client(() => json(201, { id: 1, content: 'x' }));
  await bare.reactions.create();
  eq(seen2[0]!.headers.get('authorization'), null, 'no credentials, no Authorization');
});

await run('successes');
