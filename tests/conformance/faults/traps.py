#!/usr/bin/env python3
"""traps.py - `sdkc conform` must report nothing false and lose nothing to order (issue 26),
against a small HTTP server (http.server) for traps.yaml.

usage: traps.py SDKC CASE [WORK_DIR]
  quiet  a faithful server full of traps: getBox declares only `default` for errors and answers
         an unknown id 400 (no missing_resource probe: `default` is not a 404); deleteBox
         answers 204 with a JSON Content-Type and no body (no body to judge); listFeed's next
         page is on another origin (a skip saying so, not a deviation); listQueue's last page
         leaves out its optional items array; getTag's path parameter has minLength 0 (probed
         with a value, not skipped). 0 deviations, exit 0.
  merge  getBox leaves out the required `name` (the valid probe) and sends it as a number (the
         positive probe, ?verbose=true): two deviations at $.name, rules required and type.
  order  updateNote answers 500 for a note that exists; createNote (same phase) answers after
         0.5 s. Found with -j 1 and with -j 4 alike (updateNote waits for createNote's id).
  tls    the faithful server over HTTPS with a certificate of its own CA (made with openssl):
         without --ca-file nothing is checked (exit 3), with --ca-file or --insecure the run is
         clean (exit 0); a --ca-file that cannot be read is exit 2 before the first request.
  files  --known that is missing, not JSON or not a list, and --report into a directory that does
         not exist: exit 2 before the first request (the server sees none).
"""
import http.server
import json
import os
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET

# Issue 26's generated requests (examples, coverage, negative) and their checks are tested by
# phases.py; this server accepts much that its contract forbids, so they are off here.
NO_PHASES = ["--max-examples", "0", "--checks",
             "all,-positive_data_acceptance,-missing_required_header,-unsupported_method"]


CONTRACT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "traps.yaml")


class State:
    def __init__(self, case):
        self.case = case
        self.boxes = {}
        self.notes = {}
        self.next = 1
        self.requests = 0
        self.lock = threading.Lock()


def make_handler(st):
    case = st.case

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, status, body=None, ctype="application/json"):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def route(self, method):
            with st.lock:
                st.requests += 1
            url = urllib.parse.urlsplit(self.path)
            q = dict(urllib.parse.parse_qsl(url.query))
            parts = [urllib.parse.unquote(p) for p in url.path.split("/") if p]
            n = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(n) if n else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            if parts == ["tags"] or (parts[:1] == ["tags"] and len(parts) == 2):
                if len(parts) < 2 or not parts[1]:
                    return self.send(400, {"message": "an empty tag"})
                return self.send(200, {"tag": parts[1]})
            if parts == ["feed"]:
                size, start = int(q.get("limit", 3)), int(q.get("from", 0))
                items = [{"id": "f%d" % i, "name": "feed %d" % i} for i in range(1, 6)]
                out = {"items": items[start:start + size], "next_page_uri": None}
                if start + size < len(items):  # the next page is served from the CDN
                    out["next_page_uri"] = "http://cdn.example.invalid/feed?limit=%d&from=%d" % (
                        size, start + size)
                return self.send(200, out)
            if parts == ["queue"]:
                size = int(q.get("limit", 3))
                start = int(q["pageToken"][1:]) if "pageToken" in q else 0
                items = [{"id": "q%d" % i, "name": "queue %d" % i} for i in range(1, 5)]
                if start >= len(items):
                    return self.send(200, {})  # the last page: no items array at all
                out = {"items": items[start:start + size]}
                if start + size <= len(items) and size < len(items):
                    out["nextPageToken"] = "t%d" % (start + size)
                return self.send(200, out)
            if parts[:1] != ["boxes"]:
                return self.send(404, {"message": "no route"})
            if parts == ["boxes"] and method == "POST":
                if not isinstance(body, dict) or not isinstance(body.get("name"), str):
                    return self.send(400, {"message": "a name is needed"})
                with st.lock:
                    bid = "b%d" % st.next
                    st.next += 1
                    st.boxes[bid] = {"id": bid, "name": body["name"]}
                    return self.send(201, st.boxes[bid])
            with st.lock:
                box = st.boxes.get(parts[1])
            if box is None:
                # getBox and deleteBox declare only `default`: an unknown id is a bad request
                # there; the notes declare their 404
                return self.send(404 if len(parts) > 2 else 400, {"message": "unknown box"})
            if len(parts) == 2 and method == "GET":
                out = dict(box)
                if case == "merge":
                    if q.get("verbose") == "true":
                        out["name"] = 42
                    else:
                        del out["name"]
                return self.send(200, out)
            if len(parts) == 2 and method == "DELETE":
                with st.lock:
                    st.boxes.pop(parts[1], None)
                self.send_response(204)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                return
            if len(parts) == 3 and parts[2] == "notes" and method == "POST":
                if not isinstance(body, dict) or not isinstance(body.get("text"), str):
                    return self.send(400, {"message": "a text is needed"})
                if case == "order":
                    time.sleep(0.5)
                with st.lock:
                    nid = "n%d" % st.next
                    st.next += 1
                    st.notes[nid] = {"id": nid, "text": body["text"]}
                    return self.send(201, st.notes[nid])
            if len(parts) == 4 and parts[2] == "notes" and method == "PUT":
                with st.lock:
                    note = st.notes.get(parts[3])
                if note is None:
                    return self.send(404, {"message": "no such note"})
                if not isinstance(body, dict) or not isinstance(body.get("text"), str):
                    return self.send(400, {"message": "a text is needed"})
                if case == "order":
                    return self.send(500, {"message": "the note store broke"})
                note["text"] = body["text"]
                return self.send(200, note)
            return self.send(404, {"message": "no route"})

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_PUT(self):
            self.route("PUT")

        def do_DELETE(self):
            self.route("DELETE")

    return H


def serve(case, cert=None):
    st = State(case)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(st))
    srv.daemon_threads = True
    if cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert[0], cert[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return st, srv


def conform(sdkc, srv, report, *extra, scheme="http"):
    cmd = [sdkc, "conform", CONTRACT, "--base-url", "%s://127.0.0.1:%d" % (scheme, srv.server_port),
           "--timeout-ms", "3000", "--report", report] + NO_PHASES + list(extra)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def results(rep, op=None, check=None, verdict=None):
    return [r for r in rep["results"] if (op is None or r["operation"] == op) and
            (check is None or r["check"] == check) and (verdict is None or r["verdict"] == verdict)]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sdkc, case = sys.argv[1], sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else "."
    os.makedirs(work, exist_ok=True)
    fail, out = [], ""
    if case in ("quiet", "merge"):
        st, srv = serve(case)
        report = os.path.join(work, "traps-%s.json" % case)
        junit = os.path.join(work, "traps-%s.xml" % case)
        p = conform(sdkc, srv, report, "-j", "2", "--junit", junit)
        srv.shutdown()
        out = p.stdout + p.stderr
        rep = json.load(open(report))
        # JUnit: well-formed, one case per (operation, check), a failure per check that has
        # deviations (with each one's path and rule)
        try:
            root = ET.parse(junit).getroot()
            cases = [(c.get("classname"), c.get("name")) for c in root.iter("testcase")]
            if len(cases) != len(set(cases)):
                fail.append("JUnit: a testcase twice")
            want_cases = {(r["operation"], r["check"]) for r in rep["results"]}
            if set(cases) != want_cases:
                fail.append("JUnit: cases %s, want %s" % (sorted(cases), sorted(want_cases)))
            failed = {(c.get("classname"), c.get("name")): c.find("failure").text
                      for c in root.iter("testcase") if c.find("failure") is not None}
            want_failed = {(d["operation"], d["check"]) for d in rep["deviations"]}
            if set(failed) != want_failed or int(root.get("failures")) != len(want_failed):
                fail.append("JUnit: failures %s, want %s" % (sorted(failed), sorted(want_failed)))
            if case == "merge":
                text = failed.get(("getBox", "response_schema_conformance"), "")
                if "$.name [required]" not in text or "$.name [type]" not in text:
                    fail.append("JUnit: getBox's failure lacks a rule: %r" % text)
        except (ET.ParseError, OSError, TypeError, ValueError) as e:
            fail.append("JUnit: %s" % e)
        devs = sorted((d["operation"], d["check"], d["path"], d["rule"]) for d in rep["deviations"])
        if case == "quiet":
            if devs:
                fail.append("deviations %s, want none" % devs)
            if p.returncode != 0:
                fail.append("exit status %d, want 0" % p.returncode)
            for op in ("getBox", "deleteBox", "getTag"):
                if results(rep, op=op, check="missing_resource"):
                    fail.append("missing_resource judged on %s, which declares only `default`" % op)
            if not results(rep, op="createNote", check="missing_resource", verdict="pass"):
                fail.append("missing_resource not judged on createNote, which declares its 404")
            if not results(rep, op="getTag", check="response_schema_conformance", verdict="pass"):
                fail.append("getTag (minLength 0) not probed: %s" % results(rep, op="getTag"))
            if not results(rep, op="deleteBox", check="content_type_conformance", verdict="pass"):
                fail.append("deleteBox's empty 204 not judged: %s" % results(rep, op="deleteBox"))
            feed = results(rep, op="listFeed", check="pagination")
            if not feed or any(r["verdict"] != "skip" or "origin" not in r["evidence"] for r in feed):
                fail.append("listFeed's walk is not one skip naming the other origin: %s" % feed)
            if not results(rep, op="listQueue", check="pagination", verdict="pass"):
                fail.append("listQueue's walk did not pass: %s" % results(rep, op="listQueue"))
        else:
            want = [("getBox", "response_schema_conformance", "$.name", "required"),
                    ("getBox", "response_schema_conformance", "$.name", "type")]
            if devs != want:
                fail.append("deviations %s, want %s" % (devs, want))
            if p.returncode != 1:
                fail.append("exit status %d, want 1" % p.returncode)
    elif case == "order":
        for jobs in ("1", "4"):
            st, srv = serve(case)
            report = os.path.join(work, "traps-order-j%s.json" % jobs)
            p = conform(sdkc, srv, report, "-j", jobs)
            srv.shutdown()
            out += p.stdout + p.stderr
            rep = json.load(open(report))
            devs = sorted({(d["operation"], d["check"]) for d in rep["deviations"]})
            want = [("updateNote", "not_a_server_error"), ("updateNote", "status_code_conformance")]
            if devs != want:
                fail.append("-j %s: deviations %s, want %s" % (jobs, devs, want))
            skips = [r["evidence"] for r in results(rep, op="updateNote", verdict="skip")]
            if skips:
                fail.append("-j %s: updateNote skipped: %s" % (jobs, skips))
    elif case == "tls":
        key, cert = os.path.join(work, "traps-key.pem"), os.path.join(work, "traps-cert.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", cert], check=True, capture_output=True)
        report = os.path.join(work, "traps-tls.json")
        for extra, want in (([], 3), (["--ca-file", cert], 0), (["--insecure"], 0),
                            (["--ca-file", os.path.join(work, "no-such-ca.pem")], 2)):
            st, srv = serve("quiet", (cert, key))
            p = conform(sdkc, srv, report, "--include", "getTag", *extra, scheme="https")
            srv.shutdown()
            out += p.stdout + p.stderr
            if p.returncode != want:
                fail.append("%s: exit status %d, want %d" % (" ".join(extra) or "no CA",
                                                              p.returncode, want))
            if want == 2 and st.requests:
                fail.append("%s: %d requests before the exit" % (" ".join(extra), st.requests))
            if want == 0 and not results(json.load(open(report)), op="getTag", verdict="pass"):
                fail.append("%s: getTag not checked" % " ".join(extra))
    elif case == "files":
        bad_json = os.path.join(work, "traps-bad-known.json")
        with open(bad_json, "w") as f:
            f.write("{\"deviations\": [")
        not_list = os.path.join(work, "traps-not-a-list.json")
        with open(not_list, "w") as f:
            f.write("{\"deviations\": [{\"path\": \"$\"}]}")
        report = os.path.join(work, "traps-files.json")
        for extra in (["--known", os.path.join(work, "no-such-known.json")],
                      ["--known", bad_json], ["--known", not_list]):
            st, srv = serve(case)
            p = conform(sdkc, srv, report, *extra)
            srv.shutdown()
            out += p.stdout + p.stderr
            if p.returncode != 2 or st.requests:
                fail.append("%s: exit status %d after %d requests, want 2 after none" % (
                    " ".join(extra), p.returncode, st.requests))
        st, srv = serve(case)
        p = conform(sdkc, srv, os.path.join(work, "no-such-dir", "r.json"))
        srv.shutdown()
        out += p.stdout + p.stderr
        if p.returncode != 2 or st.requests:
            fail.append("--report into a missing directory: exit status %d after %d requests, "
                        "want 2 after none" % (p.returncode, st.requests))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if fail:
        sys.stdout.write(out)
        for m in fail:
            print("FAIL (%s): %s" % (case, m))
        return 1
    print("PASS (%s)" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
