// Every pagination style of the TypeScript runtime over the in-memory transport, with the SDK of
// tests/compiler/data/pages/styles.yaml (one operation per style): the cases of the C SDK's
// tests/emitter/pages/pages_main.c and libsdkrt's tests/runtime/test_page.c, with the exact
// requests each walk sends (items t1..t7, three a page).
import { Client, isClientError, type CursorObjectCursor, type Thing } from '../pages/src/index.js';
import { findLink } from '../pages/src/runtime.js';
import { eq, ok, rejects, run, test } from './harness.js';

const N = 7;
const BASE = 'http://api.test:8080/v1';

function things(from: number, n: number): Thing[] {
  const out: Thing[] = [];
  for (let i = from; i < from + n && i < N; i++) out.push({ id: `t${i + 1}`, name: 'n' });
  return out;
}

function json(body: unknown, headers: [string, string][] = []): Response {
  const h = new Headers({ 'Content-Type': 'application/json' });
  for (const [k, v] of headers) h.append(k, v);
  return new Response(JSON.stringify(body), { status: 200, headers: h });
}

/** "xN" as N (the item a cursor-like value starts from), or 0. */
function start(v: string | null): number {
  return v ? Number(v.slice(1)) : 0;
}

/** The fake server: an endpoint per style (paths with or without the base path /v1). */
function serve(req: Request, evil: string): Response {
  const u = new URL(req.url);
  const q = u.searchParams;
  const num = (k: string, d: number) => (q.has(k) ? Number(q.get(k)) : d);
  const path = u.pathname.replace(/^\/v1/, '');
  if (path === '/cursor-object') {
    const from = start(q.get('cursor'));
    if (q.get('cursor')?.startsWith('e'))
      return json({ data: [], cursor: { next: `e${from + 1}`, previous: null } }); // never ends
    const next = q.get('order') === 'stuck' || q.get('cursor') === 'same' ? 'same' : from + 3 < N ? `c${from + 3}` : null;
    return json({ data: things(from, 3), cursor: { next, previous: from ? `c${from - 3}` : null } });
  }
  if (path === '/cursor-token') {
    if (q.get('pageSize') === '1') return json({ things: things(0, 1), nextPageToken: 'same' }); // stuck
    if (q.get('pageSize') === '4') return json({ things: [], nextPageToken: `e${start(q.get('pageToken')) + 1}` }); // empty, never ends
    if (q.get('pageSize') === '5') {
      // tokens a -> b -> a: back to an earlier page
      const tok = q.get('pageToken');
      return json({ things: things(tok === 'b' ? 1 : 0, 1), nextPageToken: tok === 'a' ? 'b' : 'a' });
    }
    if (q.get('pageSize') === '2') return json({ things: things(0, 1), nextPageToken: q.get('pageToken') ? undefined : 'x/y z' });
    const from = start(q.get('pageToken'));
    return json({ things: things(from, num('pageSize', 3)), nextPageToken: from + 3 < N ? `p${from + 3}` : undefined });
  }
  if (path === '/cursor-item' || path === '/after-id') {
    const from = start(q.get(path === '/after-id' ? 'after' : 'starting_after'));
    const data: unknown[] = things(from, 3);
    if (q.get('limit') === '9') data.push({ name: 'no id' });
    return json({ data, has_more: from + 3 < N, object: 'list', url: path });
  }
  if (path === '/next-url' || path === '/elsewhere') {
    if (q.get('PageSize') === '99') return json({ messages: things(0, 1), next_page_uri: evil });
    const page = num('Page', 0);
    // page 0 links relative to the host (Twilio), page 1 absolute, page 2 none
    const next = page === 0 ? '/elsewhere?Page=1&PageToken=a%2Fb' : page === 1 ? `${BASE}/next-url?Page=2` : null;
    return json({ messages: things(page * 3, 3), page, next_page_uri: next });
  }
  if (path === '/link-header') {
    const page = num('page', 1);
    const links: [string, string][] = [['Link', `<${BASE}/link-header?page=1>; rel="first"; title="a, b; c"`]];
    if (page * 3 < N) links.push(['link', `<link-header?page=${page + 1}&per_page=3>; REL="last next"`]);
    return json(things((page - 1) * 3, 3), links);
  }
  if (path === '/page-number') {
    const page = num('page', 1);
    if (page >= 100) return json(things(0, 2)); // the page number ignored: the same page again
    const per = num('per_page', 3);
    return json(things((page - 1) * per, per));
  }
  if (path === '/offset') return json({ results: things(num('offset', 0), num('limit', 3)), total: N });
  return new Response('no', { status: 404 });
}

function client(evil = '') {
  const seen: Request[] = [];
  const c = new Client({
    baseUrl: BASE,
    credentials: [{ token: 'tok' }],
    handler: async (req) => {
      seen.push(req);
      return serve(req, evil);
    },
  });
  /** The targets sent (path and query, relative to the origin). */
  const targets = () => seen.map((r) => r.url.replace('http://api.test:8080', ''));
  return { c, seen, targets };
}

const ALL = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'];

interface Walkable {
  items: Thing[];
  hasNext: boolean;
  next(): Promise<Walkable | undefined>;
  iterAll(): AsyncIterable<Thing>;
}

/** Walk a paginated call with iterAll, then page by page with next(); both send want. */
async function walk(name: string, first: (c: Client) => Promise<Walkable>, want: string[], items = ALL): Promise<void> {
  const a = client();
  const out: string[] = [];
  for await (const t of (await first(a.c)).iterAll()) out.push(t.id);
  eq(out, items, `${name}: iterAll items`);
  eq(a.targets(), want, `${name}: iterAll requests`);
  ok(a.seen.every((r) => r.headers.get('authorization') === 'Bearer tok'), `${name}: credentials on every page`);
  const b = client();
  const pages: string[][] = [];
  let page: Walkable | undefined = await first(b.c);
  while (page) {
    pages.push(page.items.map((t) => t.id));
    const more = page.hasNext;
    page = await page.next();
    ok(more === (page !== undefined), `${name}: hasNext says whether next() gives a page`);
  }
  eq(pages.flat(), items, `${name}: page items`);
  eq(b.targets(), want, `${name}: page requests`);
}

test('cursor-token: the query kept, the token in its parameter', async () => {
  await walk('token', (c) => c.cursorToken.cursorToken({ pageSize: 3 }), [
    '/v1/cursor-token?pageSize=3',
    '/v1/cursor-token?pageSize=3&pageToken=p3',
    '/v1/cursor-token?pageSize=3&pageToken=p6',
  ]);
  const { c, targets } = client();
  const p = await c.cursorToken.cursorToken({ pageSize: 2 });
  await p.next();
  eq(targets()[1], '/v1/cursor-token?pageSize=2&pageToken=x%2Fy%20z', 'a token is percent-encoded');
});

test('cursor-item: the last id while has_more (Stripe starting_after, OpenAI after)', async () => {
  await walk('item', (c) => c.cursorItem.cursorItem(), [
    '/v1/cursor-item',
    '/v1/cursor-item?starting_after=t3',
    '/v1/cursor-item?starting_after=t6',
  ]);
  await walk('after', (c) => c.afterId.afterId({ limit: 3 }), [
    '/v1/after-id?limit=3',
    '/v1/after-id?limit=3&after=t3',
    '/v1/after-id?limit=3&after=t6',
  ]);
  // the last item has no id: the page's items, then the error
  const { c, seen } = client();
  const p = await c.cursorItem.cursorItem({ limit: 9 });
  eq(p.items.length, 4, 'items of the page');
  ok(p.hasNext, 'a continuation is due');
  const e = await rejects(p.next(), 'no id');
  ok(isClientError(e) && e.reason === 'malformed_response' && /has no "id"/.test(e.message), `no id: ${e}`);
  eq(seen.length, 1, 'nothing more sent');
});

test('next-url: relative to the host, then absolute on the same origin, then none', async () => {
  await walk('url', (c) => c.nextUrl.nextUrl({ PageSize: 3 }), [
    '/v1/next-url?PageSize=3',
    '/elsewhere?Page=1&PageToken=a%2Fb',
    '/v1/next-url?Page=2',
  ]);
});

test('next-url: a link off the origin is never followed', async () => {
  const evil = [
    'https://api.test:8080/v1/evil?page=2', // another scheme
    'http://evil.test:8080/v1/evil?page=2',
    'http://api.test:9090/x',
    'http://user:pw@api.test:8080/x',
    '//evil.test/x',
    'http://[::1',
  ];
  for (const url of evil) {
    const { c, seen } = client(url);
    const out: string[] = [];
    const p = await c.nextUrl.nextUrl({ PageSize: 99 });
    const e = await rejects(
      (async () => {
        for await (const t of p.iterAll()) out.push(t.id);
      })(),
      url,
    );
    eq(out, ['t1'], `${url}: the first page's items, then the error`);
    ok(
      isClientError(e) && e.reason === 'malformed_response' && /origin|does not parse/.test(e.message),
      `${url}: ${e}`,
    );
    eq(seen.length, 1, `${url}: nothing sent anywhere else`);
  }
});

test('link-header: rel="next" among several links and quoted commas, relative to the page', async () => {
  await walk('link', (c) => c.linkHeader.linkHeader({ per_page: 3 }), [
    '/v1/link-header?per_page=3',
    '/v1/link-header?page=2&per_page=3',
    '/v1/link-header?page=3&per_page=3',
  ]);
});

test('page-number: +1 until a short page; without a size until an empty page', async () => {
  await walk('page', (c) => c.pageNumber.pageNumber({ per_page: 3 }), [
    '/v1/page-number?per_page=3',
    '/v1/page-number?per_page=3&page=2',
    '/v1/page-number?per_page=3&page=3',
  ]);
  const { c, targets } = client();
  const out: string[] = [];
  for await (const t of (await c.pageNumber.pageNumber({ page: 2 })).iterAll()) out.push(t.id);
  eq(out, ['t4', 't5', 't6', 't7'], 'from page 2');
  eq(targets(), ['/v1/page-number?page=2', '/v1/page-number?page=3', '/v1/page-number?page=4'], 'unsized');
});

test('offset: + the items seen until a short page', async () => {
  await walk('offset', (c) => c.offset.limit({ limit: 3 }), [
    '/v1/offset?limit=3',
    '/v1/offset?limit=3&offset=3',
    '/v1/offset?limit=3&offset=6',
  ]);
});

test('cursor-object: the cursor only; previous(); a repeated cursor ends', async () => {
  const { c, targets } = client();
  const p1 = await c.cursorObject.cursorObject();
  const p2 = (await p1.next())!;
  eq(p2.previousCursor as string | undefined, 'c0', 'previous cursor');
  await p2.previous();
  eq(targets(), ['/v1/cursor-object', '/v1/cursor-object?cursor=c3', '/v1/cursor-object?cursor=c0'], 'requests');
  const stuck = await c.cursorObject.cursorObject({ cursor: 'same' as CursorObjectCursor });
  const e = await rejects(stuck.next(), 'same cursor');
  ok(
    isClientError(e) &&
      e.reason === 'malformed_response' &&
      e.message.endsWith('the pages do not end: page 1 leads back to a request already sent (cursor=same)'),
    `a next cursor equal to the one sent: ${e}`,
  );
});

/** Walk with iterAll (at most 40 items, so that a loop fails instead of hanging): the items, the
 * error and the requests. */
async function endless(first: (c: Client) => Promise<Walkable>): Promise<[string[], unknown, string[]]> {
  const { c, targets } = client();
  const out: string[] = [];
  let err: unknown;
  try {
    for await (const t of (await first(c)).iterAll()) {
      out.push(t.id);
      if (out.length > 40) break;
    }
  } catch (e) {
    err = e;
  }
  return [out, err, targets()];
}

function endsWith(e: unknown, msg: string, what: string): void {
  ok(isClientError(e) && e.reason === 'malformed_response' && e.message.endsWith(msg), `${what}: ${e}`);
}

test('a repeated token ends the walk with an error, after the items', async () => {
  const [out, e, sent] = await endless((c) => c.cursorToken.cursorToken({ pageSize: 1 }));
  eq(out, ['t1', 't1'], 'the second page repeats the token');
  endsWith(
    e,
    'the pages do not end: the page leads back to a request already sent (GET http://api.test:8080/v1/cursor-token?pageSize=1&pageToken=same)',
    'repeated token',
  );
  eq(sent.length, 2, 'two requests');
});

test('a token of an earlier page ends the walk', async () => {
  const [out, e, sent] = await endless((c) => c.cursorToken.cursorToken({ pageSize: 5 }));
  eq(out, ['t1', 't1', 't2'], 'three pages');
  endsWith(
    e,
    'the pages do not end: page 3 leads back to a request already sent (GET http://api.test:8080/v1/cursor-token?pageSize=5&pageToken=a)',
    'cycle',
  );
  eq(sent.length, 3, 'three requests');
  // page by page: next() twice from the same page is not a loop
  const { c } = client();
  const p1 = await c.cursorToken.cursorToken({ pageSize: 5 });
  const p2 = (await p1.next())!;
  const again = (await p1.next())!;
  eq(again.items, p2.items, 'page 2 again');
  const p3 = (await p2.next())!;
  await rejects(p3.next(), 'cycle page by page');
});

test('empty pages, each with a new cursor, end the walk after 10 in a row', async () => {
  const [out, e, sent] = await endless((c) => c.cursorToken.cursorToken({ pageSize: 4 }));
  eq(out, [], 'no items');
  endsWith(e, 'the pages do not end: 10 empty pages in a row, each with a next page', 'empty tokens');
  eq(sent.length, 10, 'ten requests');
  // OpenCode's cursor object
  const [o, e2, s2] = await endless((c) => c.cursorObject.cursorObject({ cursor: 'e0' as CursorObjectCursor }));
  eq(o, [], 'no items');
  endsWith(e2, 'the pages do not end: 10 empty pages in a row, each with a next page', 'empty cursor object');
  eq(s2.length, 10, 'ten requests');
});

test('the same page again (a page number ignored) ends the walk', async () => {
  const [out, e, sent] = await endless((c) => c.pageNumber.pageNumber({ page: 100 }));
  eq(out, ['t1', 't2', 't1', 't2'], 'both pages delivered');
  endsWith(e, 'the pages do not end: page 2 is the same as the page before it', 'same page');
  eq(sent, ['/v1/page-number?page=100', '/v1/page-number?page=101'], 'two requests');
});

test('an error status on the first page; another on a later one', async () => {
  const c = new Client({ baseUrl: `${BASE}/nowhere`, handler: async (req) => serve(req, '') });
  const e = await rejects(c.cursorItem.cursorItem(), '404');
  ok(isClientError(e) && e.reason === 'unexpected_status' && e.status === 404, `404: ${e}`);
  let n = 0;
  const d = new Client({
    baseUrl: BASE,
    maxRetries: 0, // the 500 answered once
    handler: async (req) => (n++ ? new Response('gone', { status: 500 }) : serve(req, '')),
  });
  const out: string[] = [];
  const e2 = await rejects(
    (async () => {
      for await (const t of (await d.offset.limit({ limit: 3 })).iterAll()) out.push(t.id);
    })(),
    '500',
  );
  eq(out, ['t1', 't2', 't3'], 'the first page, then the error');
  ok(isClientError(e2) && e2.status === 500, `500: ${e2}`);
});

test('Link header parsing (as sdkrt_link_find)', () => {
  const cases: [string | null, string, string | undefined][] = [
    ['<https://a/?page=2>; rel="next", <https://a/?page=9>; rel="last"', 'next', 'https://a/?page=2'],
    ['<https://a/?page=2>; rel="next", <https://a/?page=9>; rel="last"', 'last', 'https://a/?page=9'],
    ['<u1>; rel=prev, <u2>; rel=next', 'next', 'u2'],
    ['<u1>; title="x, rel=next; y"; rel=prev, <u2>; Rel="NEXT"', 'next', 'u2'],
    ['<u1>; rel="prev next"', 'next', 'u1'],
    ['<u1>; rel="nextpage"', 'next', undefined],
    ['<u1>; title="a\\"b"; rel=next', 'next', 'u1'],
    ['garbage, <u3>;rel=next', 'next', 'u3'],
    ['<u1>; rel=prev', 'next', undefined],
    ['<unterminated; rel=next', 'next', undefined],
    ['', 'next', undefined],
    [null, 'next', undefined],
  ];
  for (const [v, rel, want] of cases) eq(findLink(v, rel), want, `${v} ${rel}`);
});

await run('pages');
