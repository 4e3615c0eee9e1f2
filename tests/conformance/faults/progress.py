#!/usr/bin/env python3
"""progress.py - `sdkc conform`'s progress line (issue 26 item 4): on a terminal (a pty made by
util-linux `script`) stderr gets one line redrawn with \\r, "conform: N/T operations, D
deviations", cleared before the report is printed; a piped run (as every other test runs it),
--quiet and --verbose get none. The server is phases.py's fixed one.

usage: progress.py SDKC [WORK_DIR]
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import phases  # noqa: E402

LINE = re.compile(rb"\rconform: (\d+)/(\d+) operations, (\d+) deviations?\x1b\[K")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    sdkc = sys.argv[1]
    if not shutil.which("script"):
        print("FAIL: util-linux `script` is not installed (Debian: bsdutils)")
        return 1
    srv, _ = phases.serve(False)
    base = [sdkc, "conform", phases.CONTRACT, "--base-url",
            "http://127.0.0.1:%d" % srv.server_port]
    fail = []
    try:
        # on a terminal: stdout and stderr both go to the pty
        tty = subprocess.run(["script", "-qec", shlex.join(base), "/dev/null"],
                             stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        out = tty.stdout
        lines = LINE.findall(out)
        if tty.returncode != 0:
            fail.append("on a terminal: exit %d" % tty.returncode)
        if not lines:
            fail.append("on a terminal: no progress line")
        else:
            done, total, _ = lines[-1]
            if done != total or int(total) < 5:
                fail.append("the last progress line says %s/%s operations" % (done, total))
            if [int(d) for d, _, _ in lines] != list(range(1, len(lines) + 1)):
                fail.append("the progress line does not count 1, 2, ...: %s" % lines)
            last = out.rfind(b"\x1b[K")
            clear = out.find(b"\r\x1b[K", out.rfind(b"operations, "))
            report = out.find(b"operations:")  # the report's summary
            if clear < 0 or clear != last - 1 or report < clear:
                fail.append("the line is not cleared before the report")
        # a pipe, --quiet and --verbose (one operation each, to be quick): no progress line
        one = ["--include", "listGadgets"]
        for extra in ([], ["--quiet"], ["--verbose"]):
            p = subprocess.run(["script", "-qec", shlex.join(base + one + extra), "/dev/null"]
                               if extra else base + one, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=120)
            seen = p.stdout + p.stderr
            if b"\x1b[K" in seen or b"operations, " in seen:
                fail.append("a progress line %s" % (" ".join(extra) or "in a pipe"))
            if p.returncode != 0:
                fail.append("%s: exit %d" % (" ".join(extra) or "piped", p.returncode))
    finally:
        srv.shutdown()
    for f in fail:
        print("FAIL (progress): %s" % f)
    if fail:
        sys.stdout.write(out.decode("utf-8", "replace")[-3000:])
        return 1
    print("PASS (progress): %d progress lines on a terminal, none elsewhere" % len(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
