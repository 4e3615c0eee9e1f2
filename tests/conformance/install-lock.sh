#!/usr/bin/env bash
# install-lock.sh SOURCE_DIR - scripts/opencode-server.sh install, started several times at once
# on a fresh cache (as the real-server tests do on a fresh machine), runs npm exactly once under
# its lock; every caller succeeds and finds the binary; a failed npm leaves nothing behind and the
# next install works. npm is a stand-in on PATH that records its calls (no network).
set -uo pipefail
src=$1
work=$(mktemp -d /tmp/sdkc-install-lock.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/bin"
cat >"$work/bin/npm" <<'NPM'
#!/usr/bin/env bash
echo "$$ $PWD" >>"$FAKE_NPM_LOG"
sleep 1
[[ -e $FAKE_NPM_FAIL ]] && exit 1
mkdir -p node_modules/opencode-linux-x64/bin
printf '#!/bin/sh\necho fake opencode\n' >node_modules/opencode-linux-x64/bin/opencode
chmod +x node_modules/opencode-linux-x64/bin/opencode
NPM
chmod +x "$work/bin/npm"
export PATH="$work/bin:$PATH" FAKE_NPM_LOG="$work/npm.log" FAKE_NPM_FAIL="$work/fail"
export SDKC_OPENCODE_DIR="$work/cache/opencode"

# 1. a failing npm: the install fails, and leaves neither the folder nor a scratch copy
touch "$work/fail"
if "$src/scripts/opencode-server.sh" install 2>"$work/err1"; then fail "install succeeded with a failing npm"; fi
[[ ! -e $SDKC_OPENCODE_DIR ]] || fail "a failed install left $SDKC_OPENCODE_DIR"
compgen -G "$SDKC_OPENCODE_DIR.tmp.*" >/dev/null && fail "a failed install left a scratch folder"
rm -f "$work/fail" "$FAKE_NPM_LOG"

# 2. four installs at once: npm runs once, every caller succeeds
pids=()
for i in 1 2 3 4; do
  "$src/scripts/opencode-server.sh" install 2>"$work/err.$i" &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { cat "$work/err.$((i + 1))" >&2; fail "install $((i + 1)) of 4 failed"; }
done
calls=$(wc -l <"$FAKE_NPM_LOG")
[[ $calls -eq 1 ]] || { cat "$FAKE_NPM_LOG" >&2; fail "npm ran $calls times, expected once"; }
bin=$("$src/scripts/opencode-server.sh" bin) || fail "bin after install failed"
[[ -x $bin && $bin == "$SDKC_OPENCODE_DIR"/* ]] || fail "no binary at $bin"
compgen -G "$SDKC_OPENCODE_DIR.tmp.*" >/dev/null && fail "a scratch folder was left behind"

# 3. installed: a later install does not run npm again
"$src/scripts/opencode-server.sh" install || fail "install of an installed server failed"
[[ $(wc -l <"$FAKE_NPM_LOG") -eq 1 ]] || fail "npm ran again for an installed server"
echo "ok: one npm run for 4 concurrent installs; a failed install leaves nothing"
