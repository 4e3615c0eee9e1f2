#!/usr/bin/env python3
"""faults.py - `sdkc conform` against a small HTTP server (http.server) for shop.yaml that plants
exactly one fault, or none.

usage: faults.py SDKC FAULT [WORK_DIR]
  FAULT is `conformant` (0 deviations, exit 0 expected) or a check name: the server breaks the
  contract in that one way, and the run must report deviations of that check and of no other.
  `second_success_schema`: a declared 202 whose body breaks the 202's own schema (the operation's
  201 has another), to be reported by response_schema_conformance.
  `max-time` and `sigint`: a server that answers every request on an item after 3 s (and
  createItem with a number as the name); the run is stopped by --max-time 1 or by SIGINT after 1 s,
  the report must still be written, saying so, and the exit status is 3 although a deviation
  was found.
  `malformed-hang`: a server that never answers a body that is not JSON: one timeout
  deviation, then the other malformed-body probe is a skip with a note (not a timeout each).
  `sigint-hang`: a server that never answers, --timeout-ms 60000, SIGINT after 1.5 s: the
  requests in flight are cancelled and the report written within a second (2 s allowed).
  `refused`: a server that answers 401 to every request, the key given or not: nothing was
  checked (exit 3), no deviation, and no probe but no-credentials counts a pass.
The API key is given through the environment (--auth key=SHOP_KEY) and must never show in the
output or the report.
"""
import http.server
import json
import os
import subprocess
import sys
import threading
import time

# Issue 26's generated requests (examples, coverage, negative) and their checks are tested by
# phases.py; this server accepts much that its contract forbids, so they are off here.
NO_PHASES = ["--max-examples", "0", "--checks",
             "all,-positive_data_acceptance,-missing_required_header,-unsupported_method"]


KEY = "sk-conform-" + "5e" * 8
# faults named otherwise than the check that must report them
CHECK_OF = {"second_success_schema": "response_schema_conformance", "malformed-hang": "timeout"}
CONTRACT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shop.yaml")


class Shop:
    def __init__(self, fault):
        self.fault = fault
        self.items = {}
        self.next_id = 1
        self.lock = threading.Lock()


def make_handler(shop):
    f = shop.fault

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, status, body=None, ctype="application/json", headers=()):
            data = b""
            if body is not None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", ctype)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def error(self, status, msg):
            self.send(status, {"message": msg})

        def body(self):
            n = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(n) if n else b""

        def route(self, method):
            path, _, query = self.path.partition("?")
            parts = [p for p in path.split("/") if p]
            authed = self.headers.get("X-API-Key") == KEY
            raw = self.body()
            if f == "refused":
                return self.error(401, "an API key is needed")
            if f == "malformed-hang" and raw:
                try:
                    json.loads(raw)
                except ValueError:
                    time.sleep(30)  # never answers a body that is not JSON (as Prism 5.16)
                    return None
            if f == "sigint-hang":
                time.sleep(120)  # never answers (a daemon thread; the test ends first)
                return None
            if parts == ["stats"] and method == "GET":
                with shop.lock:
                    return self.send(200, {"count": len(shop.items)})
            if parts[:1] != ["items"] or len(parts) > 3:
                return self.error(404, "no route")
            if f == "refused" or (not authed and not (f == "ignored_auth" and method == "GET"
                                                       and len(parts) == 1)):
                return self.error(401, "an API key is needed")
            with shop.lock:
                if len(parts) == 1 and method == "GET":
                    items = list(shop.items.values())
                    hdrs = [] if f == "response_headers_conformance" else [("X-Total", str(len(items)))]
                    return self.send(200, items, headers=hdrs)
                if len(parts) == 1 and method == "POST":
                    try:
                        new = json.loads(raw)
                    except ValueError:
                        new = None
                    if not isinstance(new, dict) or not isinstance(new.get("name"), str):
                        if f == "negative_data_rejection":
                            return self.send(201, {"id": 999, "name": "accepted anyway"})
                        return self.error(400, "a body with a name is needed")
                    if f == "not_a_server_error" and "tags" in new:
                        return self.error(500, "tags broke the store")
                    item = {"id": shop.next_id, "name": new["name"]}
                    for k in ("price", "tags"):
                        if k in new:
                            item[k] = new[k]
                    shop.next_id += 1
                    if f != "ensure_resource_availability":
                        shop.items[item["id"]] = item
                    out = item
                    if f in ("max-time", "sigint"):  # a deviation found before the stop
                        out = dict(item, name=7)
                    return self.send(201, out, headers=[("Location", "/items/%d" % item["id"])])
                try:
                    iid = int(parts[1])
                except ValueError:
                    return self.error(404, "no such item")
                item = shop.items.get(iid)
                if (item is None and f == "missing_resource" and method == "GET" and len(parts) == 2
                        and iid >= shop.next_id):
                    return self.send(200, {"id": iid, "name": "made up"})
                if item is None:
                    return self.error(404, "no such item")
                slow = (parts[2:] == ["diff"] and f == "timeout") or f in ("max-time", "sigint")
            if slow:
                time.sleep(3)
            with shop.lock:
                if len(parts) == 3 and parts[2] == "diff" and method == "GET":
                    ctype = "text/plain" if f == "content_type_conformance" else "text/x-diff; charset=UTF-8"
                    return self.send(200, b"--- a\n+++ b\n", ctype)
                if len(parts) == 3 and parts[2] == "orders" and method == "POST":
                    try:
                        order = json.loads(raw)
                    except ValueError:
                        order = None
                    if not isinstance(order, dict) or not isinstance(order.get("quantity"), int):
                        return self.error(400, "a quantity is needed")
                    ticket = 7 if f == "second_success_schema" else "t-%d" % iid
                    return self.send(202, {"ticket": ticket})
                if len(parts) == 3 and parts[2] in ("photo", "manual") and method == "PUT":
                    if raw:
                        return self.error(415, "JSON text is not a photo")
                    return self.send(204)
                if len(parts) == 2 and method == "GET":
                    out = dict(item)
                    if f == "response_schema_conformance":
                        out["name"] = 42
                    return self.send(202 if f == "status_code_conformance" else 200, out)
                if len(parts) == 2 and method == "DELETE":
                    if f != "use_after_free":
                        del shop.items[iid]
                    return self.send(204)
                return self.error(404, "no route")

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_DELETE(self):
            self.route("DELETE")

        def do_PUT(self):
            self.route("PUT")

    return H


def stopped(cmd, env, report, fault, srv):
    """The run is cut short; the report is written all the same and says why."""
    cmd = cmd + (["--max-time", "1"] if fault == "max-time" else [])
    cmd = cmd + (["--timeout-ms", "60000"] if fault == "sigint-hang" else [])
    start = time.monotonic()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if fault in ("sigint", "sigint-hang"):
        time.sleep(1.5 if fault == "sigint-hang" else 1)
        signalled = time.monotonic()
        p.send_signal(2)
    out, err = p.communicate(timeout=90)
    took = time.monotonic() - start
    srv.shutdown()
    fail = []
    try:
        rep = json.load(open(report))
    except (OSError, ValueError) as e:
        rep = None
        fail.append("no report: %s" % e)
    want = "max-time" if fault == "max-time" else "interrupted"
    if rep and rep["summary"]["stopped"] != want:
        fail.append("summary.stopped is %r, want %r" % (rep["summary"]["stopped"], want))
    if fault == "sigint-hang":
        # the requests in flight are cancelled: the report within a second of the signal (with
        # room for a loaded machine), not at the end of a 60 s timeout
        after = time.monotonic() - signalled
        if after > 2.0:
            fail.append("took %.1f s after SIGINT to stop" % after)
    elif took > 4.5:  # one request in flight (timeout 1 s) plus start-up, not the whole plan
        fail.append("took %.1f s to stop" % took)
    if rep and fault == "sigint-hang":
        cut = [r for r in rep["skips"] if "cut short by an interrupt" in r["evidence"]]
        if not cut:
            fail.append("no probe says it was cut short by the interrupt")
    elif rep and not rep["deviations"]:
        fail.append("no deviation found before the stop (createItem answers a number as name)")
    if p.returncode != 3:  # a stopped run is 3, before 1 for its deviations
        fail.append("exit status %d, want 3" % p.returncode)
    if fail:
        sys.stdout.write(out + err)
        for m in fail:
            print("FAIL (%s): %s" % (fault, m))
        return 1
    print("PASS (%s): stopped after %.1f s, report written: %s" % (fault, took, rep["summary"]))
    return 0


def refused(cmd, env, report, srv):
    """Every request refused with 401: a skip each, never a pass (only the no-credentials probe,
    which wants the refusal, may pass); nothing was checked, so exit 3."""
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    srv.shutdown()
    out = p.stdout + p.stderr
    fail = []
    rep = json.load(open(report))
    if rep["deviations"]:
        fail.append("deviations: %s" % sorted({d["check"] for d in rep["deviations"]}))
    passes = [r for r in rep["results"] if r["verdict"] == "pass" and r["probe"] != "no-credentials"]
    if passes:
        fail.append("a refused probe counts passes: %s" % sorted(
            {"%s %s" % (r["probe"], r["check"]) for r in passes}))
    if rep["summary"]["probed"] != 0:
        fail.append("%d operations probed" % rep["summary"]["probed"])
    if rep["summary"]["conformant"]:
        fail.append("a run that checked nothing says conformant")
    if p.returncode != 3:
        fail.append("exit status %d" % p.returncode)
    if fail:
        sys.stdout.write(out)
        for m in fail:
            print("FAIL (refused): %s" % m)
        return 1
    print("PASS (refused): %s" % rep["summary"])
    return 0


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sdkc, fault = sys.argv[1], sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else "."
    os.makedirs(work, exist_ok=True)
    shop = Shop(fault)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(shop))
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    report = os.path.join(work, "conform-%s.json" % fault)
    env = dict(os.environ, SHOP_KEY=KEY)
    cmd = [sdkc, "conform", CONTRACT, "--base-url", "http://127.0.0.1:%d" % srv.server_port,
           "--auth", "key=SHOP_KEY", "--timeout-ms", "1000", "-j", "2", "--report", report] + NO_PHASES
    if fault in ("max-time", "sigint", "sigint-hang"):
        return stopped(cmd, env, report, fault, srv)
    if fault == "refused":
        return refused(cmd, env, report, srv)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    out = p.stdout + p.stderr
    fail = []
    if KEY in out or KEY in open(report).read():
        fail.append("the API key shows in the output or the report")
    rep = json.load(open(report))
    # every deviation carries the curl line of its request, the key as "$SHOP_KEY"; a 5xx one,
    # run by the shell with SHOP_KEY set, gets the same status again
    for d in rep["deviations"]:
        line = d.get("curl")
        if not line or not line.startswith("curl "):
            fail.append("deviation without a curl line: %s" % d)
        elif d["probe"] != "no-credentials" and '"$SHOP_KEY"' not in line:
            fail.append("curl line without the key's variable: %s" % line)
    for d in rep["deviations"]:
        if d["check"] == "not_a_server_error" and d.get("curl"):
            r = subprocess.run(["bash", "-c", d["curl"]], env=env, capture_output=True, text=True,
                               timeout=30)
            if not r.stdout.startswith("HTTP/1.1 5"):
                fail.append("the curl line does not reproduce the 5xx: %s -> %s" % (
                    d["curl"], r.stdout[:200] + r.stderr[:200]))
            break
    srv.shutdown()
    checks = sorted({d["check"] for d in rep["deviations"]})
    want = [] if fault == "conformant" else [CHECK_OF.get(fault, fault)]
    if checks != want:
        fail.append("deviations of %s, want %s" % (checks or "no check", want or "none"))
    if p.returncode != (0 if fault == "conformant" else 1):
        fail.append("exit status %d" % p.returncode)
    s = rep["summary"]
    # putItemManual's required body has no described bytes: never probed, skipped with the reason
    if fault == "malformed-hang":
        # one timeout, then a note for every other body that is not JSON (placeOrder's)
        hangs = [d for d in rep["deviations"] if d["check"] == "timeout"]
        notes = [r for r in rep["skips"] if r["probe"] == "malformed-body"
                 and "answered no body that is not JSON" in r["evidence"]]
        if len(hangs) != 1 or len(notes) != 1:
            fail.append("%d timeouts and %d notes for malformed bodies, want 1 and 1" % (
                len(hangs), len(notes)))
    if s["probed"] != s["operations"] - 1 - (fault == "timeout"):
        fail.append("%d of %d operations probed" % (s["probed"], s["operations"]))
    manual = [r for r in rep["results"] if r["operation"] == "putItemManual"]
    if not manual or any(r["verdict"] != "skip" or "no valid value for body" not in r["evidence"]
                         for r in manual):
        fail.append("putItemManual not skipped for its body: %s" % manual)
    if fault == "conformant":
        # every check ran somewhere (a check that never passes cannot catch its fault)
        passed = {r["check"] for r in rep["results"] if r["verdict"] == "pass"}
        for c in ("not_a_server_error", "status_code_conformance", "content_type_conformance",
                  "response_headers_conformance", "response_schema_conformance",
                  "negative_data_rejection", "ignored_auth", "use_after_free",
                  "ensure_resource_availability", "missing_resource"):
            if c not in passed:
                fail.append("check %s never ran" % c)
    if fail:
        sys.stdout.write(out)
        for m in fail:
            print("FAIL (%s): %s" % (fault, m))
        return 1
    print("PASS (%s): %s" % (fault, s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
