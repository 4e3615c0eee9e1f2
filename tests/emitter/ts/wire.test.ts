// Wire rules of the TypeScript runtime, the same as libsdkrt's (tests/runtime/test_wire.c):
// parameter styles, percent-encoding, and request bodies by media type through a generated SDK
// (tests/emitter/data/inputs.yaml).
import { Client, type TreeId } from '../inputs/src/index.js';
import { encodeBody, serializeParam, SseParser, type ParamIn, type ParamStyle } from '../inputs/src/runtime.js';
import { eq, ok, rejects, run, test } from './harness.js';

type Row = [ParamIn, ParamStyle, boolean, string | null, string | null, string | null, string | null];
// location, style, explode; then the text of "", "blue", ["blue","black","brown"] and
// {"R":100,"G":200,"B":150} (null: not defined by OpenAPI, not checked)
const table: Row[] = [
  ['path', 'matrix', false, ';color', ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
  ['path', 'matrix', true, ';color', ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
  ['path', 'label', false, '.', '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
  ['path', 'label', true, '.', '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
  ['query', 'form', false, 'color=', 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
  ['query', 'form', true, 'color=', 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
  ['path', 'simple', false, null, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
  ['path', 'simple', true, null, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
  ['header', 'simple', false, '', 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
  ['header', 'simple', true, '', 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
  ['query', 'spaceDelimited', false, null, null, 'color=blue%20black%20brown', 'color=R%20100%20G%20200%20B%20150'],
  ['query', 'pipeDelimited', false, null, null, 'color=blue%7Cblack%7Cbrown', 'color=R%7C100%7CG%7C200%7CB%7C150'],
  ['query', 'deepObject', true, null, null, null, 'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150'],
  ['cookie', 'form', false, 'color=', 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
  ['cookie', 'form', true, 'color=', 'color=blue', 'color=blue; color=black; color=brown', 'R=100; G=200; B=150'],
];

test('parameter styles: the OpenAPI table', () => {
  const values: unknown[] = ['', 'blue', ['blue', 'black', 'brown'], { R: 100, G: 200, B: 150 }];
  for (const [where, style, explode, ...want] of table)
    want.forEach((w, i) => {
      if (w !== null)
        eq(serializeParam('color', where, style, explode, false, values[i]), w, `${where} ${style} ${explode} #${i}`);
    });
});

test('parameter values: percent-encoding, scalars, deepObject, refused styles', () => {
  const ser = (where: ParamIn, style: ParamStyle, explode: boolean, reserved: boolean, v: unknown) =>
    serializeParam('k y', where, style, explode, reserved, v);
  eq(ser('query', 'form', false, false, ['a,b', 'c&d']), 'k%20y=a%2Cb,c%26d', 'delimiters kept');
  eq(ser('query', 'form', true, false, 'é/?#'), 'k%20y=%C3%A9%2F%3F%23', 'utf-8');
  eq(ser('query', 'form', true, true, "a/b?c:d@e!$&'()*+,;=%41#%zz"), "k%20y=a/b?c:d@e!$&'()*+,;=%41%23%25zz", 'allowReserved');
  eq(ser('path', 'simple', false, false, ['a/b', '..']), 'a%2Fb,..', 'one path segment');
  eq(ser('path', 'matrix', false, false, 'x;y'), ';k%20y=x%3By', 'matrix');
  eq(ser('header', 'simple', false, false, ['a b', 'é']), 'a b,é', 'headers unencoded');
  eq(ser('query', 'form', false, false, [1, 2.5, 100.0, true, false]), 'k%20y=1,2.5,100,true,false', 'scalars');
  eq(ser('query', 'form', true, false, null), '', 'null');
  eq(ser('query', 'form', true, false, []), '', 'empty array');
  eq(ser('query', 'deepObject', true, false, { a: { b: 1 }, c: ['x', 'y'], n: null }),
    'k%20y%5Ba%5D%5Bb%5D=1&k%20y%5Bc%5D=x&k%20y%5Bc%5D=y', 'deepObject');
  eq(ser('query', 'form', true, false, [{ a: 1 }]), 'k%20y=%7B%22a%22%3A1%7D', 'nested JSON');
  let threw = 0;
  for (const [w, s] of [['header', 'label'], ['path', 'deepObject'], ['path', 'form']] as [ParamIn, ParamStyle][]) {
    try {
      ser(w, s, true, false, 'x');
    } catch (e) {
      threw += e instanceof TypeError ? 1 : 0;
    }
  }
  eq(threw, 3, 'styles a location does not define');
});

const dec = new TextDecoder();

test('bodies: JSON, form (with encodings), text, binary, multipart', async () => {
  eq(await encodeBody('application/vnd.x+json', { a: [1] }), ['{"a":[1]}', 'application/vnd.x+json'], 'json');
  eq(await encodeBody('application/x-www-form-urlencoded', { name: 'a b', tags: ['x', 'y'], skip: undefined, meta: { k: 1 } },
    { meta: ['application/json', undefined, false, false], tags: [undefined, 'pipeDelimited', false, false] }),
    ['name=a%20b&tags=x%7Cy&meta=%7B%22k%22%3A1%7D', 'application/x-www-form-urlencoded'], 'form');
  eq(await encodeBody('text/plain', 'hi'), ['hi', 'text/plain'], 'text');
  eq(await encodeBody('text/plain', { a: 1 }), ['{"a":1}', 'text/plain'], 'text of a value');
  const [bin, binType] = await encodeBody('application/octet-stream', new Uint8Array([0, 1, 2]));
  eq([Array.from(bin as Uint8Array), binType], [[0, 1, 2], 'application/octet-stream'], 'binary');
  const [mp, mpType] = await encodeBody('multipart/form-data', {
    title: 'T', n: 2, list: ['a', 'b'], obj: { x: 1 }, none: null,
    file: new Blob(['PNG'], { type: 'image/png' }),
  });
  const boundary = mpType.split('boundary=')[1]!;
  ok(/^sdkrt-[0-9a-f]{24}$/.test(boundary), `boundary ${boundary}`);
  const d = `--${boundary}\r\nContent-Disposition: form-data; name=`;
  eq(dec.decode(mp as Uint8Array),
    `${d}"title"\r\n\r\nT\r\n${d}"n"\r\n\r\n2\r\n${d}"list"\r\n\r\na\r\n${d}"list"\r\n\r\nb\r\n` +
    `${d}"obj"\r\nContent-Type: application/json\r\n\r\n{"x":1}\r\n` +
    `${d}"file"; filename="file"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--${boundary}--\r\n`, 'multipart');
});

test('an SDK call: query array, header, brand, JSON body; media type choice; octet-stream', async () => {
  const seen: { url: string; method: string; headers: Headers; body: string }[] = [];
  const c = new Client({
    baseUrl: 'http://w.test',
    handler: async (req) => {
      seen.push({ url: req.url, method: req.method, headers: req.headers, body: await req.text() });
      return (req.method === 'PUT' && req.url.includes('/trees/')) || req.url.endsWith('/accounts')
        ? new Response('{"name":"n"}', { headers: { 'Content-Type': 'application/json' } })
        : new Response(null, { status: 204 });
    },
  });
  const tree = await c.trees.put({ treeId: 'tre_1' as TreeId, tags: ['a', 'b c'], mode: 'fast', 'X-Trace': 't1', body: { name: 'n' } });
  eq(tree.name, 'n', 'result');
  eq(seen[0]!.url, 'http://w.test/trees/tre_1?tags=a&tags=b%20c&mode=fast', 'url');
  eq(seen[0]!.headers.get('x-trace'), 't1', 'header parameter');
  eq(seen[0]!.body, '{"name":"n"}', 'json body');
  await c.forms.post({ name: 'x', tags: ['p'] }, { contentType: 'application/x-www-form-urlencoded' });
  eq([seen[1]!.headers.get('content-type'), seen[1]!.body], ['application/x-www-form-urlencoded', 'name=x&tags=p'], 'form alternative');
  await rejects(c.forms.post({ name: 'x' }, { contentType: 'image/png' }), 'undeclared media type');
  eq(seen.length, 2, 'nothing sent for an undeclared media type');
  await c.uploads.put({ name: 'a b', body: new Uint8Array([7]) });
  eq([seen[2]!.url, seen[2]!.headers.get('content-type'), seen[2]!.body], ['http://w.test/uploads/a%20b', 'application/octet-stream', '\u0007'], 'octet-stream');
  await c.accounts.create({ name: 'n', password: 'p', id: 'x', created: 1 } as Parameters<typeof c.accounts.create>[0]);
  eq(seen[3]!.body, '{"name":"n","password":"p"}', 'readOnly fields left out');
  await c.aws.do({ 'X-Amz-Target': 'Service.Do' });
  eq(seen[4]!.url, 'http://w.test/', 'a fragment is never sent');
});

test('SSE parser: CRLF split across feeds, comments, multi-line data, BOM, unterminated', () => {
  const p = new SseParser();
  const out = [...p.feed('\ufeff: hi\r'), ...p.feed('\ndata: a\r'), ...p.feed('\ndata:b\n\nevent: x\ndata'), ...p.feed('\n\n')];
  eq(out.map((e) => [e.event ?? null, e.data]), [[null, 'a\nb'], ['x', '']], 'events');
  eq(p.comments, 1, 'comment counted');
  eq([...p.feed('data: tail'), ...p.end()], [], 'an unfinished event is dropped');
});

await run('wire');
