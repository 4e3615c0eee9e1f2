// The verdicts of the generated mock tests' harness (tests/mock-harness.ts of `--tests`), driven by
// an in-memory "Prism": a request violation FAILs even on a 2xx, a response the SDK rejects while
// Prism says the response breaks the contract is retried with `Prefer: dynamic=true`, Prism's
// serialiser limits are a SKIP only where they may be, anything else FAILs with the body.
import { Client } from '../successes/src/index.js';
import { Mock } from '../successes/tests/mock-harness.js';
import { eq, ok, run, test } from './harness.js';

type Handler = (req: Request) => Response;

/** Run fn with a fresh Mock, capturing the lines it prints. */
async function verdict(handler: Handler, fn: (c: Client, t: Mock) => Promise<void>) {
  const seen: Request[] = [];
  const c = new Client({
    baseUrl: 'http://prism.test',
    maxRetries: 0, // as the generated mock tests: one request per verdict
    handler: async (req) => {
      seen.push(req);
      return handler(req);
    },
  });
  const t = new Mock();
  const lines: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => void lines.push(a.map(String).join(' '));
  try {
    await fn(c, t);
  } finally {
    console.log = log;
  }
  return { t, lines, seen };
}

const violations = (side: string, msg: string) =>
  JSON.stringify([{ location: [side, 'body', 'name'], severity: 'Error', code: 'type', message: msg }]);

function item(headers: Record<string, string> = {}, body = '{"id":"a"}', status = 200): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

test('a request violation FAILs even when the call succeeds', async () => {
  const { t, lines } = await verdict(
    () => item({ 'sl-violations': violations('request', 'must be string') }),
    (c, t) => t.call('items.put', false, (o) => c.items.put({ id: 'a' }, o)),
  );
  eq(t.fail, 1, 'one FAIL');
  eq(
    lines[0],
    'FAIL items.put: Prism reported 1 request violation: request.body.name: must be string (HTTP 200; call succeeded)',
    'line',
  );
});

test('a clean success PASSes; a response violation alone does not matter', async () => {
  const { t, lines } = await verdict(
    () => item({ 'sl-violations': violations('response', 'extra field') }),
    (c, t) => t.call('items.put', false, (o) => c.items.put({ id: 'a' }, o)),
  );
  eq([t.pass, t.fail, t.skip], [1, 0, 0], 'tally');
  eq(lines, ['PASS items.put'], 'line');
});

test('a rejected response that breaks the contract is retried with a generated one', async () => {
  const { t, lines, seen } = await verdict(
    (req) =>
      req.headers.get('prefer') === 'dynamic=true'
        ? item()
        : item({ 'sl-violations': violations('response', 'must be object') }, '{"id": 1'),
    (c, t) => t.call('items.put', false, (o) => c.items.put({ id: 'a' }, o)),
  );
  eq(seen.length, 2, 'two attempts');
  eq(seen[0]!.headers.get('prefer'), null, 'first attempt plain');
  eq(t.pass, 1, 'PASS after the retry');
  ok(lines[0]!.startsWith("PASS items.put: the contract's example breaks its schema (response.body.name: must be object)"), lines[0]!);
  // both attempts rejected: a SKIP naming both
  const again = await verdict(
    () => item({ 'sl-violations': violations('response', 'must be object') }, '{"id": 1'),
    (c, t) => t.call('items.put', false, (o) => c.items.put({ id: 'a' }, o)),
  );
  eq([again.t.pass, again.t.fail, again.t.skip], [0, 0, 1], 'SKIP');
  ok(again.lines[0]!.startsWith("SKIP items.put: the request passed; Prism's responses break the contract"), again.lines[0]!);
});

test("Prism's serialiser limits: a SKIP only where the operation allows it, else a FAIL with the body", async () => {
  const prism500 = () =>
    new Response('{"type":"https://stoplight.io/prism/errors#NO_COMPLEX_OBJECT_TEXT"}', {
      status: 500,
      headers: { 'Content-Type': 'application/problem+json' },
    });
  const a = await verdict(prism500, (c, t) => t.call('items.put', true, (o) => c.items.put({ id: 'a' }, o)));
  eq([a.t.pass, a.t.fail, a.t.skip], [0, 0, 1], 'unserialisable: SKIP');
  ok(a.lines[0]!.startsWith('SKIP items.put: the request passed; Prism cannot serialise its response'), a.lines[0]!);
  const b = await verdict(prism500, (c, t) => t.call('items.put', false, (o) => c.items.put({ id: 'a' }, o)));
  eq(b.t.fail, 1, 'FAIL otherwise');
  ok(b.lines[0]!.includes('HTTP 500') && b.lines[0]!.includes(' -- body: {"type":'), b.lines[0]!);
});

await run('mock');
