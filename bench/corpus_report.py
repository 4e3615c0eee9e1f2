#!/usr/bin/env python3
"""corpus_report.py - the report of bench/corpus.sh (Python 3 standard library only).

Reads the per-contract step records bench/corpus.sh leaves in WORK/r/INDEX/ (name; STEP.rc holding
"exit_status elapsed_ms"; STEP.err holding stderr; a missing STEP.rc means the step was skipped
because an earlier one failed), prints counts and classes, writes OUT/results.jsonl (one contract
a line) and OUT/summary.json, and with --check compares the run with an expectation file.

Statuses: pass, fail (non-zero exit), crash (killed by a signal), hang (killed by the timeout),
skip (not run: an earlier step failed).
"""
import argparse
import collections
import datetime
import json
import os
import re
import subprocess
import sys

DIAG_RE = re.compile(r"^(?P<loc>.*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning): (?P<msg>.*)$")
DIAG_NOLOC_RE = re.compile(r"^(?P<loc>[^:]*): (?P<sev>fatal error|error|warning): (?P<msg>.*)$")
HIDDEN_RE = re.compile(r"^sdkc: (?:(\d+) more diagnostics not shown|\.\.\. and (\d+) more warnings?)$")
FALLBACK_RE = re.compile(r"raw JSON", re.I)
DROPPED_RE = re.compile(r"\b(dropped|drop|dropping|ignored|ignoring|unsupported|not supported|skipped|skipping)\b", re.I)
SIGNALS = {4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}
FAILED = ("fail", "crash", "hang")


def normalize(msg):
    """A failure or warning class: the message with quoted names, paths and numbers blanked."""
    s = msg.strip()
    s = re.sub(r"'[^']*'|\"[^\"]*\"|`[^']*'|\u2018[^\u2019]*\u2019", "'X'", s)
    s = re.sub(r" [({]aka 'X'[)}]", "", s)  # gcc {aka ...}, clang (aka ...)
    s = re.sub(r"\boperation (get|put|post|delete|patch|head|options|trace) ", "operation METHOD ", s)
    s = re.sub(r"\b(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE)\b", "METHOD", s)
    s = re.sub(r"[^\s']*/[^\s']*", "PATH", s)
    s = re.sub(r"\b0x[0-9a-fA-F]+\b", "N", s)
    s = re.sub(r"\d+", "N", s)
    s = re.sub(r"\s+", " ", s)
    return s


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def parse_diags(text):
    """(errors, warnings, hidden, other) from stderr: diagnostics as (severity, message)."""
    errors, warnings, other, hidden = [], [], [], 0
    for line in (text or "").splitlines():
        m = HIDDEN_RE.match(line)
        if m:
            hidden += int(m.group(1) or m.group(2))
            continue
        m = DIAG_RE.match(line) or DIAG_NOLOC_RE.match(line)
        if m:
            (warnings if m.group("sev") == "warning" else errors).append(m.group("msg"))
        elif line.strip() and not line.startswith((" ", "In file included", "\t")) and "note:" not in line:
            other.append(line.strip())
    return errors, warnings, hidden, other


def step_record(d, name, timeout_ms):
    rc_text = read(os.path.join(d, name + ".rc"))
    if rc_text is None:
        return {"status": "skip"}
    parts = rc_text.split()
    rc, ms = int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    err = read(os.path.join(d, name + ".err")) or ""
    errors, warnings, hidden, other = parse_diags(err)
    rec = {"rc": rc, "ms": ms}
    if rc == 0:
        rec["status"] = "pass"
    elif rc == 124 or (rc == 137 and ms >= timeout_ms):
        rec["status"] = "hang"
        rec["first_error"] = "timed out after %d s" % (timeout_ms // 1000)
    elif rc > 128:
        rec["status"] = "crash"
        rec["first_error"] = "killed by %s" % SIGNALS.get(rc - 128, "signal %d" % (rc - 128))
    else:
        rec["status"] = "fail"
        if errors:
            rec["first_error"] = errors[0]
        elif other:
            rec["first_error"] = other[0]
        else:
            rec["first_error"] = "exit status %d, no message" % rc
    if "first_error" in rec:
        rec["class"] = normalize(rec["first_error"])
    rec["errors"] = len(errors)
    rec["_warnings"] = warnings
    rec["hidden"] = hidden
    return rec


def contract_record(d, ccs, api, timeout_ms):
    name = read(os.path.join(d, "name")).rstrip("\n")
    rec = {"contract": name}
    try:
        rec["size"] = os.path.getsize(os.path.join(api, name))
    except OSError:
        rec["size"] = None
    for step in ["compile", "generate"] + ccs:
        rec[step] = step_record(d, step, timeout_ms)
    comp = rec["compile"]
    warnings = comp.pop("_warnings", [])
    # generate prints the compiler's warnings again, then the emitter's own (what the C SDK
    # leaves out): count those too
    gen_only = collections.Counter(rec["generate"].get("_warnings", [])) - collections.Counter(warnings)
    warnings = warnings + sorted(gen_only.elements())
    for step in ["generate"] + ccs:
        rec[step].pop("_warnings", None)
    for step in ccs:
        rec[step].pop("hidden", None)
    comp["warnings"] = len(warnings) + comp.get("hidden", 0)  # hidden ones included
    classes = collections.Counter(normalize(w) for w in warnings)
    fallbacks = sum(1 for w in warnings if FALLBACK_RE.search(w))
    hidden = comp.get("hidden", 0)
    rec["fallbacks"] = fallbacks
    # The compiler prints at most 200 diagnostics: past that, count every hidden one as a possible
    # fallback. This bound cannot grow when other warnings go away, so it is what --check compares.
    rec["fallbacks_max"] = fallbacks + hidden
    split_warning_classes(rec, classes)
    # one raw example per warning class, for the summary
    examples = {}
    for w in warnings:
        examples.setdefault(normalize(w), w)
    rec["_examples"] = examples
    return rec


def split_warning_classes(rec, classes):
    rec["warning_classes"] = dict(sorted(classes.items()))
    rec["fallback_classes"] = {k: v for k, v in sorted(classes.items()) if FALLBACK_RE.search(k)}
    rec["dropped"] = {k: v for k, v in sorted(classes.items()) if DROPPED_RE.search(k) and not FALLBACK_RE.search(k)}


def load_jsonl(path, ccs):
    """Records of an earlier run's results.jsonl, classes normalized again (the rules may have
    changed since); a warning class stands as its own example."""
    records = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            for step in ["compile", "generate"] + ccs:
                if "first_error" in r[step]:
                    r[step]["class"] = normalize(r[step]["first_error"])
            classes = collections.Counter()
            for k, v in r["warning_classes"].items():
                classes[normalize(k)] += v
            split_warning_classes(r, classes)
            r["_examples"] = {k: k for k in classes}
            records.append(r)
    return records


def cc_version(cc):
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=20).stdout
        return out.splitlines()[0] if out else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def summarize(records, ccs, args):
    steps = ["compile", "generate"] + ccs
    s = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "package": args.package,
        "sdkc_commit": args.commit,
        "compilers": {cc: cc_version(cc) for cc in ccs},
        "jobs": args.jobs,
        "elapsed_s": args.elapsed,
        "contracts": len(records),
        "steps": {},
        "failure_classes": {},
    }
    for step in steps:
        counts = collections.Counter(r[step]["status"] for r in records)
        s["steps"][step] = {k: counts.get(k, 0) for k in ("pass", "fail", "crash", "hang", "skip")}
        classes = {}
        for r in records:
            st = r[step]
            if st["status"] in FAILED:
                c = classes.setdefault(st["class"], {"count": 0, "example": r["contract"], "message": st["first_error"]})
                c["count"] += 1
        s["failure_classes"][step] = dict(sorted(classes.items(), key=lambda kv: (-kv[1]["count"], kv[0])))
    s["all_pass"] = sum(1 for r in records if all(r[st]["status"] == "pass" for st in steps))
    s["crashes"] = sum(1 for r in records for st in steps if r[st]["status"] == "crash")
    s["hangs"] = sum(1 for r in records for st in steps if r[st]["status"] == "hang")
    fb_classes, drop_classes, warn_classes = {}, {}, {}
    for r in records:
        for table, key in ((fb_classes, "fallback_classes"), (drop_classes, "dropped"), (warn_classes, "warning_classes")):
            for k, v in r[key].items():
                c = table.setdefault(k, {"warnings": 0, "contracts": 0, "example": r["contract"], "message": r["_examples"][k]})
                c["warnings"] += v
                c["contracts"] += 1
    order = lambda t: dict(sorted(t.items(), key=lambda kv: (-kv[1]["warnings"], kv[0])))
    s["fallbacks"] = {
        "contracts": sum(1 for r in records if r["fallbacks"] > 0),
        "warnings": sum(r["fallbacks"] for r in records),
        "classes": order(fb_classes),
    }
    s["hidden_diagnostics"] = {
        "contracts": sum(1 for r in records if r["compile"].get("hidden", 0) > 0),
        "diagnostics": sum(r["compile"].get("hidden", 0) for r in records),
    }
    s["warnings"] = {
        "contracts": sum(1 for r in records if r["compile"].get("warnings", 0) > 0),
        "total": sum(r["compile"].get("warnings", 0) for r in records),
        "classes": order(warn_classes),
    }
    s["dropped"] = {
        "contracts": sum(1 for r in records if r["dropped"]),
        "warnings": sum(sum(r["dropped"].values()) for r in records),
        "classes": order(drop_classes),
    }
    return s


def short(text, n=150):
    return text if len(text) <= n else text[: n - 3] + "..."


def print_summary(s, ccs, top):
    p = print
    p("corpus: %d contracts (%s), sdkc %s, -j%d, %d s" % (s["contracts"], s["package"], s["sdkc_commit"], s["jobs"], s["elapsed_s"]))
    p("%-10s %6s %6s %6s %6s %6s" % ("step", "pass", "fail", "crash", "hang", "skip"))
    for step, c in s["steps"].items():
        p("%-10s %6d %6d %6d %6d %6d" % (step, c["pass"], c["fail"], c["crash"], c["hang"], c["skip"]))
    p("every step passes: %d of %d contracts; crashes %d, hangs %d" % (s["all_pass"], s["contracts"], s["crashes"], s["hangs"]))
    for step, classes in s["failure_classes"].items():
        if not classes:
            continue
        p("\n%s failures: %d classes" % (step, len(classes)))
        for i, (k, c) in enumerate(classes.items()):
            if i == top:
                p("  ... %d more classes (summary.json)" % (len(classes) - top))
                break
            p("  %5d  %s\n         e.g. %s: %s" % (c["count"], short(k), c["example"], short(c["message"])))
    fb = s["fallbacks"]
    p("\nraw-JSON fallbacks: %d contracts, %d warnings" % (fb["contracts"], fb["warnings"]))
    for k, c in list(fb["classes"].items())[:top]:
        p("  %6d in %4d contracts  %s  (e.g. %s)" % (c["warnings"], c["contracts"], short(k, 110), c["example"]))
    h = s["hidden_diagnostics"]
    if h["contracts"]:
        p("diagnostics past sdkc's cap of 200 (not classified): %d in %d contracts" % (h["diagnostics"], h["contracts"]))
    dr = s["dropped"]
    p("\ndropped/ignored/unsupported constructs: %d contracts, %d warnings" % (dr["contracts"], dr["warnings"]))
    for k, c in list(dr["classes"].items())[:top]:
        p("  %6d in %4d contracts  %s  (e.g. %s)" % (c["warnings"], c["contracts"], short(k, 110), c["example"]))
    w = s["warnings"]
    p("\nall compile warnings: %d in %d contracts; top classes:" % (w["total"], w["contracts"]))
    for k, c in list(w["classes"].items())[:top]:
        p("  %6d in %4d contracts  %s" % (c["warnings"], c["contracts"], short(k, 110)))


def outcome(r, ccs):
    o = {step: r[step]["status"] for step in ["compile", "generate"] + ccs}
    o["fallbacks"] = r["fallbacks_max"]
    return o


def write_expectation(path, records, ccs, package):
    lines = ["{", '  "package": %s,' % json.dumps(package), '  "compilers": %s,' % json.dumps(ccs),
             '  "note": "written by bench/corpus.sh --update; fallbacks = raw-JSON fallback warnings (+ diagnostics past the cap of 200)",',
             '  "contracts": {']
    items = sorted(records, key=lambda r: r["contract"])
    for i, r in enumerate(items):
        lines.append("    %s: %s%s" % (json.dumps(r["contract"]), json.dumps(outcome(r, ccs)), "," if i + 1 < len(items) else ""))
    lines += ["  }", "}"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def check(path, records, ccs, update):
    """Print regressions and improvements; True when there is no regression."""
    try:
        with open(path, encoding="utf-8") as f:
            exp = json.load(f)
    except FileNotFoundError:
        if not update:
            print("corpus: no expectation file %s (write one with --update)" % path)
        return False
    contracts = exp.get("contracts", {})
    exp_ccs = exp.get("compilers", [])
    steps = ["compile", "generate"] + [cc for cc in ccs if cc in exp_ccs]
    regressions, improvements, new = [], [], []
    for r in sorted(records, key=lambda r: r["contract"]):
        name = r["contract"]
        e = contracts.get(name)
        if e is None:
            new.append(name)
            continue
        a = outcome(r, ccs)
        for step in steps:
            was, now = e.get(step, "skip"), a[step]
            if was == now:
                continue
            if (was == "pass" and now in FAILED) or (now in ("crash", "hang") and was not in ("crash", "hang")):
                detail = r[step].get("first_error", "")
                regressions.append("%s: %s %s -> %s%s" % (name, step, was, now, (": " + short(detail, 200)) if detail else ""))
            elif now == "pass" or (was in ("crash", "hang") and now == "fail"):
                improvements.append("%s: %s %s -> %s" % (name, step, was, now))
        if e.get("compile") == "pass" and a["compile"] == "pass":
            if a["fallbacks"] > e.get("fallbacks", 0):
                regressions.append("%s: raw-JSON fallbacks %d -> %d" % (name, e.get("fallbacks", 0), a["fallbacks"]))
            elif a["fallbacks"] < e.get("fallbacks", 0):
                improvements.append("%s: raw-JSON fallbacks %d -> %d" % (name, e.get("fallbacks", 0), a["fallbacks"]))
    missing = sorted(set(contracts) - {r["contract"] for r in records})
    print()
    if regressions:
        print("corpus check: %d regression(s) against %s:" % (len(regressions), os.path.basename(path)))
        for line in regressions:
            print("  REGRESSION " + line)
    if improvements:
        print("corpus check: %d improvement(s); update the expectation with bench/corpus.sh --update:" % len(improvements))
        for line in improvements:
            print("  improved   " + line)
    if new:
        print("corpus check: %d contract(s) not in the expectation (bench/corpus.sh --update adds them)" % len(new))
    if missing:
        print("corpus check: %d contract(s) of the expectation not run" % len(missing))
    if not regressions:
        print("corpus check: no regression (%d contracts)" % len(records))
    return not regressions


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work", help="WORK/r folder of bench/corpus.sh, or an earlier results.jsonl to report again")
    ap.add_argument("--out", required=True)
    ap.add_argument("--ccs", default="gcc,clang")
    ap.add_argument("--elapsed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--package", default="")
    ap.add_argument("--api", default="")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--check")
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    ccs = [c for c in args.ccs.split(",") if c]
    if args.work.endswith(".jsonl"):
        records = load_jsonl(args.work, ccs)
    else:
        dirs = sorted((d for d in os.listdir(args.work) if d.isdigit()), key=int)
        records = [contract_record(os.path.join(args.work, d), ccs, args.api, args.timeout * 1000) for d in dirs]
    s = summarize(records, ccs, args)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.jsonl"), "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps({k: v for k, v in r.items() if not k.startswith("_")}, sort_keys=False) + "\n")
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(s, f, indent=1)
        f.write("\n")
    print_summary(s, ccs, args.top)
    if not args.check:
        return 0
    ok = check(args.check, records, ccs, args.update)
    if args.update:
        write_expectation(args.check, records, ccs, args.package)
        print("corpus: expectation rewritten: %s" % args.check)
        return 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
