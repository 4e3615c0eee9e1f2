// Cut a public contract down to a few operations, keeping every component they reach (so Prism
// starts quickly and the SDK stays small). Usage:
//   node cut-contract.mjs IN.json OUT.json 'get /v1/customers' 'post /v1/customers' ... [--patch P.json]
// A patch is merged into the result as an RFC 7396 JSON merge patch (objects merged key by key,
// null deletes the key, anything else replaces): it adds what the published contract lacks but
// the real API serves (OpenAI's text/event-stream), or drops what makes Prism too slow to start.
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const patchAt = args.indexOf('--patch');
const patch = patchAt >= 0 ? JSON.parse(readFileSync(args[patchAt + 1], 'utf8')) : null;
if (patchAt >= 0) args.splice(patchAt, 2);
const [input, output, ...wanted] = args;
if (!input || !output || wanted.length === 0) {
  console.error('usage: cut-contract.mjs IN.json OUT.json "METHOD /path"... [--patch P.json]');
  process.exit(2);
}
const doc = JSON.parse(readFileSync(input, 'utf8'));

function merge(a, b) {
  if (b && typeof b === 'object' && !Array.isArray(b) && a && typeof a === 'object' && !Array.isArray(a)) {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) {
      if (v === null) delete out[k];
      else out[k] = merge(a[k], v);
    }
    return out;
  }
  return b;
}

const paths = {};
for (const w of wanted) {
  const [method, path] = w.split(/\s+/, 2);
  const item = doc.paths?.[path];
  const op = item?.[method.toLowerCase()];
  if (!op) {
    console.error(`cut-contract: ${input} has no operation ${method} ${path}`);
    process.exit(1);
  }
  paths[path] ??= {};
  if (item.parameters) paths[path].parameters = item.parameters;
  paths[path][method.toLowerCase()] = op;
}
let out = { ...doc, paths };
if (patch) out = merge(out, patch);
delete out['x-webhooks'];
delete out.webhooks;

// Keep the components reachable from the paths and the security requirements.
const keep = new Set();
const pending = [];
function visit(v) {
  if (Array.isArray(v)) return v.forEach(visit);
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    if (k === '$ref' && typeof x === 'string' && x.startsWith('#/components/')) {
      if (!keep.has(x)) { keep.add(x); pending.push(x); }
    } else {
      visit(x);
    }
  }
}
visit(out.paths);
function resolve(ref) {
  return ref.slice(2).split('/').map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((o, k) => (o == null ? o : o[k]), out);
}
while (pending.length) visit(resolve(pending.pop()));
const comps = {};
for (const ref of keep) {
  const [, , kind, name] = ref.split('/');
  comps[kind] ??= {};
  comps[kind][name] = out.components[kind][name];
}
if (out.components?.securitySchemes) comps.securitySchemes = out.components.securitySchemes;
out.components = comps;
writeFileSync(output, JSON.stringify(out, null, 1) + '\n');
