#!/usr/bin/env python3
"""phases.py - `sdkc conform`'s generated requests (issue 26) against a small HTTP server
(http.server) for phases.yaml, run with default flags.

usage: phases.py SDKC CASE [WORK_DIR]
  fixed        a strict server: it refuses what the contract forbids (400), answers a method a
               path does not declare with 405 and Allow: 0 deviations, exit 0 (the contract's
               example "stamped" breaks its own date format: refused, and no deviation).
  planted      the same server with one deviation per phase and check, each found with the check
               and path below (PLANTED) and nothing else, exit 1:
                 coverage   createWidget fails (500) on size 10, the maximum;
                            listWidgets refuses color=blue, an enum member (400);
                            createWidget refuses a null note, nullable (400)
                 positive   updateWidget refuses a body with both tags and note (400): the
                            probe with every optional field, reduced to those two
                 examples   createWidget refuses the contract's example "small" (422)
                 negative   updateWidget takes size 11, above the maximum;
                            listWidgets takes limit=conform, not a number
                 valid      listGadgets refuses every request (400): one deviation, the
                            valid probe's; its coverage cases are not judged (the refusal
                            is not their values' doing)
                 missing_required_header  createWidget takes a request without X-Tenant
                 unsupported_method       PATCH /widgets is answered 200
                 stateful   found only by the sequences on a resource of their own:
                            createGizmo answers 201 where only 200 is declared (reported,
                            and its id kept from the body: the chain goes on);
                            updateGizmo answers 200 but the gizmo is gone after it
                            (getGizmo after-update: ensure_resource_availability);
                            the gizmo's label, which the creating answer links to getLabel,
                            is never found (link:getLabel: ensure_resource_availability);
                            listWidgets leaves out the newest widget (in-list:
                            ensure_resource_availability)
                 formats    createSchedule refuses a date-time with a numeric offset (only
                            the coverage phase's other date-time values have one)
                 patterns   createSchedule refuses a code of the pattern's second
                            alternative "cd" (only the coverage phase's other matches take it)
                 unique     listScheduleLabels answers a label twice under uniqueItems
               Both servers refuse a body with a label twice (negative, uniqueItems): passed.
               Both servers answer createTicket ("when approval is required, create") with
               an id and keep nothing: not read back (a skip saying why), no deviation.
  planted-j4   planted, with -j 4: the same findings.
  seed         the fixed server, --max-examples 2: the same --seed sends the same requests
               (the server's log of method, target and body), another seed others, and fewer
               than the default bound.
"""
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import urllib.parse

CONTRACT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "phases.yaml")

# (operation, check, path) of every planted deviation
PLANTED = {
    ("createWidget", "not_a_server_error", None),
    ("listWidgets", "positive_data_acceptance", "query color"),
    ("createWidget", "positive_data_acceptance", "$.note"),
    ("updateWidget", "positive_data_acceptance", None),
    ("createWidget", "positive_data_acceptance", "example small"),
    ("updateWidget", "negative_data_rejection", "$.size"),
    ("listWidgets", "negative_data_rejection", "query limit"),
    ("createWidget", "missing_required_header", "header X-Tenant"),
    ("createWidget", "unsupported_method", None),
    ("createSchedule", "positive_data_acceptance", "$.at"),
    ("createSchedule", "positive_data_acceptance", "$.code"),
    ("listScheduleLabels", "response_schema_conformance", "$"),
    ("listGadgets", "positive_data_acceptance", None),
    ("createGizmo", "status_code_conformance", None),
    ("getGizmo", "ensure_resource_availability", None),
    ("getLabel", "ensure_resource_availability", None),
    ("listWidgets", "ensure_resource_availability", None),
}
# the probe that finds each stateful one (with -j 1 and -j 4 alike: a chain runs in order)
STATEFUL = {
    ("getGizmo", "ensure_resource_availability"): "after-update",
    ("getLabel", "ensure_resource_availability"): "link:getLabel",
    ("listWidgets", "ensure_resource_availability"): "in-list",
}
# what every run's chains do, planted or fixed: (operation, probe, check) that must have run
CHAIN = {
    ("createWidget", "chain-create", "positive_data_acceptance"),
    ("getWidget", "after-create", "ensure_resource_availability"),
    ("updateWidget", "chain-update", "positive_data_acceptance"),
    ("getWidget", "after-update", "ensure_resource_availability"),
    ("listWidgets", "in-list", "ensure_resource_availability"),
    ("deleteWidget", "chain-delete", "status_code_conformance"),
    ("getWidget", "after-delete", "use_after_free"),
    ("getGizmo", "after-create", "ensure_resource_availability"),
    ("getGizmo", "after-update", "ensure_resource_availability"),
    ("getLabel", "link:getLabel", "ensure_resource_availability"),
    # createNote's answer is {"note": {"id": "nte_1", ...}, "count": 1}: the id by its brand
    ("getNote", "after-create", "ensure_resource_availability"),
    ("deleteNote", "chain-delete", "status_code_conformance"),
    ("getNote", "after-delete", "use_after_free"),
}
# what the planted 500 also breaks: the status is not declared
ALSO = {("createWidget", "status_code_conformance", None)}

COLORS = ("red", "green", "blue")
DATE_TIME = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:"
                       r"[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)")
CODE = re.compile(r"(ab|cd)[0-9]{1,4}")


def bad_schedule(b):
    """Why b is not a NewSchedule, or None."""
    if not isinstance(b, dict):
        return "not an object"
    if not isinstance(b.get("at"), str) or not DATE_TIME.fullmatch(b["at"]):
        return "at"
    if "code" in b and not (isinstance(b["code"], str) and CODE.fullmatch(b["code"])):
        return "code"
    labels = b.get("labels")
    if not isinstance(labels, list) or len(labels) > 3 or \
            not all(isinstance(t, str) for t in labels) or len(set(labels)) != len(labels):
        return "labels"
    return None


def bad_widget(b):
    """Why b is not a NewWidget, or None."""
    if not isinstance(b, dict):
        return "not an object"
    name, size = b.get("name"), b.get("size")
    if not isinstance(name, str) or not 1 <= len(name) <= 20:
        return "name"
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 10:
        return "size"
    if "color" in b and b["color"] not in COLORS:
        return "color"
    tags = b.get("tags", [])
    if not isinstance(tags, list) or len(tags) > 3 or not all(isinstance(t, str) for t in tags):
        return "tags"
    if "note" in b and b["note"] is not None and not isinstance(b["note"], str):
        return "note"
    if "made" in b and not (isinstance(b["made"], str) and re.fullmatch(r"\d{4}-\d\d-\d\d", b["made"])):
        return "made"
    return None


def bad_gizmo(b):
    """Why b is not a NewGizmo, or None."""
    if not isinstance(b, dict):
        return "not an object"
    label = b.get("label")
    if not isinstance(label, str) or not 1 <= len(label) <= 20:
        return "label"
    return None


def make_handler(planted, state):
    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, status, body=None, allow=None):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            if allow:
                self.send_header("Allow", allow)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def refuse(self, why):
            return self.send(400, {"message": why})

        def route(self, method):
            n = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(n) if n else b""
            with state["lock"]:
                state["log"].append((method, self.path, raw))
            return self.route_body(method, raw)

        def route_body(self, method, raw):
            url = urllib.parse.urlsplit(self.path)
            q = urllib.parse.parse_qs(url.query)
            parts = [urllib.parse.unquote(p) for p in url.path.split("/") if p]
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                return self.refuse("not JSON")
            if parts == ["widgets"]:
                if method == "POST":
                    return self.create(body)
                if method == "GET":
                    return self.list(q)
                if planted and method == "PATCH":
                    return self.send(200, [])
                return self.send(405, {"message": "no such method"}, allow="GET, POST")
            if parts == ["gadgets"]:
                if method != "GET":
                    return self.send(405, {"message": "no such method"}, allow="GET")
                if planted:
                    return self.refuse("no gadgets today")
                kind = q.get("kind", ["small"])[0]
                limit = q.get("limit", ["1"])[0]
                if kind not in ("small", "large") or not limit.isdigit() or \
                        not 1 <= int(limit) <= 5:
                    return self.refuse("kind or limit")
                return self.send(200, [kind] * int(limit))
            if len(parts) == 2 and parts[0] == "widgets":
                if method not in ("GET", "PUT", "DELETE"):
                    return self.send(405, {"message": "no such method"}, allow="GET, PUT, DELETE")
                with state["lock"]:
                    w = state["widgets"].get(parts[1])
                    if w is not None and method == "DELETE":
                        del state["widgets"][parts[1]]
                        return self.send(204)
                if w is None:
                    return self.send(404, {"message": "no such widget"})
                if method == "GET":
                    return self.send(200, w)
                return self.update(w, body)
            if parts == ["schedules"]:
                if method != "POST":
                    return self.send(405, {"message": "no such method"}, allow="POST")
                why = bad_schedule(body)
                if not why and planted and not body["at"].endswith("Z"):
                    why = "at: UTC only"
                if not why and planted and body.get("code", "").startswith("cd"):
                    why = "code: ab only"
                return self.refuse(why) if why else self.send(201, body)
            if parts == ["schedules", "labels"]:
                if method != "GET":
                    return self.send(405, {"message": "no such method"}, allow="GET")
                return self.send(200, ["night", "night"] if planted else ["night", "day"])
            if parts and parts[0] == "tickets":
                # nothing needs approval here: every evaluation answers an id and keeps nothing
                if parts == ["tickets"] and method == "POST":
                    why = bad_gizmo(body)
                    if why:
                        return self.refuse(why)
                    with state["lock"]:
                        state["next"] += 1
                        n = state["next"]
                    return self.send(200, {"id": "t%d" % n, "label": body["label"]})
                if len(parts) == 2 and method == "GET":
                    return self.send(404, {"message": "no such ticket"})
                allow = "POST" if len(parts) == 1 else "GET"
                return self.send(405, {"message": "no such method"}, allow=allow)
            if parts and parts[0] in ("gizmos", "labels"):
                return self.gizmos(method, parts, body)
            if parts and parts[0] == "notes":
                return self.notes(method, parts, body)
            return self.send(404, {"message": "no route"})

        def notes(self, method, parts, body):
            notes = state["notes"]
            if parts == ["notes"]:
                if method != "POST":
                    return self.send(405, {"message": "no such method"}, allow="POST")
                if not isinstance(body, dict) or not isinstance(body.get("text"), str) or \
                        not 1 <= len(body["text"]) <= 20:
                    return self.refuse("text")
                with state["lock"]:
                    state["next"] += 1
                    n = {"id": "nte_%d" % state["next"], "text": body["text"]}
                    notes[n["id"]] = n
                    count = len(notes)
                return self.send(200, {"note": n, "count": count})
            if len(parts) == 2:
                if method not in ("GET", "DELETE"):
                    return self.send(405, {"message": "no such method"}, allow="GET, DELETE")
                with state["lock"]:
                    n = notes.get(parts[1])
                    if n is not None and method == "DELETE":
                        del notes[parts[1]]
                        return self.send(204)
                if n is None:
                    return self.send(404, {"message": "no such note"})
                return self.send(200, n)
            return self.send(404, {"message": "no route"})

        def gizmos(self, method, parts, body):
            gizmos = state["gizmos"]
            if parts == ["gizmos"]:
                if method != "POST":
                    return self.send(405, {"message": "no such method"}, allow="POST")
                why = bad_gizmo(body)
                if why:
                    return self.refuse(why)
                with state["lock"]:
                    state["next"] += 1
                    g = {"id": "g%d" % state["next"], "label": body["label"]}
                    gizmos[g["id"]] = g
                return self.send(201 if planted else 200, g)
            if len(parts) == 2 and parts[0] == "labels":
                if method != "GET":
                    return self.send(405, {"message": "no such method"}, allow="GET")
                with state["lock"]:
                    found = [g for g in gizmos.values() if g["label"] == parts[1]]
                if planted or not found:  # planted: labels are never indexed
                    return self.send(404, {"message": "no gizmo has that label"})
                return self.send(200, found[-1])
            if len(parts) == 2 and parts[0] == "gizmos":
                if method not in ("GET", "PUT"):
                    return self.send(405, {"message": "no such method"}, allow="GET, PUT")
                with state["lock"]:
                    g = gizmos.get(parts[1])
                if g is None:
                    return self.send(404, {"message": "no such gizmo"})
                if method == "GET":
                    return self.send(200, g)
                why = bad_gizmo(body)
                if why:
                    return self.refuse(why)
                with state["lock"]:
                    g["label"] = body["label"]
                    if planted:  # accepted, and lost
                        gizmos.pop(g["id"], None)
                return self.send(200, g)
            return self.send(404, {"message": "no route"})

        def create(self, body):
            tenant = self.headers.get("X-Tenant")
            if tenant is None and not planted:
                return self.refuse("X-Tenant is required")
            if tenant is not None and not 1 <= len(tenant) <= 16:
                return self.refuse("X-Tenant")
            why = bad_widget(body)
            if why:
                return self.refuse(why)
            if planted and body["size"] == 10:
                return self.send(500, {"message": "boom"})
            if planted and "note" in body and body["note"] is None:
                return self.refuse("note may not be null")
            if planted and body["name"] == "tiny":
                return self.send(422, {"message": "too small"})
            with state["lock"]:
                state["next"] += 1
                wid = "w%d" % state["next"]
                w = dict(body, id=wid)
                state["widgets"][wid] = w
            return self.send(201, w)

        def list(self, q):
            limit = q.get("limit", ["10"])[0]
            if not (planted and limit == "conform"):
                if not limit.isdigit() or not 1 <= int(limit) <= 50:
                    return self.refuse("limit")
            color = q.get("color", [None])[0]
            if color is not None and (color not in COLORS or (planted and color == "blue")):
                return self.refuse("color")
            with state["lock"]:
                ws = [w for w in state["widgets"].values() if color in (None, w.get("color"))]
                if planted and ws and ws[-1] is list(state["widgets"].values())[-1]:
                    ws = ws[:-1]  # the newest widget is left out
            return self.send(200, ws[:int(limit) if limit.isdigit() else 10])

        def update(self, w, body):
            why = bad_widget(body)
            if why == "size" and planted and isinstance(body.get("size"), int) and \
                    body["size"] == 11:
                why = None
            if why:
                return self.refuse(why)
            if planted and "tags" in body and "note" in body:
                return self.refuse("tags or a note, not both")
            with state["lock"]:
                wid = w["id"]
                w.clear()
                w.update(body, id=wid)
            return self.send(200, w)

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_PUT(self):
            self.route("PUT")

        def do_PATCH(self):
            self.route("PATCH")

        def do_DELETE(self):
            self.route("DELETE")

    return H


def serve(planted):
    state = {"widgets": {}, "gizmos": {}, "notes": {}, "next": 0, "lock": threading.Lock(), "log": []}
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(planted, state))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, state


def seed_case(sdkc, work):
    """The requests of runs with --max-examples 2 and the given seeds (a fresh server each)."""
    logs = []
    for seed, bound in (("7", "2"), ("7", "2"), ("8", "2"), ("7", "12")):
        srv, state = serve(False)
        report = os.path.join(work, "conform-phases-seed-%s-%s.json" % (seed, bound))
        p = subprocess.run([sdkc, "conform", CONTRACT, "--base-url",
                            "http://127.0.0.1:%d" % srv.server_port, "--seed", seed,
                            "--max-examples", bound, "--report", report],
                           capture_output=True, text=True, timeout=120)
        srv.shutdown()
        if p.returncode != 0:
            sys.stdout.write(p.stdout + p.stderr)
            return ["seed %s: exit %d" % (seed, p.returncode)]
        if json.load(open(report))["summary"].get("seed") != int(seed):
            return ["the report does not name seed %s" % seed]
        logs.append(state["log"])
    fail = []
    if logs[0] != logs[1]:
        fail.append("seed 7 twice sent different requests")
    if logs[0] == logs[2]:
        fail.append("seeds 7 and 8 sent the same requests")
    if not len(logs[0]) < len(logs[3]):
        fail.append("--max-examples 2 sent %d requests, not fewer than 12's %d" %
                    (len(logs[0]), len(logs[3])))
    return fail


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sdkc, case = sys.argv[1], sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else "."
    os.makedirs(work, exist_ok=True)
    if case == "seed":
        fail = seed_case(sdkc, work)
        for f in fail:
            print("FAIL (seed): %s" % f)
        if not fail:
            print("PASS (seed): the same seed sends the same requests")
        return 1 if fail else 0
    planted = case.startswith("planted")
    srv, state = serve(planted)
    report = os.path.join(work, "conform-phases-%s.json" % case)
    cmd = [sdkc, "conform", CONTRACT, "--base-url", "http://127.0.0.1:%d" % srv.server_port,
           "--report", report]
    if case == "planted-j4":
        cmd += ["-j", "4"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    srv.shutdown()
    fail = []
    try:
        rep = json.load(open(report))
    except (OSError, ValueError) as e:
        rep = {"deviations": [], "results": []}
        fail.append("no report: %s" % e)
    found = {(d["operation"], d["check"], d["path"]) for d in rep["deviations"]}
    want = PLANTED | ALSO if planted else set()
    for d in sorted(want - found, key=str):
        fail.append("not found: %s" % (d,))
    for d in sorted(found - want, key=str):
        fail.append("unplanted: %s" % (d,))
    if p.returncode != (1 if planted else 0):
        fail.append("exit %d, want %d" % (p.returncode, 1 if planted else 0))
    if planted:
        # the positive probe's request, reduced to the two fields that fail together
        red = [d for d in rep["deviations"] if d["operation"] == "updateWidget" and
               d["probe"] == "positive"]
        curl = red[0].get("curl") or "" if red else ""
        if not red or "reduced" not in red[0]["evidence"] or '"tags"' not in curl or \
                '"note"' not in curl or '"color"' in curl:
            fail.append("the positive probe was not reduced to tags and note: %s" % red)
    # the example paired with the 400 response's example of its name is refused, as expected
    if not any(r["operation"] == "createWidget" and r["probe"] == "examples" and
               r["check"] == "negative_data_rejection" and r["verdict"] == "pass"
               for r in rep["results"]):
        fail.append("the example paired with a 400 was not judged as one to refuse")
    # the stateful ones, each by the sequence that finds it
    for (op, check), probe in sorted(STATEFUL.items()):
        if planted and not any(d["operation"] == op and d["check"] == check and
                               d["probe"] == probe for d in rep["deviations"]):
            fail.append("%s %s not found by the %s probe" % (op, check, probe))
    # every chain ran its steps (in the fixed run, each passed)
    for op, probe, check in sorted(CHAIN):
        verdicts = {r["verdict"] for r in rep["results"] if r["operation"] == op and
                    r["probe"] == probe and r["check"] == check}
        if not verdicts or (not planted and verdicts != {"pass"}):
            fail.append("chain step %s %s %s: %s" % (op, probe, check, sorted(verdicts)))
    # a body with a label twice (uniqueItems) was sent (and refused: nothing reported)
    twice = []
    for method, target, raw in state["log"]:
        try:
            b = json.loads(raw) if method == "POST" and target == "/schedules" else None
        except ValueError:
            b = None
        labels = b.get("labels") if isinstance(b, dict) else None
        if isinstance(labels, list) and len(labels) == 2 and labels[0] == labels[1]:
            twice.append(b)
    if not twice:
        fail.append("no body with a label twice (uniqueItems) was sent")
    # a creation the contract calls conditional is not read back: skipped, saying why
    for probe in ("after-create", "chain-create"):
        if not any(r["operation"] == "createTicket" and r["probe"] == probe and
                   r["check"] == "ensure_resource_availability" and r["verdict"] == "skip" and
                   "conditional" in r["evidence"] for r in rep["results"]):
            fail.append("createTicket's conditional creation: no %s skip" % probe)
    generated = {r["probe"] for r in rep["results"]}
    for probe in ("examples", "coverage", "negative", "unsupported-method"):
        if probe not in generated:
            fail.append("no %s probe was sent" % probe)
    if fail:
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        for f in fail:
            print("FAIL (%s): %s" % (case, f))
        return 1
    print("PASS (%s): %d deviations as planted" % (case, len(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
