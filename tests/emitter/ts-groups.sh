#!/usr/bin/env bash
# ts-groups.sh SDKC SOURCE_DIR WORK_DIR - clients grouped as the API is (docs/naming.md#groups):
# the TypeScript clients of cut-down GitHub and Stripe contracts group by tag and by path, and
# OpenCode's whole contract puts v2 under client.v2 (C: oc_v2_*) with no numeric suffix; then
# (with node) ts-groups/groups.test.ts under tsc --strict calls each over the in-memory transport.
# Exit 77 (skipped) after the text checks when node is absent.
set -euo pipefail
sdkc=$1 src=$2 w=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qE -- "$2" "$1" || fail "expected /$2/ in $1"; }
hasnt() { if grep -nE -- "$2" "$1" >&2; then fail "unexpected /$2/ in $1"; fi; }
# class FILE NAME: the text of one exported class
class() { awk -v c="export class $2 " 'index($0, c) == 1 {on = 1} on {print} on && /^}/ {exit}' "$1"; }
rm -rf "$w"
mkdir -p "$w/test"
gen() { "$sdkc" generate "$@" --quiet; }
gen "$src/tests/emitter/data/github-groups.yaml" --lang ts --prefix gh --out "$w/github"
gen "$src/tests/emitter/data/stripe-groups.yaml" --lang ts --prefix st --out "$w/stripe"
gen "$src/spec/opencode/openapi.json" --lang ts --prefix oc --out "$w/opencode"
gen "$src/spec/opencode/openapi.json" --lang c --prefix oc --out "$w/opencode-c"

c=$w/github/src/client.ts
for g in 'issues: IssuesApi' 'repos: ReposApi' 'meta: MetaApi' 'projects: ProjectsApi' \
  'pulls: PullsApi'; do
  has "$c" "^  readonly $g;"
done
hasnt "$c" 'readonly default'
class "$c" IssuesApi >"$w/issues.ts"
for m in listForRepo list get create; do has "$w/issues.ts" "^  $m\\((input|options)"; done
has "$w/github/README.md" '^\| `issues.listForRepo` \| GET `/repos/\{owner\}/\{repo\}/issues` \| issues/list-for-repo'

c=$w/stripe/src/client.ts
for g in 'customers: CustomersApi' 'account: AccountApi' 'accountLinks: AccountLinksApi' \
  'charges: ChargesApi' 'billingPortal: BillingPortalApi'; do
  has "$c" "^  readonly $g;"
done
hasnt "$c" 'readonly default'
class "$c" CustomersApi >"$w/customers.ts"
for m in getCustomers postCustomers getCustomersCustomer deleteCustomersCustomer; do
  has "$w/customers.ts" "^  $m\\((input|options)"
done

c=$w/opencode/src/client.ts
has "$c" '^  readonly v2: V2Api;'
has "$c" '^  readonly session: SessionApi;'
class "$c" V2Api >"$w/v2.ts"
has "$w/v2.ts" '^  readonly session: V2SessionApi;'
has "$w/v2.ts" '^    this.session = new V2SessionApi\(client\);'
class "$c" SessionApi >"$w/session.ts"
class "$c" V2SessionApi >"$w/v2session.ts"
for f in session v2session; do
  for m in list get prompt; do has "$w/$f.ts" "^  $m\\((input|options)"; done
done
has "$w/v2session.ts" "^  revertStage\\(input"
has "$w/v2session.ts" "GET /api/session \\(v2.session.list\\)"
has "$w/session.ts" "GET /session \\(session.list\\)"
# no method, class or function with a numeric suffix
hasnt "$c" '^  [a-zA-Z]+[0-9]+\((input|options)'
hasnt "$c" '^export class [A-Za-z0-9]*[a-z][0-9]+Api'
h=$w/opencode-c/include/oc/ops.h
has "$h" 'oc_status oc_v2_session_list\('
has "$h" 'oc_status oc_session_list\('
has "$h" 'oc_status oc_v2_health_get\('
hasnt "$h" 'oc_[a-z0-9_]+_[0-9]+\('
echo "ts-groups: groups and names checked"

if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed (the calls need node >= 20)"
  exit 77
fi
tsc=$("$src/scripts/ts-tools.sh" tsc)
cp "$src/tests/emitter/ts/harness.ts" "$w/test/"
cp "$src/tests/emitter/ts-groups/groups.test.ts" "$w/test/"
printf '{"type":"module","private":true}\n' >"$w/package.json"
cat >"$w/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "strict": true,
    "rootDir": ".", "outDir": "dist"
  },
  "include": ["test", "github/src", "stripe/src", "opencode/src"]
}
JSON
(cd "$w" && "$tsc" -p .)
node "$w/dist/test/groups.test.js"
