#!/usr/bin/env bash
# Makes a relocatable bundle of built Cineflow programs: bin/ with the executables, plugins/ with
# Qt's X11 (xcb, GLX) and offscreen platform plugins, lib/ with every shared library they all need
# that is not part of the C runtime, the OpenGL dispatch or the GPU driver, and run.sh that starts
# a bundled program with LD_LIBRARY_PATH and QT_PLUGIN_PATH set. Used to run the CPU-built binaries on a
# machine without Qt/HDF5/FFTW installed (a lent GPU machine, a scanner PC).
#
#   packaging/bundle.sh OUTDIR BINARY...
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUTDIR BINARY..." >&2
  exit 2
fi
out=$1
shift
mkdir -p "$out/bin" "$out/lib"
# The C runtime and the GPU driver must come from the target machine, and so do the CUDA 13
# runtime libraries (cudart, cuFFT: hundreds of MB, installed with the toolkit or driver there).
# The OpenGL dispatch libraries (libglvnd) must match the target's GL vendor libraries too.
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|libresolv\.so|libcuda\.so|libnvidia|libcudart|libcufft|libGL\.so|libGLX|libGLdispatch|libOpenGL|libEGL)'
copy_dependencies() {
  ldd "$1" | awk '/=> \// {print $1, $3}' | while read -r name path; do
    if ! [[ $name =~ $skip ]] && [ ! -e "$out/lib/$name" ]; then
      cp -fL "$path" "$out/lib/$name"
    fi
  done
}
for binary in "$@"; do
  cp -f "$binary" "$out/bin/"
  copy_dependencies "$binary"
done
qt_plugins=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
for plugin in platforms/libqxcb.so platforms/libqoffscreen.so \
  xcbglintegrations/libqxcb-glx-integration.so xcbglintegrations/libqxcb-egl-integration.so; do
  if [ -e "$qt_plugins/$plugin" ]; then
    mkdir -p "$out/plugins/$(dirname "$plugin")"
    cp -fL "$qt_plugins/$plugin" "$out/plugins/$plugin"
    copy_dependencies "$qt_plugins/$plugin"
  fi
done
# The GL vendor libraries taken from the target (NVIDIA's libGLX_nvidia, Mesa's libGLX_mesa) need
# these X11 client libraries (NVIDIA's also DRI3 and Present), which a machine without a desktop lacks.
for name in libXext.so.6 libXfixes.so.3 libxcb-dri3.so.0 libxcb-present.so.0 libdrm.so.2; do
  # awk reads to the end: an early exit would stop ldconfig with SIGPIPE, which pipefail reports.
  path=$(ldconfig -p | awk -v n="$name" '$1 == n && /x86-64/ && !found {print $NF; found = 1}')
  if [ -n "$path" ] && [ ! -e "$out/lib/$name" ]; then
    cp -fL "$path" "$out/lib/$name"
  fi
done
cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# run.sh PROGRAM [ARGS...]: runs bin/PROGRAM with the bundled libraries.
here=$(cd "$(dirname "$0")" && pwd)
cuda_lib=/usr/local/cuda/lib64
export LD_LIBRARY_PATH="$here/lib${cuda_lib:+:$cuda_lib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_PLUGIN_PATH="$here/plugins"
program=$1
shift
exec "$here/bin/$program" "$@"
RUN
chmod +x "$out/run.sh"
du -sh "$out"
