#!/usr/bin/env bash
# Installs what building and testing the project needs on Debian 12.
#
# Checks each package with dpkg-query and installs only the missing ones,
# noninteractively. As a non-root user it installs nothing: it prints the
# `sudo apt-get install ...` command to run and exits 1.
#
# rustc is not installed from here: Debian's rustc is too old for the
# Rust-host tests, which lit skips when no `rustc` is on PATH.
set -euo pipefail

packages=(
  cmake
  ninja-build
  g++
  llvm-22-dev
  llvm-22-tools     # lit, FileCheck, not
  clang-22
  libclang-22-dev
  lld-22
  libclang-rt-22-dev  # sanitizer runtimes (scripts/sanitize.sh)
  libabsl-dev
  libgtest-dev
  libgmock-dev
  libbenchmark-dev
  python3-numba     # Numba IR tests; brings /usr/bin/python3.11
  python3-matplotlib  # autodiff-compare --plot (its lit test needs it)
  python3-pytest    # the tests of the Numba package (python/autodiff_numba)
  python3-torch     # its torch_compat test (torch.autograd.gradcheck)
  python3           # lit
)

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)" == ii* ]]
}

missing=()
for pkg in "${packages[@]}"; do
  is_installed "$pkg" || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages are installed."
  exit 0
fi

echo "install-deps: missing: ${missing[*]}"
if ((EUID != 0)); then
  echo "install-deps: not root; install them with:" >&2
  echo "sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt_opts=(-o DPkg::Lock::Timeout=600)
apt-get "${apt_opts[@]}" update

# Name any package this machine's apt sources do not offer, rather than
# letting apt-get fail on the first one.
unavailable=()
for pkg in "${missing[@]}"; do
  candidate=$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')
  if [[ -z "$candidate" || "$candidate" == "(none)" ]]; then
    unavailable+=("$pkg")
  fi
done
if ((${#unavailable[@]} > 0)); then
  echo "install-deps: no installation candidate for: ${unavailable[*]}" >&2
  echo "install-deps: add an apt source that provides them (LLVM 22 packages)" >&2
  exit 1
fi

apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}"

still_missing=()
for pkg in "${missing[@]}"; do
  is_installed "$pkg" || still_missing+=("$pkg")
done
if ((${#still_missing[@]} > 0)); then
  echo "install-deps: still missing after apt-get: ${still_missing[*]}" >&2
  exit 1
fi
echo "install-deps: installed ${missing[*]}"
