#!/usr/bin/env bash
# The package build and install check (CTest test `package_deb`). Builds Cineflow's .deb from the
# build tree (its CPackConfig.cmake, as `make package` does), checks its fields and contents, the
# desktop entry, AppStream metadata, icon, manual page and bash completion (both against the
# unpacked executable's --help: check_help_docs.sh), and that apt can satisfy every
# dependency here; then unpacks it into a temporary root and runs the unpacked /usr/bin/cineflow:
# --version, plugin discovery next to it, --backend auto (the CPU backend without an NVIDIA
# driver), a plugin built from the installed template and header, and a headless run on the
# Field II recording of data/. Exit status 77 (skipped)
# when a tool it needs is missing. packaging/check-install-chroot.sh installs it into a fresh
# Debian root instead (by hand: it downloads the dependencies).
#
#   tests/package/check_package.sh BUILD_DIR DATA_DIR CPACK VERSION
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 BUILD_DIR DATA_DIR CPACK VERSION" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
data=$2
cpack=$3
version=$4
app_id=io.github.cineflow.Cineflow
field2=$data/field2_pw3_points.h5

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "-- $*"; }

missing=()
for tool in "$cpack" dpkg-deb dpkg-shlibdeps file apt-get appstreamcli desktop-file-validate \
  groff readelf ldd python3 cc make; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "SKIP: not installed: ${missing[*]} (packages dpkg-dev, file, apt, appstream," \
    "desktop-file-utils, groff-base, binutils, python3, gcc, make)"
  exit 77
fi

work=$build/tests/package
rm -rf "$work"
mkdir -p "$work/home" "$work/cache"

step "building the package with cpack"
start=$SECONDS
"$cpack" --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
debs=("$work"/out/cineflow_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one cineflow_*.deb in $work/out"
deb=${debs[0]}
echo "   $(basename "$deb"): $(du -h "$deb" | cut -f1) in $((SECONDS - start)) s"

# The Python module, when this build made one.
python_module=$(cd "$build/python" 2>/dev/null && ls cineflow.cpython-*.so 2>/dev/null || true)

step "package fields"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = cineflow ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', not $version"
[ "$(field Section)" = science ] || fail "Section is '$(field Section)'"
depends=$(field Depends)
echo "   Depends: $depends"
for needed in libqt6widgets6 libhdf5 libfftw3 qt6-qpa-plugins libc6; do
  [[ $depends == *"$needed"* ]] || fail "Depends lacks $needed"
done
[[ ! $depends =~ (cuda|cufft|nvidia) ]] || fail "Depends names CUDA or NVIDIA packages: $depends"
field Description | grep -q "CPU backend" || fail "the Description does not mention the CPU backend"
if [ -n "$python_module" ]; then  # what `import cineflow` needs comes with a plain install
  recommends=$(field Recommends)
  echo "   Recommends: $recommends"
  for needed in "python3 (>= " "python3 (<< " python3-numpy; do
    [[ $recommends == *"$needed"* ]] || fail "Recommends lacks $needed (the Python module needs it)"
  done
fi

step "package contents"
dpkg-deb --contents "$deb" >"$work/contents.txt"
awk '$2 != "root/root" { print; bad = 1 } END { exit bad }' "$work/contents.txt" ||
  fail "files not owned by root/root"
awk '$6 !~ /^\.\/(usr\/.*)?$/ { print; bad = 1 } END { exit bad }' "$work/contents.txt" ||
  fail "files outside /usr"
expected=(usr/bin/cineflow
  usr/lib/cineflow/plugins/libcineflow-simulator.so usr/lib/cineflow/plugins/libcineflow-template.so
  usr/include/cineflow/source_plugin.h
  usr/share/doc/cineflow/examples/template-plugin/template_plugin.c
  usr/share/doc/cineflow/examples/template-plugin/Makefile
  usr/share/cineflow/tools/send_frames.py
  usr/share/doc/cineflow/copyright usr/share/doc/cineflow/changelog.gz
  "usr/share/applications/$app_id.desktop" "usr/share/metainfo/$app_id.metainfo.xml"
  "usr/share/icons/hicolor/scalable/apps/$app_id.svg" usr/share/man/man1/cineflow.1.gz
  usr/share/bash-completion/completions/cineflow)
# The CUDA runtime libraries that the built executable links come along.
cuda_libs=$(readelf -d "$build/app/cineflow" | sed -n 's/.*NEEDED.*\[\(libcu[a-z]*\.so[.0-9]*\)\]/\1/p')
for lib in $cuda_libs; do
  expected+=("usr/lib/cineflow/cuda/$lib")
done
[ -z "$cuda_libs" ] || expected+=(usr/share/doc/cineflow/NVIDIA-CUDA-EULA.txt)
[ -z "$python_module" ] || expected+=("usr/lib/python3/dist-packages/$python_module")
for path in "${expected[@]}"; do
  grep -q " \./$path\( ->.*\)\?$" "$work/contents.txt" || fail "the package lacks /$path"
done

step "unpacking into $work/root"
dpkg-deb --extract "$deb" "$work/root"
root=$work/root

step "dependencies satisfiable here (apt-get --simulate)"
apt-get install --simulate --no-install-recommends "$deb" >"$work/apt.log" 2>&1 ||
  { cat "$work/apt.log"; fail "apt cannot satisfy the package's dependencies"; }
grep '^Inst ' "$work/apt.log" | grep -v '^Inst cineflow ' | sed 's/^/   would also install: /' || true

step "desktop entry, AppStream metadata, icon, manual page"
desktop-file-validate "$root/usr/share/applications/$app_id.desktop" >"$work/desktop.log" 2>&1 ||
  { cat "$work/desktop.log"; fail "desktop-file-validate"; }
! grep -E "error|warning" "$work/desktop.log" || fail "desktop-file-validate warns"
# validate-tree: the metainfo file, and the desktop entry it names as launchable.
appstreamcli validate-tree --no-net "$root" >"$work/appstream.log" 2>&1 ||
  { cat "$work/appstream.log"; fail "appstreamcli validate-tree"; }
! grep -E "^ *[EW]:" "$work/appstream.log" || fail "appstreamcli reports errors or warnings"
python3 - "$root/usr/share/icons/hicolor/scalable/apps/$app_id.svg" <<'PY' || fail "the icon is not SVG"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
sys.exit(0 if root.tag == "{http://www.w3.org/2000/svg}svg" else 1)
PY
man_warnings=$(gzip -dc "$root/usr/share/man/man1/cineflow.1.gz" |
  LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z 2>&1)
[ -z "$man_warnings" ] || fail "groff warns on the manual page: $man_warnings"
gzip -dc "$root/usr/share/doc/cineflow/changelog.gz" | grep -q "^cineflow ($version)" ||
  fail "changelog.gz does not start at $version"

step "the unpacked executable and plugins find their libraries in the package"
for elf in "$root/usr/bin/cineflow" "$root"/usr/lib/cineflow/plugins/*.so \
           ${python_module:+"$root/usr/lib/python3/dist-packages/$python_module"}; do
  runpath=$(readelf -d "$elf" | sed -n 's/.*R\(UN\)\?PATH.*\[\(.*\)\]/\2/p')
  [[ $runpath != */usr/local* && $runpath != *"$build"* ]] || fail "$elf searches $runpath"
  env -u LD_LIBRARY_PATH ldd "$elf" >"$work/ldd.log" 2>&1
  ! grep "not found" "$work/ldd.log" || fail "$elf: missing libraries"
  for lib in $cuda_libs; do
    from=$(awk -v l="$lib" '$1 == l { print $3 }' "$work/ldd.log")
    if [ -n "$from" ] && [ "$(realpath "$from")" != "$root/usr/lib/cineflow/cuda/$lib" ]; then
      fail "$elf takes $lib from outside the package: $from"
    fi
  done
done
# The EULA allows the NVIDIA libraries to be redistributed unmodified only.
for lib in $cuda_libs; do
  built_with=$(env -u LD_LIBRARY_PATH ldd "$build/app/cineflow" | awk -v l="$lib" '$1 == l { print $3 }')
  cmp -s "$built_with" "$root/usr/lib/cineflow/cuda/$lib" || fail "$lib differs from $built_with"
done

# Runs the unpacked executable in a clean environment, without a display.
cineflow() {
  env -i PATH=/usr/bin:/bin HOME="$work/home" CINEFLOW_CACHE_DIR="$work/cache" \
    ${plugin_path:+CINEFLOW_PLUGIN_PATH="$plugin_path"} "$root/usr/bin/cineflow" "$@"
}
plugin_path=

step "cineflow --version"
[ "$(cineflow --version)" = "cineflow $version" ] || fail "--version says '$(cineflow --version)'"

step "the manual page and bash completion say what --help says"
"$(dirname "$0")/check_help_docs.sh" "$root/usr/bin/cineflow" \
  "$root/usr/share/man/man1/cineflow.1.gz" "$root/usr/share/bash-completion/completions/cineflow"

step "the shipped plugins are found next to the executable"
cineflow --headless --input plugin:no-such-plugin --output "$work/none.h5" >"$work/plugins.log" 2>&1 &&
  fail "an unknown plugin was accepted"
grep -q "Template point target" "$work/plugins.log" && grep -q "$root/usr/lib/cineflow/plugins" \
  "$work/plugins.log" || { cat "$work/plugins.log"; fail "shipped plugins not listed"; }

step "headless on the template plugin with --backend auto"
cineflow --headless --backend auto --no-tune --frames 2 --output "$work/template.h5" \
  --input 'plugin:Template point target#{"frames": 2}' >"$work/auto.log" 2>&1 ||
  { cat "$work/auto.log"; fail "headless run on the shipped template plugin"; }
grep -E "^backend:|CUDA unavailable" "$work/auto.log" | sed 's/^/   /'
if [ ! -e /dev/nvidiactl ]; then  # no NVIDIA driver here: the CPU backend, saying why
  grep -q "^backend: CPU" "$work/auto.log" && grep -q "CUDA unavailable" "$work/auto.log" ||
    { cat "$work/auto.log"; fail "without a driver, --backend auto did not fall back to the CPU"; }
fi

step "a plugin built from the installed template and header"
cp -r "$root/usr/share/doc/cineflow/examples/template-plugin" "$work/lab"
make -s -C "$work/lab" CPPFLAGS="-I$root/usr/include" >"$work/lab.log" 2>&1 ||
  { cat "$work/lab.log"; fail "the template does not build against the installed header"; }
cineflow --headless --backend cpu --no-tune --frames 1 --output "$work/lab.h5" \
  --input "plugin:$work/lab/libmy-scanner.so#{\"frames\": 1}" >"$work/lab-run.log" 2>&1 ||
  { cat "$work/lab-run.log"; fail "headless run on the lab's plugin"; }

[ -f "$field2" ] || fail "$field2 is missing from this clone (data/README.md)"
step "headless on the Field II recording"
cineflow --headless --backend cpu --no-tune --input "$field2" --output "$work/field2.h5" \
  >"$work/field2.log" 2>&1 || { cat "$work/field2.log"; fail "headless run on $field2"; }
grep -q "^wrote 1 frames" "$work/field2.log" && [ -s "$work/field2.h5" ] ||
  { cat "$work/field2.log"; fail "no B-mode written from $field2"; }
grep "^wrote" "$work/field2.log" | sed 's/^/   /'
if [ -n "$python_module" ]; then
  step "import cineflow from the package (Debian's python3)"
  env -i PATH=/usr/bin:/bin HOME="$work/home" CINEFLOW_CACHE_DIR="$work/cache" \
    PYTHONPATH="$root/usr/lib/python3/dist-packages" /usr/bin/python3 -c \
    'import cineflow; print(cineflow.__version__, cineflow.backend_info("cpu")["kind"])' \
    >"$work/python.log" 2>&1 || { cat "$work/python.log"; fail "the packaged module does not import"; }
  grep -q "^$version " "$work/python.log" || { cat "$work/python.log"; fail "the module's version"; }
  sed 's/^/   /' "$work/python.log"
fi
# Passed: drop the two unpacked copies (~600 MB with the CUDA libraries), keep the package.
rm -rf "$root" "$work/out/_CPack_Packages"
echo "PASS: $(basename "$deb") builds, unpacks and runs ($SECONDS s)"
