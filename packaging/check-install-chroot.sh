#!/usr/bin/env bash
# Installs Cineflow's .deb into a fresh minimal Debian root (debootstrap --variant=minbase, then
# `apt-get install ./cineflow_*.deb` in a chroot, dependencies and recommends from the Debian
# archive) and runs the installed program there: --version, plugin discovery, a headless run on
# the Field II recording of data/ and the window under Xvfb (a screenshot).
# This proves the package's dependencies complete on a system that has only what they pull in.
# Run by hand, as root, with network to the Debian archive; it takes a few minutes and ~1.5 GB of
# disk. The CTest test package_deb checks the package without network (tests/package/).
#
#   packaging/check-install-chroot.sh [DEB] [DATA_DIR]
#   (defaults: the newest build/release/packages/cineflow_*.deb, the repository's data/)
# Environment: CINEFLOW_DEBIAN_MIRROR (default http://deb.debian.org/debian), CINEFLOW_KEEP_ROOT=1
# keeps the root for a look (its path is printed).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
deb=${1:-$(ls -t "$repo"/build/release/packages/cineflow_*.deb 2>/dev/null | head -n 1)}
data=${2:-$repo/data}
mirror=${CINEFLOW_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")

[ "$(id -u)" -eq 0 ] || { echo "check-install-chroot: run as root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "check-install-chroot: apt-get install debootstrap" >&2; exit 2; }
[ -n "$deb" ] && [ -f "$deb" ] || { echo "check-install-chroot: no package; run make package" >&2; exit 2; }

work=$(mktemp -d /var/tmp/cineflow-chroot.XXXXXX)
root=$work/root
mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true
  done
  # Remove the root only once nothing is mounted inside it any more.
  if [ "${CINEFLOW_KEEP_ROOT:-0}" != 1 ] && ! findmnt -rn -o TARGET | grep -q "^$root"; then
    rm -rf "$work"
  else
    echo "root kept: $root"
  fi
}
trap cleanup EXIT
phase_start=$SECONDS
phase() {
  echo "== $1 (previous phase $((SECONDS - phase_start)) s)"
  phase_start=$SECONDS
}

phase "debootstrap --variant=minbase $suite from $mirror"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 20 "$work/debootstrap.log"; exit 1; }
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
EOF
for fs in proc sys dev dev/pts; do
  mount --bind "/$fs" "$root/$fs"
  mounted+=("$root/$fs")
done
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  DEBIAN_FRONTEND=noninteractive "$@"; }

phase "apt-get install ./$(basename "$deb") (dependencies and recommends)"
cp "$deb" "$root/tmp/"
in_root apt-get update -q >/dev/null
in_root apt-get install -y -q "/tmp/$(basename "$deb")" >"$work/install.log" 2>&1 ||
  { tail -n 30 "$work/install.log"; exit 1; }
grep -E "^(Need to get|After this operation)" "$work/install.log" || true

phase "the installed cineflow"
in_root cineflow --version
in_root sh -c 'cineflow --headless --input plugin:none --output /tmp/x.h5 2>&1; true' | tail -n 1
in_root cineflow --headless --no-tune --frames 2 --output /tmp/template.h5 \
  --input 'plugin:Template point target#{"frames": 2}' 2>&1 | grep -E "^backend|CUDA|^wrote"
if [ -f "$data/field2_pw3_points.h5" ]; then
  cp "$data/field2_pw3_points.h5" "$root/tmp/"
  in_root cineflow --headless --backend cpu --no-tune --input /tmp/field2_pw3_points.h5 \
    --output /tmp/field2.h5 2>&1 | grep -E "^backend|^wrote"
else
  echo "SKIP: headless run on the Field II recording: $data/field2_pw3_points.h5 is absent"
fi

phase "the window under Xvfb (screenshot)"
in_root apt-get install -y -q xvfb xauth >"$work/xvfb-install.log" 2>&1 ||
  { tail -n 20 "$work/xvfb-install.log"; exit 1; }
in_root xvfb-run -a -s "-screen 0 1600x1000x24" cineflow --backend cpu --no-tune \
  --input 'plugin:Template point target' --screenshot /tmp/window.png --after-frames 5 \
  >"$work/gui.log" 2>&1 || { cat "$work/gui.log"; exit 1; }
[ -s "$root/tmp/window.png" ] || { cat "$work/gui.log"; echo "no screenshot" >&2; exit 1; }
shot=$(dirname "$work")/cineflow-chroot-window.png
cp "$root/tmp/window.png" "$shot"
echo "screenshot: $shot"
phase "done"
echo "PASS: $(basename "$deb") installs into a fresh $suite root and runs"
