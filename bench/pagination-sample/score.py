#!/usr/bin/env python3
"""Score sdkc's pagination detection against the labelled sample (labels.json here).

usage: score.py LABELS.json INSPECT_DIR
INSPECT_DIR holds `sdkc inspect` output per contract (CONTRACT with / as __, .txt), as
bench/pages-recall.sh writes it. An operation counts as detected when inspect marks it
`[page STYLE ...]`; a detection is correct when the label says paginated (and, for the per-style
table, when the style matches too). Prints precision and recall overall and per labelled style,
and every miss and false positive with its reason. Exit 0.
"""
import collections
import json
import os
import re
import sys

OP = re.compile(r"^  ([A-Z]+) +(\S+)  ")
PAGE = re.compile(r"\[page ([a-z-]+) ")


def detections(path):
    found = {}
    last = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = OP.match(line.rstrip("\n"))
            if m:
                last = (m.group(1), m.group(2))
                pm = PAGE.search(line)
                found[last] = [pm.group(1) if pm else None, None]
            elif last and line.startswith("         page: "):
                found[last][1] = line.strip()[len("page: "):]
    return found


def main():
    labels = json.load(open(sys.argv[1], encoding="utf-8"))["labels"]
    d = sys.argv[2]
    cache = {}
    tp = fp = fn = tn = 0
    style_ok = 0
    per = collections.defaultdict(lambda: [0, 0, 0])  # labelled, detected, detected with the style
    misses, wrong, bad_style, failed = [], [], [], []
    for e in labels:
        c = e["contract"]
        if c not in cache:
            p = os.path.join(d, c.replace("/", "__") + ".txt")
            cache[c] = detections(p) if os.path.exists(p) else None
        got = cache[c]
        if got is None:
            failed.append(e)
            continue
        style, why = got.get((e["method"], e["path"]), [None, None])
        if e["paginated"]:
            per[e["style"]][0] += 1
            if style:
                tp += 1
                per[e["style"]][1] += 1
                if style == e["style"]:
                    style_ok += 1
                    per[e["style"]][2] += 1
                else:
                    bad_style.append((e, style, why))
            else:
                fn += 1
                misses.append(e)
        elif style:
            fp += 1
            wrong.append((e, style, why))
        else:
            tn += 1
    n = tp + fp + fn + tn
    print(f"operations: {n} labelled ({tp + fn} paginated, {fp + tn} not)" +
          (f", {len(failed)} not scored (inspect failed)" if failed else ""))
    prec = 100.0 * tp / (tp + fp) if tp + fp else 100.0
    rec = 100.0 * tp / (tp + fn) if tp + fn else 100.0
    print(f"precision: {prec:.1f}% ({tp} of {tp + fp} detected are paginated)")
    print(f"recall:    {rec:.1f}% ({tp} of {tp + fn} paginated are detected; "
          f"{style_ok} with the labelled style)")
    print("\nby labelled style: labelled, detected, detected with that style")
    for k in sorted(per):
        a, b, s = per[k]
        print(f"  {k:<14} {a:4d} {b:4d} {s:4d}   recall {100.0 * b / a:5.1f}%")
    for title, rows in (("missed", [(e, None, None) for e in misses]), ("false positives", wrong),
                        ("other style", bad_style)):
        if rows:
            print(f"\n{title}:")
        for e, style, why in rows:
            extra = f" -> {style} ({why})" if style else ""
            print(f"  #{e['n']} {e['contract']} {e['method']} {e['path']}{extra}")
            print(f"      label: {e.get('style', 'not paginated')} {e.get('fields', '')}: {e['reason']}")
    for e in failed:
        print(f"  not scored: #{e['n']} {e['contract']}")


if __name__ == "__main__":
    main()
