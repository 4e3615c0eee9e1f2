// The sdkc TypeScript SDK contestant (node): generated/opencode-ts compiled by bench/run.sh. Same
// work as bench.mjs (@opencode-ai/sdk), bench/floor.c and the C SDK:
//   node bench-ts.mjs unary BASE N          N x client.session.list({ limit: 100 })
//   node bench-ts.mjs sse BASE SESSION N    client.session.events({ sessionID }); N events
//   node bench-ts.mjs pages BASE TOTAL      session.list pages of 100 through page.next()
// SDKC_BENCH_TS_SDK names the folder holding the compiled SDK (its index.js).
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dir = process.env.SDKC_BENCH_TS_SDK;
if (!dir) throw new Error("SDKC_BENCH_TS_SDK is not set");
const { Client } = await import(pathToFileURL(join(dir, "index.js")).href);

const [mode, baseUrl, a, b] = process.argv.slice(2);
const client = new Client({ baseUrl });
const t0 = performance.now();
let count = 0;

if (mode === "unary") {
  const n = Number(a);
  for (let i = 0; i < n; i++) {
    const page = await client.session.list({ limit: 100 });
    if (page.items.length === 0) throw new Error(`call ${i}: no items`);
  }
  count = n;
} else if (mode === "pages") {
  const total = Number(a);
  // a continuation sends the cursor only: the server's default page size (100) applies
  for await (const s of (await client.session.list({ limit: 100 })).iterAll()) {
    if (s === undefined || s === null) throw new Error("empty item");
    count++;
  }
  if (count !== total) throw new Error(`${count} items, expected ${total}`);
} else if (mode === "sse") {
  const n = Number(b);
  for await (const ev of client.session.events({ sessionID: a })) {
    if (ev === undefined || ev === null) throw new Error("empty event");
    if (++count >= n) break; // closes the connection
  }
  if (count !== n) throw new Error(`${count} events, expected ${n}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
const seconds = (performance.now() - t0) / 1000;
console.log(`mode=${mode} count=${count} seconds=${seconds.toFixed(4)}`);
