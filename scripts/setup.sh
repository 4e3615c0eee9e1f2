#!/usr/bin/env bash
# Install what sdkc needs on Debian 12 (apt-get); installs only what is missing.
#   --with-opencode   also install the pinned OpenCode server from npm (for conformance tests)
set -euo pipefail
pkgs=(build-essential cmake clang pkg-config libyaml-dev libjansson-dev libpcre2-dev libcurl4-openssl-dev check
      valgrind curl git libclang-rt-14-dev hyperfine openssl libuv1-dev libevent-dev
      bsdutils) # bsdutils: util-linux `script` (a pty for the progress-line test)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO=sudo
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [[ ${1:-} == --with-opencode ]]; then
  "$(dirname "$0")/opencode-server.sh" install
fi
echo "setup: ok"
