// The TypeScript SDK of tests/compiler/data/compile/real/responses.yaml over the in-memory
// transport: errors declared under non-JSON media types (notes.get: 404 text/plain, 409 XML, 5XX
// text/html) are StatusErrors whose payload is the server's text, whatever Content-Type the
// response carries; `default` under a media range with a schema stays JSON.
import { Client, isClientError, isStatusError } from '../responses/src/index.js';
import { eq, ok, rejects, run, test } from './harness.js';

function client(status: number, contentType: string | undefined, body: string) {
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  return new Client({
    baseUrl: 'http://sdk.test',
    maxRetries: 0,
    handler: async () => new Response(body, { status, headers }),
  });
}

test('a declared text/plain error is a StatusError with the text', async () => {
  const c = client(404, 'text/plain; charset=utf-8', 'no note n1\n');
  const e = await rejects(c.notes.get({ id: 'n1' }), '404');
  ok(isStatusError(e), `not a StatusError: ${e}`);
  eq(e.status, 404, 'status');
  eq(e.type, 'NotesGet404', 'declared type');
  eq(e.payload, 'no note n1\n', 'payload is the text');
  eq(e.message, 'notes.get: NotesGet404 (HTTP 404): no note n1', 'message carries the text');
});

test('XML and HTML bodies are text; control characters are escaped in the message', async () => {
  let e = await rejects(client(409, 'application/xml', '<e>locked</e>').notes.get({ id: 'n' }), '409');
  ok(isStatusError(e) && e.payload === '<e>locked</e>', `409: ${e}`);
  e = await rejects(client(502, undefined, '<html>Bad\tgateway</html>').notes.get({ id: 'n' }), '502');
  ok(isStatusError(e) && e.type === 'NotesGet5XX', `5XX: ${e}`);
  ok(e instanceof Error && e.message.endsWith('<html>Bad\\tgateway</html>'), `message: ${e}`);
  // JSON sent where text is declared is still the text
  e = await rejects(client(503, 'application/json', '{"m":1}').notes.get({ id: 'n' }), '503');
  ok(isStatusError(e) && e.payload === '{"m":1}', `503: ${e}`);
});

test('default under a media range with a schema is JSON; undeclared statuses stay client errors', async () => {
  const e = await rejects(
    client(418, 'application/json', '{"title":"teapot"}').notes.get({ id: 'n' }),
    '418',
  );
  ok(isStatusError(e) && e.type === 'Problem', `418: ${e}`);
  eq(e.payload, { title: 'teapot' }, 'decoded payload');
  const u = await rejects(client(409, 'text/plain', 'busy').ping.ping(), 'ping 409');
  ok(isClientError(u) && u.reason === 'unexpected_status', `ping: ${u}`);
});

await run('errors');
