#!/usr/bin/env bash
# Collects what tools/gpu_sweep.sh runs on a machine with a GPU but without Qt, HDF5 or an X
# server, from an existing release build (it builds nothing of Cineflow's):
#
#   tools/gpu_bundle.sh [BUILD_DIR [BUNDLE_DIR]]     (default build/release and .gpu-bundle)
#
# BUNDLE_DIR then holds gpu_sweep.sh and gpu_foreign_array.py (the sweep), xz/ (an xz to unpack
# with) and payload.tar.xz, which unpacks to:
#   bin/ lib/ plugins/ run.sh   packaging/bundle.sh's bundle of cineflow, cineflow-mip-floor, the
#                               GPU tests and the GUI tests that use the GPU, stripped
#   python/                     the Python module (cineflow*.so) and python/tests
#   py/                         the Python it is built for (Debian's 3.11: the interpreter, its
#                               standard library, NumPy and pytest), whose libraries are in lib/
#   x11/                        Xvfb and xkbcomp with their libraries and keymaps, and Mesa's
#                               swrast DRI driver for Xvfb's GLX extension (softpipe: Mesa's LLVM
#                               is replaced by a stub, which keeps ~200 MB of LLVM, Z3 and ICU
#                               out); GL clients use NVIDIA's GLX there
#   gl/                         the libglvnd packages (.deb) to unpack into / where the machine
#                               has no libGLX (the device machine's recipe)
#   data/ testdata/             the real datasets the GPU and Python tests read
#                               (data/) and tests/data's reference files
# The CUDA runtime libraries (cudart, cuFFT), the driver and compute-sanitizer are expected on
# the GPU machine (a CUDA toolkit there). The payload is one xz stream with a large dictionary,
# so that the CUDA code the test executables share is stored about once; the carried folder has
# to stay under the device tool's 64 MiB together with the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${1:-$root/build/release}" && pwd)
bundle=${2:-$root/.gpu-bundle}
data=$root/data
stage=$(mktemp -d /tmp/cineflow-gpu-bundle.XXXXXX)
trap '[ -n "${CINEFLOW_BUNDLE_KEEP:-}" ] || rm -rf "$stage"' EXIT
p=$stage/payload
mkdir -p "$p"

# make_stub LIBRARY DIR CONSUMER...: a stand-in for LIBRARY in DIR, of the same name and symbol
# versions, defining every symbol the CONSUMERs import from it: functions that say they were
# called and return 0, data of the right size. With lazy binding nothing calls them unless a
# consumer uses that library (an FFmpeg codec the sweep never opens, Mesa's LLVM under softpipe),
# and none of LIBRARY's own dependencies need to come along.
make_stub() {
  local real=$1 dir=$2 soname name
  shift 2
  soname=$(objdump -p "$real" | awk '$1 == "SONAME" {print $2}')
  name=${soname//[^A-Za-z0-9]/_}
  objdump -T "$@" | awk '/\*UND\*/ {v = $(NF-1); gsub(/[()]/, "", v); if (v ~ /^0+$/) v = "-"; print $NF, v}' |
    sort -u >"$stage/$name.imports"
  # Defined symbols: name, version (Base where the library has none), size, kind.
  objdump -T "$real" | awk '!/\*UND\*/ && NF >= 6 {
    if ($(NF-1) ~ /^[0-9a-f]+$/ && length($(NF-1)) == 16) {v = "Base"; size = $(NF-1)}
    else {v = $(NF-1); gsub(/[()]/, "", v); size = $(NF-2)}
    print $NF, v, size, (/ DO / ? "data" : "function")}' | sort -u -k1,1 >"$stage/$name.defined"
  join "$stage/$name.imports" "$stage/$name.defined" | awk '{
    version = ($2 != "-") ? $2 : ($3 != "Base" ? $3 : "-"); print $1, version, $4, $5}' |
    sort -u -k1,1 >"$stage/$name.symbols"
  {
    echo '#include <stdio.h>'
    echo 'static void called(const char* name) {'
    echo "  fprintf(stderr, \"$soname stub (not bundled): %s called\\n\", name);"
    echo '}'
    while read -r symbol version bytes kind; do
      if [ "$kind" = function ]; then
        case $symbol in
          LLVMIsMultithreaded) result=1 ;;             # asked when Mesa's driver loads
          gme_identify_header) result='(long) ""' ;;  # FFmpeg's probe reads the name it returns
          *) result=0 ;;
        esac
        echo "long $symbol(void) { called(\"$symbol\"); return $result; }"
      else
        echo "__attribute__((aligned(16))) char $symbol[$((16#$bytes > 0 ? 16#$bytes : 8))];"
      fi
    done <"$stage/$name.symbols"
  } >"$stage/$name.c"
  local versions map=()
  versions=$(awk '$2 != "-" {print $2}' "$stage/$name.symbols" | sort -u)
  if [ -n "$versions" ]; then
    # Every version node the consumers ask for; unversioned symbols go into the first.
    local first=1
    for v in $versions; do
      echo "$v { global: $(awk -v v="$v" -v f=$first '$2 == v || (f && $2 == "-") {printf "%s; ", $1}' "$stage/$name.symbols") };"
      first=0
    done >"$stage/$name.map"
    map=(-Wl,--version-script="$stage/$name.map")
  fi
  mkdir -p "$dir"
  cc -shared -fPIC -O1 -w -o "$dir/$soname" "$stage/$name.c" -Wl,-soname,"$soname" "${map[@]}"
}

# FFmpeg's codecs, formats and hardware interfaces that Cineflow never opens (its MP4 writer
# encodes H.264 with libx264): stubs, which keep about 100 MB of libraries and theirs out.
stubs=$stage/stubs
ffmpeg=()
for lib in libavcodec.so.59 libavformat.so.59 libavutil.so.57 libswscale.so.6 libswresample.so.4; do
  path=$(ldconfig -p | awk -v n="$lib" '$1 == n && /x86-64/ && !found {print $NF; found = 1}')
  [ -n "$path" ] && ffmpeg+=("$(readlink -f "$path")")
done
if [ ${#ffmpeg[@]} -gt 0 ]; then
  for lib in $(objdump -p "${ffmpeg[@]}" | awk '$1 == "NEEDED" {print $2}' | sort -u); do
    case $lib in
      libav* | libsw* | libx264* | libc.so* | libm.so* | libz.so* | liblzma* | libbz2* | libxml2* | \
        libgnutls* | libzmq* | libglib-2.0* | libgobject-2.0* | libX11.so* | libdrm.so*) ;;
      *)
        path=$(ldconfig -p | awk -v n="$lib" '$1 == n && /x86-64/ && !found {print $NF; found = 1}')
        [ -n "$path" ] && make_stub "$(readlink -f "$path")" "$stubs" "${ffmpeg[@]}"
        ;;
    esac
  done
fi

# ICU's 30 MB of data (Qt links ICU; Cineflow's code paths do not use it: ICU reports its data
# missing) and LAPACK with the Fortran runtime (NumPy's linalg, never called here).
system_lib() { ldconfig -p | awk -v n="$1" '$1 == n && /x86-64/ && !found {print $NF; found = 1}'; }
icuuc=$(system_lib libicuuc.so.72)
if [ -n "$icuuc" ] && [ -n "$(system_lib libicudata.so.72)" ]; then
  make_stub "$(readlink -f "$(system_lib libicudata.so.72)")" "$stubs" "$(readlink -f "$icuuc")"
fi
linalg=(/usr/lib/python3/dist-packages/numpy/linalg/*.so)
lapack=$(ldd "${linalg[0]}" 2>/dev/null | awk '/liblapack/ && !found {print $3; found = 1}')
[ -n "$lapack" ] && make_stub "$(readlink -f "$lapack")" "$stubs" "${linalg[@]}"

# --- Cineflow's programs --------------------------------------------------------------------
programs=("$build/app/cineflow")
missing=()
for name in tools/cineflow-mip-floor tests/test_device_code tests/test_lz4_device_code; do
  if [ -x "$build/$name" ]; then programs+=("$build/$name"); else missing+=("$name"); fi
done
for test in "$build"/tests/test_cuda_*; do
  [ -f "$test" ] && [ -x "$test" ] && programs+=("$test")
done
for name in test_display_path test_volume_view test_volume_3d_gui test_volume_review test_volume_save_all; do
  if [ -x "$build/tests/$name" ]; then programs+=("$build/tests/$name"); else missing+=("tests/$name"); fi
done
module=$(ls "$build"/python/cineflow*.so 2>/dev/null | head -n 1 || true)
[ -n "$module" ] || missing+=("python/cineflow*.so")
if [ ${#missing[@]} -gt 0 ]; then
  echo "gpu_bundle: not built (left out): ${missing[*]}" >&2
fi
LD_LIBRARY_PATH="$stubs" "$root/packaging/bundle.sh" "$p" "${programs[@]}" ${module:+"$module"} >/dev/null
mkdir -p "$p/python"
if [ -n "$module" ]; then
  mv "$p/bin/$(basename "$module")" "$p/python/"
fi
cp -r "$root/python/tests" "$p/python/tests"
rm -rf "$p/python/tests/__pycache__"

# Copies the libraries FILE needs (ldd, resolved with LD_LIBRARY_PATH as given) into DIR, except
# those of the C runtime, the GPU driver, CUDA and libglvnd (packaging/bundle.sh's rule).
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|libresolv\.so|libcuda\.so|libnvidia|libcudart|libcufft|libGL\.so|libGLX|libGLdispatch|libOpenGL|libEGL)'
copy_libraries() {
  local file=$1 dir=$2 name path
  mkdir -p "$dir"
  LD_LIBRARY_PATH="$stubs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$file" |
    awk '/=> \// {print $1, $3}' | while read -r name path; do
    if ! [[ $name =~ $skip ]] && [ ! -e "$dir/$name" ] && [ ! -e "$p/lib/$name" ]; then
      cp -fL "$path" "$dir/$name"
    fi
  done
}

# --- The Python the module is built for -----------------------------------------------------
python=$(readlink -f /usr/bin/python3)
pyver=$(basename "$python")  # python3.11, the one CMake builds the module for
mkdir -p "$p/py/bin" "$p/py/lib" "$p/py/site"
cp -f "$python" "$p/py/bin/python3"
copy_libraries "$python" "$p/lib"
# The standard library without what a test run never imports.
(cd "/usr/lib/$pyver" && tar -cf - --exclude=__pycache__ --exclude='config-*' --exclude=test \
  --exclude=idlelib --exclude=tkinter --exclude=turtledemo --exclude=lib2to3 --exclude=ensurepip \
  --exclude=pydoc_data --exclude=dist-packages --exclude=site-packages --exclude=distutils \
  --exclude=sqlite3 --exclude=curses --exclude=dbm --exclude=venv --exclude=msilib \
  --exclude='lib-dynload/_test*' --exclude='lib-dynload/xx*' --exclude='lib-dynload/_codecs_*' \
  --exclude='lib-dynload/_sqlite3*' --exclude='lib-dynload/_curses*' --exclude='lib-dynload/_dbm*' \
  --exclude='lib-dynload/audioop*' --exclude='lib-dynload/nis*' --exclude='lib-dynload/ossaudiodev*' \
  --exclude='lib-dynload/readline*' .) |
  (mkdir -p "$p/py/lib/$pyver" && cd "$p/py/lib/$pyver" && tar -xf -)
for extension in "$p/py/lib/$pyver"/lib-dynload/*.so; do
  copy_libraries "$extension" "$p/lib"
done
dist=/usr/lib/python3/dist-packages
for package in numpy pytest _pytest pluggy iniconfig packaging attr attrs py py.py exceptiongroup tomli; do
  if [ -e "$dist/$package" ]; then
    (cd "$dist" && tar -cf - --exclude=__pycache__ --exclude=tests --exclude=f2py \
      --exclude=distutils --exclude=include --exclude='*.pyi' --exclude=typing \
      --exclude=array_api --exclude=doc "$package") | (cd "$p/py/site" && tar -xf -)
  fi
done
for extension in $(find "$p/py/site" -name '*.so'); do
  copy_libraries "$extension" "$p/lib"
done

# --- Xvfb, xkbcomp, keymaps, Mesa's swrast for the server's GLX -----------------------------
x=$p/x11
mkdir -p "$x/bin" "$x/lib" "$x/dri" "$x/share"
for tool in Xvfb xkbcomp; do
  cp -f "$(command -v "$tool")" "$x/bin/"
  copy_libraries "$x/bin/$tool" "$x/lib"
done
cp -rL /usr/share/X11/xkb "$x/share/xkb"
# awk reads to the end: an early exit would stop ldconfig with SIGPIPE, which pipefail reports.
dri=$(ldconfig -p | awk '/libglapi\.so\.0 .*x86-64/ && !found {print $NF; found = 1}')
dri=$(dirname "$(readlink -f "$dri")")/dri/swrast_dri.so
if [ -e "$dri" ]; then
  cp -fL "$dri" "$x/dri/swrast_dri.so"
  llvm=$(ldd "$dri" | awk '/libLLVM/ && !found {print $3; found = 1}')
  # Softpipe needs no LLVM: a stub keeps ~200 MB of LLVM, Z3 and ICU out.
  [ -n "$llvm" ] && make_stub "$llvm" "$x/lib" "$dri"
  LD_LIBRARY_PATH="$x/lib" copy_libraries "$x/dri/swrast_dri.so" "$x/lib"
fi

# --- libglvnd packages for a machine without them (unpacked into / by the sweep) ------------
gl_debs=$root/.gl
if ! ls "$gl_debs"/*.deb >/dev/null 2>&1; then
  mkdir -p "$gl_debs" /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  # shellcheck disable=SC2086
  apt-get $o -qq update && (cd "$gl_debs" && apt-get $o -qq download libvulkan1 libegl1 \
    libglvnd0 libopengl0 libgl1 libglx0 libgles2) || echo "gpu_bundle: no libglvnd packages" >&2
fi
mkdir -p "$p/gl"
cp -f "$gl_debs"/*.deb "$p/gl/" 2>/dev/null || true

# --- Fonts: the GUI's text, with a fontconfig configuration of their own (gpu_sweep.sh) ------
mkdir -p "$p/fonts"
for font in DejaVuSans.ttf DejaVuSans-Bold.ttf; do
  cp -fL "/usr/share/fonts/truetype/dejavu/$font" "$p/fonts/" 2>/dev/null ||
    echo "gpu_bundle: no $font (fonts-dejavu-core): screenshots will show boxes" >&2
done
cat >"$p/fonts/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir prefix="relative">.</dir>
  <cachedir>/tmp/cineflow-fontconfig</cachedir>
</fontconfig>
CONF

# --- Data ---------------------------------------------------------------------------------
mkdir -p "$p/data" "$p/testdata"
for file in field2_pw3_points.h5 verasonics_rotating_disk.h5; do
  cp -f "$data/$file" "$p/data/"
done
cp -f "$root"/tests/data/*.h5 "$p/testdata/"

# --- Strip, pack, measure -------------------------------------------------------------------
find "$p/bin" "$p/lib" "$p/plugins" "$p/python" "$p/py" "$x/bin" "$x/lib" "$x/dri" -type f \
  \( -perm -u+x -o -name '*.so*' \) -exec strip --strip-unneeded {} + 2>/dev/null || true
rm -rf "$bundle"
mkdir -p "$bundle/xz"
cp -f "$here/gpu_sweep.sh" "$here/gpu_foreign_array.py" "$bundle/"
cp -f "$(command -v xz)" "$bundle/xz/xz"
cp -fL "$(ldd "$(command -v xz)" | awk '/liblzma/ {print $3}')" "$bundle/xz/"
echo "gpu_bundle: $(du -sh "$p" | cut -f1) unpacked; packing..." >&2
# The executables first, side by side in one 64 MiB block, so that its dictionary spans the
# engine code and device code they share.
(cd "$p" && find . -type f | sort -t/ -k2,2 -k3 | tar -cf - --no-recursion -T -) |
  xz -T0 --block-size=64MiB --lzma2=preset=6,dict=64MiB -c >"$bundle/payload.tar.xz"
size=$(du -sb "$bundle" | cut -f1)
echo "gpu_bundle: $bundle: $((size / 1024 / 1024)) MiB ($size bytes)"
if [ "$size" -gt $((56 * 1024 * 1024)) ]; then
  echo "gpu_bundle: larger than 56 MiB: with the repository it may not fit the 64 MiB carry" >&2
  exit 1
fi
