#!/usr/bin/env bash
# The GPU sweep: on a machine with an NVIDIA GPU and the bundle tools/gpu_bundle.sh made, runs
# every GPU test, compute-sanitizer (memcheck on each, racecheck and synccheck on the kernel
# tests), the benchmarks, cineflow tune, the GUI's GPU paths under Xvfb with NVIDIA's GLX and the
# Python module's foreign-array path, and writes one table of figures against their goals:
#
#   gpu_sweep.sh BUNDLE_DIR OUT_DIR [--quick]
#
# OUT_DIR gets at most 8 files: table.md (figure, measured, goal, verdict, command), summary.txt
# (the machine, the progress lines, the time taken), logs.tar.gz (one log per step) and the
# screenshots (and, where the machine has Nsight Systems or Compute, their profiles of the chains in
# the logs). Every step has a timeout and a failure never stops the sweep; the whole run keeps
# within CINEFLOW_SWEEP_BUDGET_S seconds (default 420, or 200 with --quick), the unpacking
# included: steps that no longer fit are skipped and say so. Without a CUDA device (no GPU, no
# driver) the GPU steps are skipped, saying why, and the rest still runs: the bundle's programs
# start, the GUI tests run on Mesa, the Python tests on the CPU backend.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUNDLE_DIR OUT_DIR [--quick]" >&2 && exit 2; }
bundle=$(cd "$1" && pwd)
out=$2
quick=0
[ "${3:-}" = "--quick" ] && quick=1
mkdir -p "$out"
out=$(cd "$out" && pwd)
t0=$(date +%s.%N)
budget=${CINEFLOW_SWEEP_BUDGET_S:-$([ $quick = 1 ] && echo 200 || echo 420)}
work=$(mktemp -d "${TMPDIR:-/tmp}/cineflow-sweep.XXXXXX")
logs=$work/logs
mkdir -p "$logs" "$work/cache" "$work/artefacts" "$work/home"
progress=$work/progress.txt
section=tests  # the table's rows go to rows.SECTION, printed in a fixed order at the end

elapsed() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}'; }
left() { echo $((budget - $(elapsed))); }
say() { printf '[%4ss] %s\n' "$(elapsed)" "$*" | tee -a "$progress"; }
# row FIGURE MEASURED GOAL VERDICT COMMAND
row() { printf '| %s | %s | %s | %s | `%s` |\n' "$1" "$2" "$3" "$4" "$5" >>"$work/rows.$section"; }

{
  echo "Cineflow GPU sweep, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -srm), $(nproc) cores"
  echo "bundle: $bundle; budget ${budget} s; quick=$quick"
} >>"$progress"

# --- The bundle -------------------------------------------------------------------------------
if [ -f "$bundle/payload.tar.xz" ]; then
  b=$work/bundle
  mkdir -p "$b"
  LD_LIBRARY_PATH="$bundle/xz" "$bundle/xz/xz" -dc "$bundle/payload.tar.xz" | tar -xf - -C "$b"
  say "unpacked the bundle ($(du -sh "$b" | cut -f1)) into $b"
else
  b=$bundle
fi
# The bundle's C++ runtime only where the machine's is older than the one it was built with.
libraries=$(ldconfig -p 2>/dev/null)
system_cxx=$(echo "$libraries" | awk '/libstdc\+\+\.so\.6 .*x86-64/ && !found {print $NF; found = 1}')
if [ -n "$system_cxx" ] && [ -e "$b/lib/libstdc++.so.6" ]; then
  if ! comm -23 <(grep -ao 'GLIBCXX_3\.4\.[0-9]*' "$b/lib/libstdc++.so.6" | sort -u) \
    <(grep -ao 'GLIBCXX_3\.4\.[0-9]*' "$system_cxx" | sort -u) | grep -q .; then
    mkdir -p "$b/lib-unused"
    mv "$b/lib/libstdc++.so.6" "$b/lib/libgcc_s.so.1" "$b/lib-unused/" 2>/dev/null
  fi
fi
# The CUDA runtime libraries the programs link (cudart, cuFFT) come from the machine's toolkit,
# else from wherever else they are (a Python package's copy).
cuda_libs=""
for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib \
  /usr/local/cuda-*/lib64; do
  [ -d "$dir" ] && cuda_libs="$cuda_libs:$dir"
done
for name in $(objdump -p "$b/bin/cineflow" 2>/dev/null | awk '$1 == "NEEDED" && /libcu/ {print $2}'); do
  if ! ls ${cuda_libs//:/ } 2>/dev/null | grep -qx "$name" && ! grep -q "$name" <<<"$libraries"; then
    found=$(find /usr/local /opt /usr/lib -name "$name" 2>/dev/null | head -n 1)
    [ -n "$found" ] && cuda_libs="$cuda_libs:$(dirname "$found")"
  fi
done
lib_path="$b/lib$cuda_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
py=("$b/py/bin/python3")
export CINEFLOW_CACHE_DIR=$work/cache CINEFLOW_TEST_ARTEFACTS=$work/artefacts \
  CINEFLOW_DATA_DIR=$b/data CINEFLOW_TEST_DATA_DIR=$b/testdata \
  CINEFLOW_APP=$b/bin/cineflow QT_PLUGIN_PATH=$b/plugins HOME=$work/home \
  XDG_RUNTIME_DIR=$work/home PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
# The GUI's text: the bundle's fonts (the device machine has no fontconfig configuration, and
# without one every letter in a screenshot is a box).
[ -e "$b/fonts/fonts.conf" ] && export FONTCONFIG_FILE=$b/fonts/fonts.conf
chmod 700 "$work/home"
# Prefixes that run a bundled program, or the bundled Python, with the bundle's libraries.
bundled=(env LD_LIBRARY_PATH="$lib_path")
python_env=(env LD_LIBRARY_PATH="$lib_path" PYTHONHOME="$b/py" PYTHONNOUSERSITE=1
  PYTHONPATH="$b/py/site:$b/python")

# --- The machine ------------------------------------------------------------------------------
gpu=0
nvsmi=$(command -v nvidia-smi || true)
if [ -n "$nvsmi" ]; then
  smi=$(timeout 20 nvidia-smi -L 2>&1 | head -n 4)
  timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,pcie.link.gen.max,pcie.link.width.max \
    --format=csv >>"$progress" 2>&1
else
  smi="nvidia-smi: not found"
fi
foreign=$bundle/gpu_foreign_array.py
[ -e "$foreign" ] || foreign=$(cd "$(dirname "$0")" && pwd)/gpu_foreign_array.py
count=$(timeout 60 "${python_env[@]}" "${py[@]}" "$foreign" --count 2>&1 | tail -n 1)
if [[ $count =~ cudaGetDeviceCount:\ ([1-9][0-9]*)$ ]] && [[ $smi == GPU* ]]; then
  gpu=1
  say "GPU: $(echo "$smi" | head -n 1); $count"
else
  nogpu="no CUDA device (nvidia-smi / cudaGetDeviceCount)"
  say "skipping the GPU parts: no CUDA device (nvidia-smi: $(echo "$smi" | head -n 1 | cut -c1-80); $count)"
fi

# Runs one step: step NAME TIMEOUT COMMAND... with its output in logs/NAME.log. Returns the
# command's status (124 when it timed out, 125 when the budget had no room left for it).
step() {
  local name=$1 limit=$2 room status began
  shift 2
  room=$(($(left) - 10))
  if [ "$room" -lt 15 ]; then
    echo "not run: the sweep's ${budget} s budget was spent" >"$logs/$name.log"
    say "$name: not run (budget spent)"
    return 125
  fi
  [ "$limit" -gt "$room" ] && limit=$room
  began=$(elapsed)
  echo "\$ $*" >"$logs/$name.log"
  timeout -k 5 "$limit" "$@" >>"$logs/$name.log" 2>&1
  status=$?
  [ $status = 124 ] && echo "TIMED OUT after $limit s" >>"$logs/$name.log"
  say "$name: exit $status in $(($(elapsed) - began)) s"
  return $status
}
# The verdict of a Qt Test run from its log: passed, failed or skipped (every function skipped).
qt_verdict() {
  local log=$1 status=$2 totals
  totals=$(grep -a '^Totals:' "$log" | tail -n 1)
  if [ "$status" = 125 ]; then echo "skipped: out of time"
  elif [ "$status" = 124 ]; then echo "failed: timed out"
  elif [ -z "$totals" ]; then echo "failed: exit $status, no Qt Test totals"
  elif [ "$status" != 0 ] || ! [[ $totals =~ \ 0\ failed ]]; then echo "failed"
  elif [[ $totals =~ Totals:\ [0-2]\ passed.*\ [1-9][0-9]*\ skipped ]]; then echo "skipped"
  else echo "met"
  fi
}
totals_of() { grep -a '^Totals:' "$1" | tail -n 1 | sed 's/^Totals: //; s/, [0-9]* blacklisted//; s/, [0-9.]*ms$//'; }
# number LOG PATTERN: the first number after PATTERN (an extended regex) in LOG.
number() { grep -aoE "$2 *[-+0-9.e]+" "$1" | head -n 1 | grep -oE '[-+]?[0-9][0-9.]*(e[-+]?[0-9]+)?$'; }
# json FILE KEY: a top-level number of a bench --json file.
json() { sed -nE "s/^ *\"$2\": *([-+0-9.eE]+|null),?$/\1/p" "$1" | head -n 1; }
# at_least VALUE GOAL -> met/missed (VALUE empty: failed).
at_least() {
  if [ -z "$1" ]; then echo "failed: no figure in the log"
  elif awk -v v="$1" -v g="$2" 'BEGIN {exit !(v + 0 >= g + 0)}'; then echo "met"
  else echo "missed"
  fi
}
ratio() { awk -v a="$1" -v b="$2" -v s="${3:-1}" 'BEGIN {if (b + 0 == 0) exit 1; printf "%.4g", s * a / b}'; }
skip_gpu() { row "$1" "—" "$2" "skipped: $nogpu" "$3"; }

frames() { if [ $quick = 1 ]; then echo $(($1 / 10)); else echo "$1"; fi; }

kernel_tests=(test_cuda_stages test_cuda_oct test_cuda_chunk_decode test_cuda_mip_tile
  test_cuda_volume_bricks test_cuda_doppler test_cuda_received test_device_code test_lz4_device_code)
engine_tests=(test_cuda_volumes test_cuda_pipeline)
gpu_tests=()
for t in "${kernel_tests[@]}" "${engine_tests[@]}"; do
  [ -x "$b/bin/$t" ] && gpu_tests+=("$t")
done
for t in "$b"/bin/test_cuda_*; do
  t=$(basename "$t")
  [[ " ${gpu_tests[*]} " == *" $t "* ]] || gpu_tests+=("$t")
done

# --- 1. The GPU tests -------------------------------------------------------------------------
gpu_test_runs() {
  local section=tests
  say "GPU tests: ${gpu_tests[*]}"
  for t in "${gpu_tests[@]}"; do
    step "$t" 120 env LD_LIBRARY_PATH="$lib_path" "$b/bin/$t"
    status=$?
    verdict=$(qt_verdict "$logs/$t.log" $status)
    [ $gpu = 0 ] && [[ $verdict == skipped* ]] && verdict="skipped: $nogpu"
    row "GPU test $t" "$(totals_of "$logs/$t.log")" "passes" "$verdict" "$t"
  done
}

# --- 2. Benchmarks ------------------------------------------------------------------------------
benchmarks() {
  local section=bench
  if [ $gpu = 1 ]; then
    n=$(frames 3000)
    cmd="cineflow bench --backend cuda --modality oct --frames $n"
    step bench_oct 90 "${bundled[@]}" "${cf[@]}" bench --backend cuda --modality oct --frames "$n"
    v=$(number "$logs/bench_oct.log" 'reached')
    row "OCT chain, A-scans/s against the pinned host-to-device bound (1024 A-scans x 2048 samples)" \
      "${v:-—} % ($(number "$logs/bench_oct.log" 'A-scans/s') A-scans/s)" ">= 85 %" "$(at_least "$v" 85)" "$cmd"

    # Each recording at the default 8 KiB blocks and at 2 KiB (--block-size: four times the blocks
    # for the decoder's warps).
    for spec in ultrasound oct ultrasound:2048 oct:2048; do
      modality=${spec%%:*}
      block=${spec#*:}
      [ "$block" = "$spec" ] && block=
      n=$(frames $([ $modality = oct ] && echo 100 || echo 300))
      name=bench_compressed_$modality${block:+_$block}
      label="$modality${block:+, $block-byte blocks}"
      cmd="cineflow bench --backend cuda --compressed --modality $modality --frames $n${block:+ --block-size $block}"
      step $name 120 "${bundled[@]}" "${cf[@]}" bench --backend cuda --compressed --modality $modality --frames "$n" \
        ${block:+--block-size "$block"}
      v=$(number "$logs/$name.log" 'decode \(replay.s decoder, CUDA kernel\):')
      row "CUDA chunk decoder ($label), decoded output" "${v:-—} GB/s" ">= 100 GB/s" "$(at_least "$v" 100)" "$cmd"
      v=$(grep -aoE 'bitshuffle-lz4 +[0-9.]+ frames/s \([0-9.]+' "$logs/$name.log" | grep -oE '[0-9.]+$')
      row "compressed replay ($label) against the uncompressed file's" "${v:-—} %" ">= 100 %" "$(at_least "$v" 100)" "$cmd"
    done

    n=$(frames 3000)
    cmd="cineflow bench --backend cuda --frames $n --json default.json"
    step bench_default 90 "${bundled[@]}" "${cf[@]}" bench --backend cuda --frames "$n" --json "$logs/bench_default.json"
    v=$(json "$logs/bench_default.json" beamform_points_per_s 2>/dev/null)
    row "beamformer, default preset (248 x 958 pixels x 128 elements x 3 transmits)" "${v:-—} points/s ($(json "$logs/bench_default.json" frames_per_s 2>/dev/null) frames/s end to end)" \
      ">= 1.0e12 points/s" "$(at_least "$v" 1e12)" "$cmd"
    mip=$(json "$logs/bench_default.json" mip_ms_per_volume 2>/dev/null)

    cmd="cineflow bench --backend cuda --mode iq --frames $n --json iq.json"
    step bench_iq 90 "${bundled[@]}" "${cf[@]}" bench --backend cuda --mode iq --frames "$n" --json "$logs/bench_iq.json"
    v=$(json "$logs/bench_iq.json" beamform_points_per_s 2>/dev/null)
    row "I/Q beamformer, default preset" "${v:-—} points/s ($(json "$logs/bench_iq.json" frames_per_s 2>/dev/null) frames/s)" \
      "— (measured)" "$([ -n "$v" ] && echo measured || echo "failed: no figure")" "$cmd"

    n=$(frames 1000)
    cmd="cineflow bench --backend cuda --preset course --frames $n --json course.json"
    step bench_course 90 "${bundled[@]}" "${cf[@]}" bench --backend cuda --preset course --frames "$n" --json "$logs/bench_course.json"
    v=$(json "$logs/bench_course.json" fraction_of_h2d_bound 2>/dev/null)
    [ -n "$v" ] && v=$(awk -v f="$v" 'BEGIN {printf "%.1f", 100 * f}')
    row "course preset, frames/s against the pinned host-to-device bound (12.6 MB frames)" \
      "${v:-—} % ($(json "$logs/bench_course.json" frames_per_s 2>/dev/null) frames/s)" "— (measured)" \
      "$([ -n "$v" ] && echo measured || echo "failed: no figure")" "$cmd"

    n=$(frames 1000)
    cmd="cineflow bench --backend cuda --mode doppler --frames $n --json doppler.json"
    step bench_doppler 90 "${bundled[@]}" "${cf[@]}" bench --backend cuda --mode doppler --frames "$n" --json "$logs/bench_doppler.json"
    f=$logs/bench_doppler.json
    e=$(json "$f" doppler_ensembles_per_s 2>/dev/null)
    d=$(sed -nE 's/.*"name": "doppler".*"median_ms": ([0-9.eE+-]+).*/\1/p' "$f" 2>/dev/null | head -n 1)
    bf=$(sed -nE 's/.*"name": "beamform".*"median_ms": ([0-9.eE+-]+).*/\1/p' "$f" 2>/dev/null | head -n 1)
    if [ -n "$d" ] && [ -n "$bf" ]; then
      verdict=$(awk -v d="$d" -v b="$bf" 'BEGIN {print (d < b) ? "met" : "missed"}')
    else
      verdict="failed: no figure"
    fi
    row "colour Doppler (default preset, 16-frame sliding ensemble): Doppler stage against the I/Q beamformer" \
      "doppler ${d:-—} ms, beamform ${bf:-—} ms per frame; ${e:-—} ensembles/s" "Doppler stage < beamformer" "$verdict" "$cmd"

    cmd="cineflow-mip-floor"
    step mip_floor 60 "${bundled[@]}" "$b/bin/cineflow-mip-floor"
    m=$(number "$logs/mip_floor.log" 'MIPs \(MipProjector\)')
    r=$(number "$logs/mip_floor.log" 'read once, no compute')
    x=$(ratio "$m" "$r" 2>/dev/null)
    verdict="failed: no figure"
    [ -n "$x" ] && verdict=$(awk -v x="$x" 'BEGIN {print (x <= 1.1) ? "met" : "missed"}')
    row "MIPs of a 16 x 958 x 248 volume against a kernel that only reads it" \
      "${m:-—} ms vs ${r:-—} ms = ${x:-—} x (bench: ${mip:-—} ms per volume)" "<= 1.1 x" "$verdict" "$cmd"

    cmd="cineflow tune --backend cuda"
    step tune 90 "${bundled[@]}" "${cf[@]}" tune --backend cuda
    status=$?
    chosen=$(grep -aic 'chosen' "$logs/tune.log")
    row "cineflow tune --backend cuda (default preset)" "exit $status; $chosen lines naming a choice (see tune.log)" \
      "runs, every stage measured" "$([ $status = 0 ] && echo met || echo failed)" "$cmd"
  else
    skip_gpu "OCT chain against the pinned host-to-device bound" ">= 85 %" "cineflow bench --backend cuda --modality oct"
    for modality in ultrasound oct; do
      skip_gpu "CUDA chunk decoder ($modality)" ">= 100 GB/s" "cineflow bench --backend cuda --compressed --modality $modality"
      skip_gpu "compressed replay ($modality) against uncompressed" ">= 100 %" "cineflow bench --backend cuda --compressed --modality $modality"
    done
    skip_gpu "beamformer, default preset" ">= 1.0e12 points/s" "cineflow bench --backend cuda"
    skip_gpu "I/Q beamformer, default preset" "— (measured)" "cineflow bench --backend cuda --mode iq"
    skip_gpu "course preset against the host-to-device bound" "— (measured)" "cineflow bench --backend cuda --preset course"
    skip_gpu "colour Doppler stage against the I/Q beamformer" "Doppler stage < beamformer" "cineflow bench --backend cuda --mode doppler"
    skip_gpu "MIPs against a kernel that only reads the volume" "<= 1.1 x" "cineflow-mip-floor"
    skip_gpu "cineflow tune --backend cuda" "runs" "cineflow tune --backend cuda"
    # The bundled executable still has to start here.
    step cineflow_version 30 "${bundled[@]}" "${cf[@]}" --version
    status=$?
    row "the bundled cineflow starts" "$(head -n 2 "$logs/cineflow_version.log" | tail -n 1)" "runs" \
      "$([ $status = 0 ] && echo met || echo failed)" "cineflow --version"
  fi
}

# --- 3. Python: the foreign GPU array, the module's tests ---------------------------------------
python_checks() {
  local section=python
  if [ -x "${py[0]}" ]; then
    cmd="python3 gpu_foreign_array.py"
    step foreign_array 90 "${python_env[@]}" "${py[@]}" "$foreign"
    status=$?
    if [ $status = 0 ]; then verdict=met
    elif [ $status = 77 ]; then verdict="skipped: $([ $gpu = 0 ] && echo "$nogpu" || grep -a '^skipped' "$logs/foreign_array.log")"
    else verdict="failed (exit $status)"
    fi
    row "Python: a foreign GPU array (__cuda_array_interface__ v3, own stream) read in place by cineflow.beamform, its stream waited for" \
      "$(grep -acE '^ok:' "$logs/foreign_array.log") checks ok, $(grep -acE '^FAILED:' "$logs/foreign_array.log") failed" \
      "all checks" "$verdict" "$cmd"
    cmd="python3 -m pytest python/tests/test_device_arrays.py"
    (cd "$work" && step pytest_device_arrays 150 "${python_env[@]}" "${py[@]}" -m pytest -q -p no:cacheprovider \
      "$b/python/tests/test_device_arrays.py")
    status=$?
    result=$(grep -aE '(passed|failed|skipped|error)' "$logs/pytest_device_arrays.log" | tail -n 1 | tr -d '=' | sed 's/^ *//')
    verdict=$([ $status = 0 ] && echo met || echo "failed (exit $status)")
    [ $status = 125 ] && verdict="skipped: out of time"
    [ $gpu = 0 ] && [ $status = 0 ] && verdict="met on the CPU backend; CUDA cases skipped: $nogpu"
    row "Python module's array tests (the CUDA cases where a device answers)" "${result:-—}" "pass" "$verdict" "$cmd"
  else
    row "Python checks" "—" "—" "skipped: the bundle has no Python" "gpu_foreign_array.py"
  fi
}

# --- 4. The GUI under Xvfb: NVIDIA's GLX on a GPU machine, Mesa elsewhere -----------------------
gui_checks() {
  local section=gui
  gui_tests=()
  for t in test_display_path test_volume_view test_volume_3d_gui test_volume_review test_volume_save_all; do
    [ -x "$b/bin/$t" ] && gui_tests+=("$t")
  done
  xvfb_pid=""
  if [ -x "$b/x11/bin/Xvfb" ] && [ ${#gui_tests[@]} -gt 0 ]; then
    # Xvfb runs the keymap compiler from /usr/bin; where there is none, the bundle's.
    if [ ! -x /usr/bin/xkbcomp ] && [ "$(id -u)" = 0 ]; then
      ln -sf "$b/x11/bin/xkbcomp" /usr/bin/xkbcomp
    fi
    display=""
    for n in $(seq 71 89); do
      if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then display=:$n; break; fi
    done
    LD_LIBRARY_PATH="$b/x11/lib:$lib_path" LIBGL_DRIVERS_PATH="$b/x11/dri" GALLIUM_DRIVER=softpipe \
      DRAW_USE_LLVM=0 "$b/x11/bin/Xvfb" "$display" -screen 0 1920x1200x24 -nolisten tcp \
      -xkbdir "$b/x11/share/xkb" +extension GLX >"$logs/xvfb.log" 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 1 50); do
      [ -e "/tmp/.X11-unix/X${display#:}" ] && break
      sleep 0.2
    done
    if kill -0 "$xvfb_pid" 2>/dev/null && [ -e "/tmp/.X11-unix/X${display#:}" ]; then
      say "Xvfb on $display"
    else
      say "Xvfb did not start (xvfb.log)"
      xvfb_pid=""
    fi
  fi
  gui_env=(env LD_LIBRARY_PATH="$lib_path" DISPLAY="${display:-:0}" QT_QPA_PLATFORM=xcb)
  [ $gpu = 1 ] && gui_env+=(__GLX_VENDOR_LIBRARY_NAME=nvidia CINEFLOW_REQUIRE_GL_INTEROP=1)
  if [ -n "$xvfb_pid" ]; then
    for t in "${gui_tests[@]}"; do
      extra=()
      [ $t = test_volume_view ] && [ $gpu = 1 ] && extra=(CINEFLOW_MEASURE_3D=512)
      # The main-window tests on the CUDA backend: volumes buffered, reviewed, saved and shown
      # in 3-D from device memory, and the window's teardown after that.
      [[ $t =~ ^test_volume_(3d_gui|review|save_all)$ ]] && [ $gpu = 1 ] && extra=(CINEFLOW_GUI_TEST_BACKEND=cuda)
      step "$t" 150 "${gui_env[@]}" "${extra[@]}" "$b/bin/$t"
      status=$?
      verdict=$(qt_verdict "$logs/$t.log" $status)
      measured=$(totals_of "$logs/$t.log")
      if [ $t = test_display_path ]; then
        path=$(grep -aoE 'display path: .*' "$logs/$t.log" | tail -n 1 | cut -c15-)
        upload=$(grep -aoE '[0-9.]+ ms per texture upload' "$logs/$t.log" | tail -n 1)
        measured="$measured; ${path:-—}; ${upload:-—}"
        [ $gpu = 0 ] && [ "$verdict" = met ] && verdict="met on the host path; the interop case skipped: $nogpu"
      fi
      row "GUI test $t (Xvfb, $([ $gpu = 1 ] && echo "NVIDIA GLX" || echo "Mesa")${extra[0]:+, ${extra[0]}})" "$measured" "passes" "$verdict" "$t"
      if [ $t = test_volume_view ]; then
        for mode in 0 1 2; do
          label=$(echo "maximum intensity;volume rendering;iso-surface" | cut -d';' -f$((mode + 1)))
          if [ $gpu = 1 ]; then
            v=$(grep -aoE "512\^3 at 1920 x 1080, mode $mode: [0-9.]+" "$logs/$t.log" | grep -oE '[0-9.]+$')
            row "3-D view frame rate, 512^3 float volume at 1920 x 1080, $label" "${v:-—} frames/s" ">= 60 frames/s" \
              "$(at_least "$v" 60)" "CINEFLOW_MEASURE_3D=512 test_volume_view measureFrameRate"
          else
            skip_gpu "3-D view frame rate, 512^3 at 1920 x 1080, $label" ">= 60 frames/s" "CINEFLOW_MEASURE_3D=512 test_volume_view"
          fi
        done
      fi
    done
    if [ $gpu = 1 ]; then
      shot=$work/artefacts/main-window-cuda.png
      cmd="cineflow --backend cuda --input sim --screenshot main-window-cuda.png --after-frames 60"
      step screenshot 90 "${gui_env[@]}" "${cf[@]}" --backend cuda --input sim --screenshot "$shot" --after-frames 60
      status=$?
      if [ $status = 0 ] && [ -s "$shot" ]; then
        row "main window on the CUDA backend, screenshot" "main-window-cuda.png, $(($(stat -c %s "$shot") / 1024)) KiB" "written" "met" "$cmd"
      else
        row "main window on the CUDA backend, screenshot" "exit $status" "written" "failed" "$cmd"
      fi
    else
      skip_gpu "main window on the CUDA backend, screenshot" "written" "cineflow --backend cuda --screenshot"
    fi
  else
    for t in "${gui_tests[@]}"; do
      row "GUI test $t" "—" "passes" "skipped: Xvfb did not start (xvfb.log)" "$t"
    done
  fi
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
}

# --- 5. compute-sanitizer, in parallel, in what time is left -----------------------------------
sanitizer_runs() {
  local section=sanitizer
  sanitizer=$(command -v compute-sanitizer || true)
  for candidate in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer \
    /usr/local/cuda-*/bin/compute-sanitizer /opt/nvidia/*/compute-sanitizer; do
    [ -z "$sanitizer" ] && [ -x "$candidate" ] && sanitizer=$candidate
  done
  runs=()
  # test_device_code and test_lz4_device_code run the device functions compiled for the host:
  # they launch no kernel, so a sanitizer has nothing to check there.
  for t in "${kernel_tests[@]}"; do
    [[ $t == test_cuda_* ]] && [ -x "$b/bin/$t" ] && runs+=("memcheck $t")
  done
  if [ $quick = 0 ]; then
    for tool in racecheck synccheck; do
      for t in "${kernel_tests[@]}"; do
        [[ $t == test_cuda_* ]] && [ -x "$b/bin/$t" ] && runs+=("$tool $t")
      done
    done
    for t in "${engine_tests[@]}"; do
      [ -x "$b/bin/$t" ] && runs+=("memcheck $t")
    done
  fi
  if [ $gpu = 1 ] && [ -n "$sanitizer" ]; then
    say "compute-sanitizer ($sanitizer): ${#runs[@]} runs, 8 at a time, $(left) s left"
    running=0
    for r in "${runs[@]}"; do
      set -- $r
      if [ "$running" -ge 8 ]; then
        wait -n
        running=$((running - 1))
      fi
      step "$1_$2" 240 env LD_LIBRARY_PATH="$lib_path" "$sanitizer" --tool "$1" --print-limit 20 "$b/bin/$2" &
      running=$((running + 1))
    done
    wait
    for r in "${runs[@]}"; do
      set -- $r
      log=$logs/$1_$2.log
      summary=$(grep -aE '(ERROR|RACECHECK) SUMMARY' "$log" | tail -n 1 | sed 's/^========= //')
      test_totals=$(totals_of "$log")
      if grep -aq '^not run' "$log"; then verdict="skipped: out of time"
      elif grep -aq '^TIMED OUT' "$log"; then verdict="failed: $(grep -a '^TIMED OUT' "$log")"
      elif [[ $summary =~ SUMMARY:\ 0\ (errors|hazards) ]] && [[ $test_totals =~ \ 0\ failed ]]; then verdict=met
      elif [ -z "$summary" ]; then verdict="failed: no sanitizer summary"
      else verdict=missed
      fi
      row "compute-sanitizer $1 on $2" "${summary:-—}; test: ${test_totals:-—}" "0 errors, 0 hazards" "$verdict" "compute-sanitizer --tool $1 $2"
    done
  elif [ $gpu = 1 ]; then
    row "compute-sanitizer" "—" "0 errors" "skipped: compute-sanitizer not found on this machine" "compute-sanitizer"
  else
    for r in "${runs[@]}"; do
      set -- $r
      skip_gpu "compute-sanitizer $1 on $2" "0 errors, 0 hazards" "compute-sanitizer --tool $1 $2"
    done
  fi
}

# --- 6. Where the time goes, for the speed work (logs only): Nsight Systems on the OCT chain and
# the compressed replay, Nsight Compute on the beamformer's, the decoder's and the MIP's kernels,
# where the machine has them and time is left.
profiles() {
  local section=profile nsys="" ncu="" candidate
  [ $gpu = 1 ] && [ $quick = 0 ] || return 0
  for candidate in $(command -v nsys) /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys \
    /usr/local/cuda/nsight-systems-*/bin/nsys; do
    [ -z "$nsys" ] && [ -x "$candidate" ] && nsys=$candidate
  done
  for candidate in $(command -v ncu) /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu \
    /usr/local/cuda/nsight-compute-*/ncu; do
    [ -z "$ncu" ] && [ -x "$candidate" ] && ncu=$candidate
  done
  say "profilers: nsys ${nsys:-not found}; ncu ${ncu:-not found}"
  if [ -n "$nsys" ]; then
    step nsys_oct 90 "${bundled[@]}" "$nsys" profile --stats=true --force-overwrite=true \
      -o "$work/nsys_oct" "${cf[@]}" bench --backend cuda --modality oct --frames 500
    step nsys_compressed 90 "${bundled[@]}" "$nsys" profile --stats=true --force-overwrite=true \
      -o "$work/nsys_compressed" "${cf[@]}" bench --backend cuda --compressed --modality ultrasound --frames 100
  fi
  if [ -n "$ncu" ]; then
    local sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis)
    step ncu_beamform 90 "${bundled[@]}" "$ncu" --kernel-name 'regex:dasKernel|mipTileKernel' --launch-skip 10 \
      --launch-count 4 "${sections[@]}" "${cf[@]}" bench --backend cuda --frames 40
    step ncu_decoder 90 "${bundled[@]}" "$ncu" --kernel-name 'regex:decodeChunkKernel' --launch-skip 5 \
      --launch-count 2 "${sections[@]}" "${cf[@]}" bench --backend cuda --compressed --modality ultrasound --frames 20
    step ncu_oct 90 "${bundled[@]}" "$ncu" --kernel-name 'regex:Kernel' --launch-skip 30 \
      --launch-count 8 "${sections[@]}" "${cf[@]}" bench --backend cuda --modality oct --frames 40
  fi
}

# --- The order: the measurements on a quiet machine first, then the sanitizers beside the tests -
# cineflow links the OpenGL dispatch (libOpenGL, libGLX): a GPU machine without a desktop lacks it,
# so the bundle's libglvnd goes in first, before anything runs cineflow.
if [ $gpu = 1 ] && ! grep -q 'libOpenGL\.so\.0' <<<"$libraries" && [ "$(id -u)" = 0 ] &&
  compgen -G "$b/gl/*.deb" >/dev/null; then
  for deb in "$b"/gl/*.deb; do dpkg -x "$deb" /; done
  ldconfig
  libraries=$(ldconfig -p 2>/dev/null)
  say "unpacked libglvnd ($(ls "$b"/gl/*.deb | wc -l) packages) into /"
fi
cf=("$b/bin/cineflow")
benchmarks
gui_checks
sanitizer_runs &
sanitizers=$!
gpu_test_runs
python_checks
wait "$sanitizers"
profiles

# --- The table, the summary, the logs ------------------------------------------------------------
total=$(elapsed)
rows=$(for part in tests sanitizer bench gui python; do cat "$work/rows.$part" 2>/dev/null; done)
count_of() { echo "$rows" | grep -c "$1"; }
{
  echo "# Cineflow GPU sweep"
  echo
  echo "$(head -n 1 "$progress"). $([ $gpu = 1 ] && echo "$smi" | head -n 1 || grep -m1 'skipping the GPU parts' "$progress" | cut -c8-). Took $total s (budget $budget s)."
  echo
  echo "| figure | measured | goal | verdict | command |"
  echo "| --- | --- | --- | --- | --- |"
  echo "$rows"
  echo
  printf 'Verdicts: %s met, %s missed, %s failed, %s skipped, %s measured (no goal).\n' \
    "$(count_of '| met')" "$(count_of '| missed |')" "$(count_of '| failed')" \
    "$(count_of '| skipped')" "$(count_of '| measured |')"
} >"$out/table.md"
say "done in $total s: $out/table.md; $(tail -n 1 "$out/table.md")"
cp "$progress" "$out/summary.txt"
cp "$out/table.md" "$logs/table.md"
cp "$progress" "$logs/progress.txt"
for image in main-window-cuda.png test_display_path_cuda.png; do
  [ -s "$work/artefacts/$image" ] && cp "$work/artefacts/$image" "$out/$image"
done
tar -czf "$out/logs.tar.gz" -C "$work" logs
rm -rf "$work"
grep -E '^\| (figure|---)' -v "$out/table.md" | grep -E '^\|' | cut -d'|' -f2,3,5 | head -n 80
echo "Verdicts: see $out/table.md"
