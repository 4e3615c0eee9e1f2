// The @opencode-ai/sdk v2 client in the concurrency benchmark (bench/run.sh --only concurrency):
// one node process holding many streams or calls at once, as bench/concurrency.c does in C.
//   node concurrency.mjs streams BASE N PER TAG   N x client.v2.session.events, PER events each
//                                                 (session ses_hold<TAG>_PER: the server holds
//                                                 them until /bench/release, sent once all N
//                                                 are open)
//   node concurrency.mjs unary BASE N             N x client.v2.session.list({ limit: 100 }) at once
// A stream is open when its response head arrived (a fetch wrapper sees it). Prints the same key=value line as the C
// contestant (CPU from process.cpuUsage, RSS from memoryUsage and resourceUsage().maxRSS).
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dir = process.env.SDKC_BENCH_NODE;
if (!dir) throw new Error("SDKC_BENCH_NODE is not set");
const { createOpencodeClient } = await import(
  pathToFileURL(join(dir, "node_modules/@opencode-ai/sdk/dist/v2/client.js")).href
);

const [mode, baseUrl, nArg, perArg, tag] = process.argv.slice(2);
const n = Number(nArg);
const streaming = mode === "streams";
const client = createOpencodeClient({
  baseUrl,
  fetch: async (req) => {
    const r = await fetch(req);
    if (streaming && r.status === 200) markOpened();
    return r;
  },
});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const kib = (bytes) => Math.round(bytes / 1024);

const rssBase = kib(process.memoryUsage().rss);
const t0 = performance.now();
let opened = 0;
let tOpen = 0;
let cpuOpen = 0;
let rssOpen = 0;
let events = 0;
let release;
const markOpened = () => {
  if (++opened === n) {
    tOpen = performance.now();
    cpuOpen = cpu();
    rssOpen = kib(process.memoryUsage().rss);
    if (streaming) release = releaseGroup();
  }
};
const releaseGroup = async () => {
  const r = await fetch(`${baseUrl}/bench/release?group=ses_hold${tag}`);
  const body = await r.text();
  if (body !== `{"released":${n}}`) throw new Error(`release: ${body}`);
};

if (mode === "streams") {
  const per = Number(perArg);
  const session = `ses_hold${tag}_${per}`;
  const one = async () => {
    const r = await client.v2.session.events({ sessionID: session }, { sseMaxRetryAttempts: 0 });
    let got = 0;
    for await (const ev of r.stream) {
      if (ev === undefined || ev === null) throw new Error("empty event");
      got++;
    }
    if (got !== per) throw new Error(`${got} events, expected ${per}`);
    events += got;
  };
  await Promise.all(Array.from({ length: n }, one));
  await release;
} else if (mode === "unary") {
  const one = async () => {
    const r = await client.v2.session.list({ limit: 100 });
    if (!r.data || r.data.data.length !== 100) throw new Error(`no page (${r.response?.status})`);
    events++;
    markOpened();
  };
  await Promise.all(Array.from({ length: n }, one));
} else {
  throw new Error(`unknown mode ${mode}`);
}
const tEnd = performance.now();
const cpuEnd = cpu();
const rssPeak = process.resourceUsage().maxRSS;
console.log(
  `mode=${mode} n=${n} events=${events}` +
    ` open_s=${((tOpen - t0) / 1000).toFixed(4)} cpu_open_s=${cpuOpen.toFixed(4)}` +
    ` cpu_events_s=${(cpuEnd - cpuOpen).toFixed(4)} rss_base_kib=${rssBase} rss_open_kib=${rssOpen}` +
    ` rss_peak_kib=${rssPeak} seconds=${((tEnd - t0) / 1000).toFixed(4)}`,
);
