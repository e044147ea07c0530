#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Cineflow needs to build, run and test.
# Instant when everything is present: only missing packages are passed to apt-get.
# CUDA (nvcc) is optional and never installed here.
#
# Supported: Debian 12 or newer, Ubuntu 24.04 or newer: their archives have CMake >= 3.25 and
# Qt >= 6.3. On any other system this stops before installing anything, saying what is missing
# (an apt-get, or those versions) and what works.
set -euo pipefail

min_cmake=3.25
min_qt=6.3

packages=(
  build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev
  libgl-dev libglew-dev
  libhdf5-dev hdf5-tools
  libfftw3-dev libmatio-dev nlohmann-json3-dev liblz4-dev libxxhash-dev
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libdcmtk-dev dcmtk dicom3tools orthanc
  libzmq3-dev cppzmq-dev python3-zmq python3-numpy python3-h5py
  libaravis-dev libusb-1.0-0-dev aravis-tools libopenigtlink-dev
  python3-dev pybind11-dev libdlpack-dev python3-pytest mypy mkdocs
  dpkg-dev file groff-base appstream desktop-file-utils
  munge slurmctld slurmd slurm-client
  clang-14 libclang-rt-14-dev gdb
  xvfb xauth libgl1-mesa-dri fonts-dejavu-core
)
# Optional: the HDF5 filter plugins for LZ4 and Blosc (bitshuffle + LZ4) volume compression, and
# the bitshuffle filter (32008) that other HDF5 readers need for Cineflow's compressed raw
# recordings (Cineflow reads them without it). Without them those codecs are listed as
# unavailable and their tests skip, saying why.
optional=(hdf5-filter-plugin hdf5-filter-plugin-blosc-serial bitshuffle)

system_name() {
  if [ -r /etc/os-release ]; then
    (. /etc/os-release && echo "${PRETTY_NAME:-${NAME:-this system}}")
  else
    echo "this system"
  fi
}

unsupported() {  # the one paragraph, then stop
  {
    echo "install-deps: Cineflow does not build on $(system_name) as it is: $1"
    echo "It builds on Debian 12 or newer and on Ubuntu 24.04 or newer, where \`make run\` and"
    echo "\`make test\` install everything themselves. Elsewhere, install CMake $min_cmake or newer,"
    echo "Ninja, a C++20 compiler, Qt $min_qt or newer (Widgets, OpenGLWidgets, Test), HDF5, FFTW,"
    echo "matio, nlohmann JSON, LZ4, xxHash, GLEW, FFmpeg's libraries, DCMTK, ZeroMQ (libzmq,"
    echo "cppzmq), Aravis 0.8, pybind11 with python3-dev and NumPy, and Xvfb yourself, then build"
    echo "without this script:"
    echo "cmake --preset release && cmake --build --preset release (see docs/install.md)."
  } >&2
  exit 1
}

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
  unsupported "this script installs Debian packages with apt-get, which is not here."
fi

installed_version() {  # the installed Debian package's version, or nothing
  dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null |
    awk '$1 == "install" && $3 == "installed" { print $4 }'
}

# The version the build would use: installed, or what apt-get would install ("" when neither).
usable_version() {
  local version
  version=$(installed_version "$1")
  if [ -z "$version" ]; then
    version=$(apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }')
  fi
  echo "$version"
}

not_installed() {
  local p
  for p in "$@"; do
    if [ -z "$(installed_version "$p")" ]; then
      echo "$p"
    fi
  done
}

# CMake and Qt new enough, from the archive or already installed; otherwise stop. A cmake on the
# PATH (e.g. a newer one from pip or Kitware) counts, since that is the one the build runs.
check_versions() {
  local cmake_version qt_version problems=()
  cmake_version=$(usable_version cmake)
  if command -v cmake >/dev/null 2>&1; then
    cmake_version=$(cmake --version | awk 'NR == 1 { print $3 }')
  fi
  qt_version=$(usable_version qt6-base-dev)
  if [ -z "$cmake_version" ]; then
    problems+=("CMake $min_cmake or newer (none is available here)")
  elif ! dpkg --compare-versions "$cmake_version" ge "$min_cmake"; then
    problems+=("CMake $min_cmake or newer (this system has ${cmake_version%%-*})")
  fi
  if [ -z "$qt_version" ]; then
    problems+=("Qt $min_qt or newer (its archive has no qt6-base-dev)")
  elif ! dpkg --compare-versions "$qt_version" ge "$min_qt"; then
    problems+=("Qt $min_qt or newer (this system has ${qt_version%%[+-]*})")
  fi
  if [ ${#problems[@]} -eq 1 ]; then
    unsupported "it needs ${problems[0]}."
  elif [ ${#problems[@]} -eq 2 ]; then
    unsupported "it needs ${problems[0]} and ${problems[1]}."
  fi
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
  check_versions
  exit 0
fi

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
check_versions  # against the archive as it is now, before anything is installed
echo "install-deps: installing ${missing[*]} ${available_optional[*]}"
if [ ${#missing[@]} -gt 0 ]; then
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
for p in "${available_optional[@]}"; do
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$p" ||
    echo "install-deps: optional $p is not available here (its codec stays unavailable)" >&2
done
