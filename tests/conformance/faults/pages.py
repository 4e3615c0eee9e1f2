#!/usr/bin/env python3
"""pages.py - `sdkc conform` page walks against small HTTP servers (http.server) for pages.yaml,
one list operation per pagination style, each over the same seven items.

usage: pages.py SDKC STYLE [WORK_DIR]
  STYLE is a style name of docs/pagination.md (cursor-object, cursor-token, cursor-item,
  next-url, link-header, page-number, offset). Three servers are run in turn against that
  style's operation: a faithful one (no deviation, the walk passes), one whose second page
  repeats the last item of the first (a `pagination` deviation, rule `repeat`), one whose
  second page starts one item late (a `pagination` deviation, rule `loss`), and one that fails
  the second page with a 500 (that answer's deviations; the walk a skip, never a pass). For the
  styles whose server names the next page (cursor-object, cursor-token, next-url, link-header),
  two whose pages would never end (a `pagination` deviation, rule `endless`): one that answers
  empty pages each with a new continuation after the first page, one whose third page leads
  back to the second.
"""
import http.server
import json
import os
import subprocess
import sys
import threading
import urllib.parse

# Issue 26's generated requests (examples, coverage, negative) and their checks are tested by
# phases.py; this server accepts much that its contract forbids, so they are off here.
NO_PHASES = ["--max-examples", "0", "--checks",
             "all,-positive_data_acceptance,-missing_required_header,-unsupported_method"]


CONTRACT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pages.yaml")
ITEMS = [{"id": "i%d" % i, "name": "item %d" % i} for i in range(1, 8)]
OPS = {"cursor-object": "listObject", "cursor-token": "listToken", "cursor-item": "listAfter",
       "next-url": "listNextUrl", "link-header": "listLinked", "page-number": "listNumbered",
       "offset": "listOffset"}


def make_handler(fault):
    # the start of a continuation: faithful, one item early (repeat) or one item late (loss)
    shift = {"faithful": 0, "repeat": -1, "loss": 1, "cut": 0, "empty": 0, "cycle": 0}[fault]

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, body, headers=()):
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            q = dict(urllib.parse.parse_qsl(url.query))
            later = set(q) & {"cursor", "pageToken", "starting_after", "from"} or \
                int(q.get("page", 1)) > 1 or int(q.get("offset", 0)) > 0
            if fault == "cut" and later:
                data = b'{"message": "the store is down"}'
                self.send_response(500)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                return self.wfile.write(data)
            size = int(q.get("limit") or q.get("per_page") or 3)
            n = len(ITEMS)

            def window(start):
                return ITEMS[start:start + size]

            def cont(start):
                """where the page after the one at start begins, as this server says"""
                return start + size + shift

            def after(start):
                """the start of the page after the one at start, or None at the end"""
                if fault == "empty" and start >= 100:  # empty pages from 100 on, never ending
                    return start + 1
                if start + size < n:
                    return 100 if fault == "empty" else cont(start)
                if fault == "cycle" and start > size:
                    return size  # back to the second page
                return None

            if url.path == "/object":
                c = q.get("cursor")
                start = int(c[1:]) if c else 0
                if c and c[0] == "p":  # previous: the page ending before start
                    start = max(0, start - size)
                cur = {}
                if after(start) is not None:
                    cur["next"] = "n%d" % after(start)
                if start > 0:
                    cur["previous"] = "p%d" % start
                return self.send({"data": window(start), "cursor": cur})
            if url.path == "/token":
                start = int(q["pageToken"][1:]) if "pageToken" in q else 0
                out = {"items": window(start)}
                if after(start) is not None:
                    out["nextPageToken"] = "t%d" % after(start)
                return self.send(out)
            if url.path == "/after":
                start = 0
                if "starting_after" in q:
                    ids = [i["id"] for i in ITEMS]
                    start = ids.index(q["starting_after"]) + 1 + shift
                return self.send({"data": window(start), "has_more": start + size < n})
            if url.path in ("/nexturl", "/linked"):
                start = int(q.get("from", 0))
                nxt = None
                if after(start) is not None:
                    nxt = "%s?limit=%d&from=%d" % (url.path, size, after(start))
                if url.path == "/nexturl":
                    return self.send({"items": window(start), "next_page_uri": nxt})
                hdrs = []
                if nxt:  # absolute, on this server's origin
                    hdrs.append(("Link", '<http://%s%s>; rel="next"' % (self.headers["Host"], nxt)))
                return self.send(window(start), hdrs)
            if url.path == "/numbered":
                page = int(q.get("page", 1))
                start = (page - 1) * size + (shift if page > 1 else 0)
                return self.send(window(start))
            if url.path == "/offset":
                off = int(q.get("offset", 0))
                start = off + (shift if off > 0 else 0)
                return self.send({"results": window(start)})
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return H


def run(sdkc, style, fault, work):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(fault))
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    report = os.path.join(work, "pages-%s-%s.json" % (style, fault))
    cmd = [sdkc, "conform", CONTRACT, "--base-url", "http://127.0.0.1:%d" % srv.server_port,
           "--include", OPS[style], "--timeout-ms", "2000", "--report", report] + NO_PHASES
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    srv.shutdown()
    fail = []
    rep = json.load(open(report))
    walk = [r for r in rep["results"] if r["check"] == "pagination"]
    devs = [(d["check"], d["rule"]) for d in rep["deviations"]]
    if fault == "faithful":
        if devs:
            fail.append("deviations %s, want none" % devs)
        if not any(r["verdict"] == "pass" for r in walk):
            fail.append("no page walk passed: %s" % walk)
        if p.returncode != 0:
            fail.append("exit status %d" % p.returncode)
    elif fault == "cut":
        want = [("not_a_server_error", None), ("status_code_conformance", None)]
        if sorted(devs) != want:
            fail.append("deviations %s, want %s" % (devs, want))
        if [r["verdict"] for r in walk] != ["skip"]:
            fail.append("the walk: %s, want one skip" % walk)
    elif fault in ("empty", "cycle"):
        if devs != [("pagination", "endless")]:
            fail.append("deviations %s, want [('pagination', 'endless')]" % devs)
        want = "10 empty pages in a row" if fault == "empty" else "leads back to a request"
        if not any(want in d["evidence"] for d in rep["deviations"]):
            fail.append("no deviation says %r: %s" % (want, rep["deviations"]))
        if p.returncode != 1:
            fail.append("exit status %d" % p.returncode)
    else:
        want = [("pagination", fault)]
        if style == "cursor-object" and fault == "loss":
            # walking back also meets the item the way forward skipped (rules are kept apart)
            want.append(("pagination", "extra"))
        if sorted(devs) != sorted(want):
            fail.append("deviations %s, want %s" % (devs, want))
        if p.returncode != 1:
            fail.append("exit status %d" % p.returncode)
    if fail:
        sys.stdout.write(p.stdout + p.stderr)
        for m in fail:
            print("FAIL (%s, %s): %s" % (style, fault, m))
        return 1
    print("PASS (%s, %s): %s" % (style, fault,
                                 "; ".join(r["evidence"] for r in walk)))
    return 0


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in OPS:
        print(__doc__, file=sys.stderr)
        return 2
    sdkc, style = sys.argv[1], sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else "."
    os.makedirs(work, exist_ok=True)
    faults = ["faithful", "repeat", "loss", "cut"]
    if style in ("cursor-object", "cursor-token", "next-url", "link-header"):
        faults += ["empty", "cycle"]
    return max(run(sdkc, style, f, work) for f in faults)


if __name__ == "__main__":
    sys.exit(main())
