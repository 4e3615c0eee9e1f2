// A project that depends on the packed OpenCode SDK (tests/emitter/ts/package.sh): it imports the
// package by its name, so node and tsc resolve it through its package.json (`exports`, dist/), and
// calls it over the in-memory transport. Prints `consumer: ok` and exits 0 when every check holds.
import {
  Client,
  ClientError,
  isClientError,
  isSessionNotFoundError,
  SessionNotFoundError,
  type SessionID,
  type Types,
} from '@sdkc/opencode';

declare const process: { exitCode?: number };

function check(cond: boolean, what: string): void {
  if (!cond) throw new Error(`consumer: ${what}`);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const seen: string[] = [];
const client = new Client({
  baseUrl: 'http://sdk.test',
  headers: { 'x-opencode-directory': '/work' },
  handler: async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}${url.search}`);
    check(req.headers.get('x-opencode-directory') === '/work', 'client headers on every call');
    if (url.pathname === '/api/session/ses_1') return json(200, { data: { id: 'ses_1', title: 'hello' } });
    if (url.pathname === '/api/session/ses_missing')
      return json(404, { _tag: 'SessionNotFoundError', sessionID: 'ses_missing', message: 'no such session' });
    if (url.pathname === '/api/session') {
      return url.searchParams.get('cursor') === 'c2'
        ? json(200, { data: [{ id: 'ses_3' }], cursor: {} })
        : json(200, { data: [{ id: 'ses_1' }, { id: 'ses_2' }], cursor: { next: 'c2' } });
    }
    if (url.pathname === '/api/session/ses_1/event') {
      const frames = [': heartbeat\n\n', 'data: {"type":"a","durable":{"seq":4}}\n\n', 'data: {"type":"b","durable":{"seq":5}}\n\n'];
      return new Response(frames.join(''), { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    }
    return new Response('nothing here', { status: 500 });
  },
});

async function main(): Promise<void> {
  const info: Types.SessionV2Info = await client.session.get({ sessionID: 'ses_1' as SessionID });
  check(info.id === 'ses_1', `unwrapped result, got ${JSON.stringify(info)}`);

  try {
    await client.session.get({ sessionID: 'ses_missing' as SessionID });
    check(false, 'a 404 rejects');
  } catch (e) {
    check(isSessionNotFoundError(e), 'the tagged error guard');
    check(e instanceof SessionNotFoundError && e.status === 404, 'the tagged error class and status');
    check(!isClientError(e), 'not a ClientError');
  }

  const ids: string[] = [];
  for await (const s of (await client.session.list({ limit: 2 })).iterAll()) ids.push(s.id);
  check(JSON.stringify(ids) === '["ses_1","ses_2","ses_3"]', `every page, got ${JSON.stringify(ids)}`);

  const seqs: number[] = [];
  for await (const ev of client.session.events({ sessionID: 'ses_1' as SessionID })) {
    const d = (ev as { durable?: { seq: number } }).durable;
    if (d) seqs.push(d.seq);
  }
  check(JSON.stringify(seqs) === '[4,5]', `stream items, got ${JSON.stringify(seqs)}`);

  const e = await client.fs.list(undefined, { maxRetries: 0 }).then( // the 500 answered once
    () => undefined,
    (err: unknown) => err,
  );
  check(e instanceof ClientError && e.reason === 'unexpected_status' && e.status === 500, 'an undeclared status');

  const want = [
    'GET /api/session/ses_1',
    'GET /api/session/ses_missing',
    'GET /api/session?limit=2',
    'GET /api/session?cursor=c2',
    'GET /api/session/ses_1/event',
    'GET /api/fs/list',
  ];
  check(JSON.stringify(seen) === JSON.stringify(want), `requests: ${JSON.stringify(seen)}`);
  console.log('consumer: ok');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
