#!/usr/bin/env bash
# Makes a relocatable bundle of built Cineflow programs: bin/ with the executables, lib/ with every
# shared library they need that is not part of the C runtime or the GPU driver, and run.sh that
# starts a bundled program with LD_LIBRARY_PATH set. Used to run the CPU-built binaries on a
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
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|libcuda\.so|libnvidia|libcudart|libcufft)'
for binary in "$@"; do
  cp -f "$binary" "$out/bin/"
  ldd "$binary" | awk '/=> \// {print $1, $3}' | while read -r name path; do
    if ! [[ $name =~ $skip ]] && [ ! -e "$out/lib/$name" ]; then
      cp -fL "$path" "$out/lib/$name"
    fi
  done
done
cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# run.sh PROGRAM [ARGS...]: runs bin/PROGRAM with the bundled libraries.
here=$(cd "$(dirname "$0")" && pwd)
cuda_lib=/usr/local/cuda/lib64
export LD_LIBRARY_PATH="$here/lib${cuda_lib:+:$cuda_lib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
program=$1
shift
exec "$here/bin/$program" "$@"
RUN
chmod +x "$out/run.sh"
du -sh "$out"
