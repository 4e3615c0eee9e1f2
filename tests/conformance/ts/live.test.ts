// The generated OpenCode TypeScript SDK against the real server (started by ts-live.sh): sessions,
// every page of sessions and messages both ways, prompt admission with resume: false, durable
// events resumed with an explicit `after`, a tagged 404, and a 401 for a wrong password.
import {
  Client,
  isClientError,
  isSessionNotFoundError,
  isUnauthorizedError,
  type CursorPage,
  type SessionID,
} from '../opencode/src/index.js';
import { eq, ok, rejects, run, test } from './harness.js';

declare const process: { env: Record<string, string | undefined> };
const baseUrl = process.env['SDKC_OPENCODE_URL']!;
const password = process.env['OPENCODE_SERVER_PASSWORD']!;
const client = new Client({ baseUrl, credentials: [{ username: 'opencode', password }] });

async function walk<T, C extends string>(first: CursorPage<T, C>, dir: "next" | "previous"): Promise<CursorPage<T, C>[]> {
  const pages = [first];
  for (let p = await first[dir](); p; p = await p[dir]()) pages.push(p);
  return pages;
}

let sessionID: SessionID;

test('sessions: create, then every page forwards and back', async () => {
  const created: string[] = [];
  for (let i = 0; i < 3; i++) created.push((await client.session.create()).id);
  sessionID = created[2] as SessionID;
  ok(created.every((id) => id.startsWith('ses')), `ids ${created}`);
  const first = await client.session.list({ limit: 1 });
  const forward = await walk(first, 'next');
  const ids = forward.flatMap((p) => p.items.map((s) => s.id as string));
  // continuations send the cursor only; this server then pages by its default size
  ok(forward.length >= 2 && forward[0]!.items.length === 1, `pages of ${forward.map((p) => p.items.length)}`);
  eq(new Set(ids).size, ids.length, 'no session twice');
  ok(created.every((id) => ids.includes(id)), 'every created session listed');
  // this server ends with an empty page without cursors: walk back from the last full one
  const back = await walk(forward.filter((p) => p.items.length > 0).pop()!, 'previous');
  const backIds = back.flatMap((p) => p.items.map((s) => s.id as string));
  eq(new Set(backIds).size, backIds.length, 'no session twice backwards');
  eq([...backIds].sort(), [...ids].sort(), 'the same sessions backwards');
  const all: string[] = [];
  for await (const s of first.iterAll()) all.push(s.id);
  eq(all, ids, 'iterAll');
});

test('prompt admission (resume: false), messages pages, durable events resumed with after', async () => {
  const admitted = await client.session.prompt({ sessionID, prompt: { text: 'Say hello.' }, resume: false });
  ok(JSON.stringify(admitted).includes('msg'), `admitted ${JSON.stringify(admitted)}`);
  const msgs = await client.session.messages({ sessionID, limit: 1 });
  const forward = await walk(msgs, 'next');
  const n = forward.reduce((k, p) => k + p.items.length, 0);
  console.log(`messages: ${n} in ${forward.length} pages`);
  let last = -1;
  const types: string[] = [];
  for await (const ev of client.session.events({ sessionID }, { timeout: 5000 })) {
    types.push(ev.type);
    if (ev.durable) last = ev.durable.seq;
    if (ev.type === 'session.next.prompt.admitted') break; // closes the connection
  }
  ok(types.includes('session.next.prompt.admitted') && last >= 1, `events ${types} last ${last}`);
  // resuming after the last sequence seen replays nothing up to it; silence ends with a timeout
  const resumed = client.session.events({ sessionID, after: String(last) }, { timeout: 1500 });
  try {
    for await (const ev of resumed) ok(!ev.durable || ev.durable.seq > last, `replayed seq ${ev.durable?.seq}`);
  } catch (e) {
    ok(isClientError(e) && e.reason === 'timeout', `idle end: ${e}`);
  }
});

test('tagged 404 and a wrong password', async () => {
  const e = await rejects(client.session.get({ sessionID: 'ses_does_not_exist' as SessionID }), 'get');
  ok(isSessionNotFoundError(e) && e.status === 404, `404: ${e}`);
  const wrong = new Client({ baseUrl, credentials: [{ username: 'opencode', password: 'wrong' }] });
  const u = await rejects(wrong.session.list(), 'wrong password');
  ok(isUnauthorizedError(u) && u.status === 401, `401: ${u}`);
});

await run('opencode-live');
