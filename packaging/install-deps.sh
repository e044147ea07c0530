#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Cineflow needs to build, run and test.
# Instant when everything is present: only missing packages are passed to apt-get.
# CUDA (nvcc) is optional and never installed here.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev
  libgl-dev libglew-dev
  libhdf5-dev hdf5-tools
  libfftw3-dev libmatio-dev
  xvfb xauth libgl1-mesa-dri
)
# Optional: the HDF5 filter plugins for LZ4 and Blosc (bitshuffle + LZ4) volume compression.
# Without them those codecs are listed as unavailable and their tests skip, saying why.
optional=(hdf5-filter-plugin hdf5-filter-plugin-blosc-serial)

not_installed() {
  local p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      echo "$p"
    fi
  done
}
mapfile -t missing < <(not_installed "${packages[@]}")
mapfile -t missing_optional < <(not_installed "${optional[@]}")
# An optional package this system's archive does not have is not asked for again.
available_optional=()
for p in "${missing_optional[@]}"; do
  if apt-cache show "$p" >/dev/null 2>&1 || [ ${#missing[@]} -gt 0 ]; then
    available_optional+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ] && [ ${#available_optional[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]} ${available_optional[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "install-deps: missing packages (${missing[*]}) and not root, no sudo: install them by hand" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
for p in "${available_optional[@]}"; do
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$p" ||
    echo "install-deps: optional $p is not available here (its codec stays unavailable)" >&2
done
