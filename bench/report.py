#!/usr/bin/env python3
"""bench/report.py - turns bench/run.sh's raw rows into the printed table and the JSON file.

usage: report.py RAW.tsv OUT.json --runs N --quick 0|1 --commit SHA --versions k=v,...
RAW rows: section, contestant, count, wall s, user s, sys s, peak RSS KiB, ok|fail|na, note.
Medians of every measured run; no figure is ever filled in for a row that did not run."""
import argparse
import json
import os
import platform
import statistics
import sys
import time

SECTIONS = [
    ("generation", "1. generation: full OpenCode contract (479 KB, 188 ops), one run = one file", "sdkc"),
    ("unary-canned", "2. unary: v2.session.list limit=100 (~37 KB) x N, canned server", "floor"),
    ("unary-real", "3. unary: v2.session.list limit=100 x N, real OpenCode server (informative)", "floor"),
    ("sse-small", "4a. SSE: small durable events, canned server", "floor"),
    ("sse-large", "4b. SSE: small durable events, canned server", "floor"),
    ("pages-small", "5a. pagination: pages of 100 through the cursor, canned server", "floor"),
    ("pages-large", "5b. pagination: pages of 100 through the cursor, canned server", "floor"),
]


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 9:
                continue
            sec, who, count, wall, user, sys_, rss, status, note = parts[:9]
            rows.append(dict(section=sec, who=who, count=int(count), status=status, note=note,
                             wall=float(wall) if wall else None,
                             cpu=float(user) + float(sys_) if user else None,
                             rss=int(rss) if rss else None))
    return rows


def summarize(rows):
    out = {}
    for r in rows:
        sec = out.setdefault(r["section"], {})
        c = sec.setdefault(r["who"], dict(count=r["count"], runs=[], failures=[], note=""))
        if r["status"] == "ok":
            c["runs"].append(dict(wall_s=r["wall"], cpu_s=round(r["cpu"], 3), rss_kib=r["rss"]))
        elif r["status"] == "fail":
            c["failures"].append(r["note"])
        else:
            c["note"] = r["note"]
    order = {"sdkc": 0, "floor": 0, "sdkc-ts": 0.5, "floor-fast": 0.5, "sdk": 1, "hey-api": 1, "ts": 1.5,
             "js": 2, "openapi-typescript": 2}
    for key in list(out):
        out[key] = dict(sorted(out[key].items(), key=lambda kv: order.get(kv[0], 9)))
    for sec in out.values():
        for c in sec.values():
            runs = c["runs"]
            if runs:
                c["median_wall_s"] = statistics.median(x["wall_s"] for x in runs)
                c["median_cpu_s"] = statistics.median(x["cpu_s"] for x in runs)
                c["median_rss_mib"] = round(statistics.median(x["rss_kib"] for x in runs) / 1024, 1)
                n = c["count"]
                c["cpu_per_op_us"] = round(c["median_cpu_s"] / n * 1e6, 2)
                c["ops_per_s_wall"] = round(n / c["median_wall_s"], 1) if c["median_wall_s"] > 0 else None
                c["ops_per_cpu_s"] = round(n / c["median_cpu_s"], 1) if c["median_cpu_s"] > 0 else None
            if c["failures"] and not c["note"]:
                c["note"] = c["failures"][0]
    return out


def load_callgrind(path):
    out = {}
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 4 and parts[3]:
                out.setdefault(parts[0], {})[parts[1]] = dict(count=int(parts[2]), instructions=int(parts[3]))
    return out


def ratio(a, b):
    return a / b if a and b else None


def goals(s):
    """The issue's goals, each with the figures it was judged on; None where a side is missing."""
    g = []

    def get(sec, who, key):
        return s.get(sec, {}).get(who, {}).get(key)

    sd_w, hey_w = get("generation", "sdkc", "median_wall_s"), get("generation", "hey-api", "median_wall_s")
    r = ratio(hey_w, sd_w)
    g.append(dict(goal="sdkc generate >= 100x faster than hey-api (wall)", value=r and round(r, 1),
                  met=None if r is None else r >= 100))
    r = ratio(get("generation", "hey-api", "median_cpu_s"), get("generation", "sdkc", "median_cpu_s"))
    g.append(dict(goal="sdkc generate >= 100x less CPU than hey-api", value=r and round(r, 1),
                  met=None if r is None else r >= 100))
    rss = get("generation", "sdkc", "median_rss_mib")
    g.append(dict(goal="sdkc generate peak RSS <= 30 MiB", value=rss, met=None if rss is None else rss <= 30))
    r = ratio(get("unary-canned", "sdk", "cpu_per_op_us"), get("unary-canned", "floor", "cpu_per_op_us"))
    g.append(dict(goal="C SDK CPU per call <= 1.2x the floor (canned)", value=r and round(r, 2),
                  met=None if r is None else r <= 1.2))
    r = ratio(get("unary-canned", "sdk", "ops_per_s_wall"), get("unary-canned", "js", "ops_per_s_wall"))
    g.append(dict(goal="C SDK calls/s >= 5x the JS SDK (canned, wall)", value=r and round(r, 2),
                  met=None if r is None else r >= 5))
    r = ratio(get("unary-canned", "sdk", "ops_per_cpu_s"), get("unary-canned", "js", "ops_per_cpu_s"))
    g.append(dict(goal="C SDK calls per CPU-second >= 5x the JS SDK (canned)", value=r and round(r, 2),
                  met=None if r is None else r >= 5))
    r = ratio(get("unary-canned", "sdk", "cpu_per_op_us"), get("unary-canned", "floor-fast", "cpu_per_op_us"))
    g.append(dict(goal="C SDK CPU per call <= 1.2x the fast floor (canned, no tree)", value=r and round(r, 2),
                  met=None if r is None else r <= 1.2))
    r = ratio(get("sse-large", "sdk", "cpu_per_op_us"), get("sse-large", "js", "cpu_per_op_us"))
    g.append(dict(goal="C SDK CPU per SSE event <= 0.5x the JS SDK (large run)", value=r and round(r, 2),
                  met=None if r is None else r <= 0.5))
    r = ratio(get("sse-large", "sdk", "cpu_per_op_us"), get("sse-large", "floor-fast", "cpu_per_op_us"))
    g.append(dict(goal="C SDK CPU per SSE event <= 1.2x the fast floor (large run)", value=r and round(r, 2),
                  met=None if r is None else r <= 1.2))
    # sdkc's TypeScript SDK and its generator against the official ones (issue 22)
    r = ratio(get("generation", "hey-api", "median_cpu_s"), get("generation", "sdkc-ts", "median_cpu_s"))
    g.append(dict(goal="sdkc generate --lang ts >= 10x less CPU than hey-api", value=r and round(r, 1),
                  met=None if r is None else r >= 10))
    for sec, what in (("unary-canned", "call"), ("sse-large", "SSE event"), ("pages-large", "page item")):
        r = ratio(get(sec, "ts", "cpu_per_op_us"), get(sec, "js", "cpu_per_op_us"))
        g.append(dict(goal=f"TS SDK CPU per {what} <= the JS SDK's ({sec})", value=r and round(r, 2),
                      met=None if r is None else r <= 1))
    for kind in ("sse", "pages"):
        a, b = get(kind + "-small", "sdk", "median_rss_mib"), get(kind + "-large", "sdk", "median_rss_mib")
        # "flat": ten times the items may cost at most 10% + 2 MiB more peak RSS.
        n_small = s.get(kind + "-small", {}).get("sdk", {}).get("count", "?")
        n_large = s.get(kind + "-large", {}).get("sdk", {}).get("count", "?")
        g.append(dict(goal=f"C SDK {kind} peak RSS flat ({n_small} -> {n_large})",
                      value=None if a is None or b is None else f"{a} -> {b} MiB",
                      met=None if a is None or b is None else b <= a * 1.1 + 2))
    # The TypeScript SDK's stream by the same rule, the official client's figures beside (issue 28).
    a, b = get("sse-small", "ts", "median_rss_mib"), get("sse-large", "ts", "median_rss_mib")
    ja, jb = get("sse-small", "js", "median_rss_mib"), get("sse-large", "js", "median_rss_mib")
    n_small = s.get("sse-small", {}).get("ts", {}).get("count", "?")
    n_large = s.get("sse-large", {}).get("ts", {}).get("count", "?")
    g.append(dict(goal=f"TS SDK sse peak RSS flat ({n_small} -> {n_large})",
                  value=None if a is None or b is None else
                  f"{a} -> {b} MiB" + ("" if ja is None or jb is None else f" (JS {ja} -> {jb})"),
                  met=None if a is None or b is None else b <= a * 1.1 + 2))
    return g


CC_WHO = {"async": "async SDK, 1 thread", "threads": "blocking SDK, thread/stream",
          "js": "@opencode-ai/sdk (node)"}


def load_concurrency(path):
    """bench/run.sh's concurrency rows: who, kind (streams|unary), n, per, ok|fail|na, then the
    client's key=value line (ok) or why. Medians over the runs of each (who, kind, n)."""
    rows = {}
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 6:
                continue
            who, kind, n, per, status, rest = parts[:6]
            r = rows.setdefault((kind, int(n), who), dict(who=who, kind=kind, n=int(n), per=int(per),
                                                           runs=[], failures=[], note=""))
            if status == "ok":
                kv = dict(x.split("=", 1) for x in rest.split() if "=" in x)
                r["runs"].append({k: (v if k in ("mode", "api") else float(v)) for k, v in kv.items()})
            elif status == "fail":
                r["failures"].append(rest)
            else:
                r["note"] = rest
    out = []
    for (kind, n, who), r in sorted(rows.items(), key=lambda kv: (kv[0][0] != "streams", kv[0][1],
                                                                   list(CC_WHO).index(kv[0][2]))):
        runs = r.pop("runs")
        if runs:
            med = lambda f: statistics.median(f(x) for x in runs)
            base = med(lambda x: x["rss_base_kib"])
            r["open_s"] = round(med(lambda x: x["open_s"]), 4)
            r["seconds"] = round(med(lambda x: x["seconds"]), 4)
            if kind == "streams":
                r["events"] = int(med(lambda x: x["events"]))
                r["cpu_per_event_us"] = round(med(lambda x: x["cpu_events_s"] / x["events"] * 1e6), 2)
                r["cpu_open_per_stream_us"] = round(med(lambda x: x["cpu_open_s"] / n * 1e6), 1)
            else:
                r["cpu_per_call_us"] = round(med(lambda x: x["cpu_open_s"] / n * 1e6), 1)
            r["rss_open_per_stream_kib"] = round(med(lambda x: (x["rss_open_kib"] - x["rss_base_kib"]) / n), 1)
            r["rss_peak_per_stream_kib"] = round(
                med(lambda x: (max(x["rss_peak_kib"], x["rss_open_kib"]) - x["rss_base_kib"]) / n), 1)
            r["rss_base_kib"] = int(base)
            q = med(lambda x: x["api_requests"])
            r["connects_per_call"] = round(med(lambda x: x["api_connections"]) / q, 3) if q else None
            r["runs"] = len(runs)
            r["api"] = runs[0].get("api")
        if r["failures"] and not r["note"]:
            r["note"] = r["failures"][0]
        out.append(r)
    return out


def concurrency_goals(cc):
    def get(kind, n, who, key):
        for r in cc:
            if r["kind"] == kind and r["n"] == n and r["who"] == who:
                return r.get(key)
        return None
    g = []
    ok = get("streams", 10000, "async", "cpu_per_event_us")
    g.append(dict(goal="10,000 streams on one thread (async SDK)", value=None if ok is None else "ran",
                  met=None if ok is None else True))
    r = ratio(ok, get("streams", 1, "async", "cpu_per_event_us"))
    g.append(dict(goal="async CPU per event at 10,000 streams <= 1.5x 1 stream", value=r and round(r, 2),
                  met=None if r is None else r <= 1.5))
    v = get("streams", 10000, "async", "rss_open_per_stream_kib")
    g.append(dict(goal="async RSS per idle open stream <= 32 KiB (10,000)", value=v,
                  met=None if v is None else v <= 32))
    r = ratio(get("streams", 1000, "js", "cpu_per_event_us"), get("streams", 1000, "async", "cpu_per_event_us"))
    g.append(dict(goal="async CPU per event >= 5x less than node (1,000 streams)", value=r and round(r, 2),
                  met=None if r is None else r >= 5))
    return g


def concurrency_table(cc):
    lines = ["6. concurrency: SSE streams open at once (events spread over them), and unary calls at once;"
             " canned epoll server",
             f"  {'contestant':<28}{'kind':>8}{'N':>7}{'ev/str':>8}{'CPU/ev':>10}{'CPU/open':>12}"
             f"{'RSS/str':>11}{'peak/str':>11}{'open all':>10}{'conn/call':>10}"]
    for r in cc:
        who = CC_WHO.get(r["who"], r["who"]) + (" (sdkrt)" if r.get("api") == "sdkrt" else "")
        head = f"  {who:<28}{r['kind']:>8}{r['n']:>7}{(r['per'] or '-'):>8}"
        if "open_s" not in r:
            lines.append(f"{head}  {r['note'] or 'no successful run'}")
            continue
        per_ev = r.get("cpu_per_event_us", r.get("cpu_per_call_us"))
        per_open = r.get("cpu_open_per_stream_us")
        lines.append(f"{head}{per_ev:>8.1f}us{'-' if per_open is None else f'{per_open:.1f}us':>12}"
                     f"{r['rss_open_per_stream_kib']:>8.1f}KiB{r['rss_peak_per_stream_kib']:>8.1f}KiB"
                     f"{r['open_s']:>9.3f}s{fmt(r['connects_per_call'], '.3f'):>10}"
                     + (f"  ({len(r['failures'])} failed)" if r["failures"] else ""))
    lines.append("  CPU/ev: CPU after every stream was open / events (unary: all CPU / calls); CPU/open: CPU of the"
                 " open phase / streams; RSS/str: resident set with every stream open and idle, above the"
                 " baseline, / N; peak/str: the same at the peak; open all: until every head arrived (unary:"
                 " every call done)")
    lines.append("")
    return "\n".join(lines)


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def table(s, runs):
    lines = []
    head = f"  {'contestant':<20}{'count':>9}{'wall':>9}{'CPU':>10}{'CPU/op':>11}{'ops/s':>11}{'RSS':>9}  vs base (CPU)"
    for key, title, base in SECTIONS:
        if key not in s:
            continue
        sec = s[key]
        n = next(iter(sec.values()))["count"]
        lines.append(f"{title}  [N={n}, medians of {runs}]")
        lines.append(head)
        b = sec.get(base, {})
        for who, c in sec.items():
            if "median_cpu_s" not in c:
                lines.append(f"  {who:<20}{c['count']:>9}  {c['note'] or 'no successful run'}")
                continue
            vs = ""
            if who != base and b.get("median_cpu_s"):
                vs = f"{c['median_cpu_s'] / b['median_cpu_s']:.2f}x {base}"
            unit, per = ("ms", c["cpu_per_op_us"] / 1000) if c["cpu_per_op_us"] >= 1000 else ("us", c["cpu_per_op_us"])
            per_op = f"{per:>8.1f} {unit}" if c["count"] > 1 else f"{'-':>11}"
            rate = fmt(c["ops_per_s_wall"], ".0f") if c["count"] > 1 else "-"
            lines.append(f"  {who:<20}{c['count']:>9}{c['median_wall_s']:>8.2f}s{c['median_cpu_s']:>8.3f}s"
                         f"{per_op}{rate:>11}"
                         f"{c['median_rss_mib']:>6.1f}MiB  {vs}"
                         + (f"  ({len(c['failures'])} failed)" if c["failures"] else ""))
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("out")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", default="0")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--versions", default="")
    ap.add_argument("--callgrind", default=None, help="TSV: workload, contestant, count, instructions")
    ap.add_argument("--concurrency", default=None, help="TSV of bench/run.sh's concurrency section")
    a = ap.parse_args()
    s = summarize(load(a.raw))
    ir = load_callgrind(a.callgrind)
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    meta = dict(date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), host=platform.node(),
                cpu=cpu, cores=os.cpu_count(), loadavg=os.getloadavg(), kernel=platform.release(),
                commit=a.commit, runs=a.runs, quick=a.quick == "1",
                versions=dict(kv.split("=", 1) for kv in a.versions.split(",") if "=" in kv),
                method="alternating runs; medians of wall, CPU (user+sys) and peak RSS from "
                       "getrusage of the client process (bench_rusage); servers not counted")
    g = goals(s)
    r = ratio(ir.get("unary-canned", {}).get("sdk", {}).get("instructions"),
              ir.get("unary-canned", {}).get("floor", {}).get("instructions"))
    g.insert(3, dict(goal="C SDK instructions per call <= 1.2x the floor (callgrind)",
                     value=r and round(r, 3), met=None if r is None else r <= 1.2))
    for w, what in (("unary-canned", "call"), ("sse", "SSE event")):
        r = ratio(ir.get(w, {}).get("sdk", {}).get("instructions"),
                  ir.get(w, {}).get("floor-fast", {}).get("instructions"))
        g.append(dict(goal=f"C SDK instructions per {what} <= 1.2x the fast floor (callgrind)",
                      value=r and round(r, 3), met=None if r is None else r <= 1.2))
    print(f"sdkc benchmarks  {meta['date']}  {meta['cpu']}, {meta['cores']} cores, load {meta['loadavg'][0]:.1f}"
          f"  commit {meta['commit']}" + ("  (QUICK: small counts)" if meta["quick"] else ""))
    print()
    print(table(s, a.runs))
    cc = load_concurrency(a.concurrency)
    if cc:
        print(concurrency_table(cc))
        g += concurrency_goals(cc)
    if ir:
        print("instructions (callgrind; unaffected by load)")
        for w, cs in ir.items():
            base = cs.get("floor", {}).get("instructions")
            for who, c in cs.items():
                vs = f"  {c['instructions'] / base:.3f}x floor" if base and who != "floor" else ""
                print(f"  {w:<14}{who:<11}{c['count']:>9} x {c['instructions'] / 1e6:>10.1f} M"
                      f"  {c['instructions'] / c['count'] / 1e3:>10.1f} k/op{vs}")
        print()
    print("goals" + ("  (QUICK run: small counts, indicative only; judge goals on a full run)" if meta["quick"] else ""))
    for x in g:
        verdict = {True: "met", False: "MISSED", None: "not measured"}[x["met"]]
        print(f"  {x['goal']:<58} {fmt(x['value'], '') if not isinstance(x['value'], str) else x['value']:>18}  {verdict}")
    with open(a.out, "w") as f:
        json.dump(dict(meta=meta, sections=s, instructions=ir, concurrency=cc, goals=g), f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
