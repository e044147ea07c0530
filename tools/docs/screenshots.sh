#!/usr/bin/env bash
# The README's and the manual's pictures (docs/images/), made from the window this build draws:
# `make screenshots`. Each runs under its own Xvfb at 1920 x 1080 with fresh settings (a
# temporary HOME), so that nothing of the person's own setup shows.
#   main-window.png   cineflow --input sim: live B-mode, acquisition panel, live MIPs
#   doppler-disk.png  the Verasonics rotating disk (data/) with its colour Doppler preset
#   oct-bscan.png     cineflow --input oct-sim: the OCT simulator's B-scans
#   volume-review.png, volume-3d.png, measurements.png: the GUI tests that drive those scenes
#                     (test_volume_review, test_volume_3d_gui, test_measurements_gui) photograph
#                     them; their pictures are copied here
#   verasonics-disk.png  test_verasonics_disk's figure: Cineflow's B-mode beside PyMUST's
#
#   tools/docs/screenshots.sh [BUILD_DIR] [OUT_DIR]   (defaults build/release, docs/images)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build/release}" && pwd)
out=${2:-$root/docs/images}
app=$build/app/cineflow
command -v xvfb-run >/dev/null || { echo "screenshots: xvfb-run is missing (install-deps.sh)" >&2; exit 1; }
[ -x "$app" ] || { echo "screenshots: no $app: build first (make build)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d /tmp/cineflow-screenshots.XXXXXX)
trap 'rm -rf "$work"' EXIT

# One scene: a fresh HOME, the simulator cache shared (synthesis is the slow part), 1920 x 1080.
scene() {
  local name=$1
  shift
  rm -rf "$work/home" && mkdir -p "$work/home"
  HOME=$work/home XDG_CONFIG_HOME=$work/home/.config CINEFLOW_CACHE_DIR=$work/cache \
    xvfb-run -a -s "-screen 0 1920x1080x24" "$@" >"$work/$name.log" 2>&1 ||
    { cat "$work/$name.log" >&2; echo "screenshots: $name failed" >&2; exit 1; }
  echo "screenshots: $name"
}

scene main-window.png "$app" --input sim --backend cpu --after-frames 60 \
  --screenshot "$out/main-window.png"
scene doppler-disk.png "$app" --input "$root/data/verasonics_rotating_disk.h5" --backend cpu \
  --preset "Verasonics disk Doppler" --after-frames 40 --screenshot "$out/doppler-disk.png"
scene oct-bscan.png "$app" --input oct-sim --backend cpu --after-frames 40 \
  --screenshot "$out/oct-bscan.png"

for pair in test_volume_review:volume-review test_volume_3d_gui:volume-3d \
  test_measurements_gui:measurements test_verasonics_disk:verasonics-disk; do
  test=${pair%%:*}
  name=${pair##*:}
  picture=$test.png
  [ "$test" != test_verasonics_disk ] || picture=verasonics_disk.png
  rm -f "$work/$picture"
  scene "$name.png" env CINEFLOW_TEST_ARTEFACTS="$work" CINEFLOW_DATA_DIR="$root/data" \
    "$build/tests/$test"
  cp "$work/$picture" "$out/$name.png"
done
ls -l "$out"
