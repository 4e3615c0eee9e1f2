# Sourced by the scripts that start servers from pinned npm packages (opencode-server.sh,
# prism.sh). free_port prints a port free on 127.0.0.1 (random tries).
# npm_pinned DIR SPEC CHECK LABEL installs SPEC (name@version) into DIR once: several
# callers may start at once on a fresh machine, so one installs under DIR.lock while the others
# wait (SDKC_INSTALL_WAIT seconds, default 900), then find it done. npm writes into a scratch
# folder renamed into place, so an interrupted install never leaves a half-filled DIR behind.
# CHECK is the path under DIR that must be executable afterwards. Exits 1 on failure.
npm_pinned() {
  local dir=$1 spec=$2 check=$3 label=$4
  if [[ -x $dir/$check ]]; then return 0; fi
  local lock scratch lockfd
  mkdir -p "$(dirname "$dir")"
  lock="$dir.lock"
  exec {lockfd}>"$lock"
  if ! flock -w "${SDKC_INSTALL_WAIT:-900}" "$lockfd"; then
    echo "$label install: gave up waiting for $lock" >&2; exit 1
  fi
  if [[ -x $dir/$check ]]; then exec {lockfd}>&-; return 0; fi
  scratch=$(mktemp -d "$dir.tmp.XXXXXX")
  echo "$label install: $spec into $dir (npm)" >&2
  if ! (cd "$scratch" && npm install --no-audit --no-fund --silent "$spec" >&2); then
    rm -rf "$scratch"; echo "$label install: npm install failed" >&2; exit 1
  fi
  if [[ ! -x $scratch/$check ]]; then
    rm -rf "$scratch"; echo "$label install: $check missing after npm install of $spec" >&2; exit 1
  fi
  rm -rf "$dir"
  mv "$scratch" "$dir"
  exec {lockfd}>&-
}

free_port() {
  local p
  for _ in $(seq 1 20); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  echo "no free port found on 127.0.0.1" >&2
  return 1
}
