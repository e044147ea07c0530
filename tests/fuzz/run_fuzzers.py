#!/usr/bin/env python3
"""Runs every fuzz harness of the fuzz build over its corpus (make fuzz).

    run_fuzzers.py BUILD_DIR [--runs N] [--seconds S] [--data DIR] [--only NAME] [--jobs J]

Each harness (BUILD_DIR/tests/fuzz/fuzz_*) runs for at least N inputs (libFuzzer's -runs), or for
S seconds when S > 0, over BUILD_DIR/corpus/<harness>, which make_fuzz_seeds fills first from the
real recordings in DIR (the repository's data/) and typical files; tests/fuzz/<name>.dict is its
dictionary. The runs are deterministic (a fixed -seed).

What stops a harness is a crash, a leak, a timeout (10 s per input), an allocation of 1 GiB or more,
a resident set past 2 GiB, or undefined behaviour. The input that did it stays in BUILD_DIR/artifacts.
A stop whose log names no stack (a library built with a stack protector aborting on its own smashed
stack: libFuzzer's abort handler then faults printing that stack) is run again alone under gdb,
whose stack names where (when it does not stop it again, a stack protector's abort is a shared
library's: the harness itself has no canaries). It is then told apart:

* in Cineflow's own code (the first frame of its stack that is not the sanitizers', libFuzzer's or
  the C and C++ runtimes' lies in Cineflow; frames are told apart by their module, which the
  sanitizers are asked to print, and a frame in another shared library by its caller): a defect,
  and the run fails;
* inside HDF5 or matio, called from one of Cineflow's readers, on a damaged file: a defect of that
  library which Cineflow cannot mend (known_library_defects.txt names the ones seen). It is
  counted and kept (BUILD_DIR/artifacts/library/), and the harness goes on from where it stopped,
  with the next seed, until it has run its inputs (an input of the corpus that did it leaves the
  corpus, or it would stop every restart). A library defect not in that list fails the run, so
  that a new one is looked at; so does the same input stopping it twice, or more than
  LIBRARY_FINDS_LIMIT restarts.

J harnesses run at once (default: one per core). Prints one line per harness as it ends: the
inputs it ran and what it found. Exit status 1 when any failed.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
LIBRARIES = ("libhdf5", "libmatio")
# Restarts after known library defects one harness may take: past it the run fails, as a sign
# that something keeps stopping it rather than that the libraries are fragile.
LIBRARY_FINDS_LIMIT = 100
# Frames that are the machinery around a defect, not where it is, by their function's name...
MACHINERY = re.compile(
    r"__interceptor_|__asan|__sanitizer|__lsan|__ubsan|fuzzer::|"
    r"\bmalloc\b|\bcalloc\b|\brealloc\b|operator new|LLVMFuzzerTestOneInput|/fuzz_")
# ...or by their module: the C and C++ runtimes. A machine with the C library's debugging symbols
# (libc6-dbg, which gdb recommends) names its frames by their glibc source file, not by libc.so.6,
# so a frame's module is asked for explicitly (STACK_FORMAT) and never read from its text.
RUNTIME = re.compile(r"/(libc|libm|libpthread|libdl|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so[^/]*$")
# Every stack frame the sanitizers print ends with its module in braces, found or not.
STACK_FORMAT = 'stack_trace_format="    #%n %p %F %L {%m}"'
FRAME = re.compile(
    r"^\s*#\d+ 0x[0-9a-f]+ +(?:in (?P<where>.*?)|(?P<rest>.*?))(?: \{(?P<module>[^}]*)\})?$")


def known_defects():
    """Signatures (library function, kind) from known_library_defects.txt."""
    known = {}
    for line in (HERE / "known_library_defects.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            signature, _, why = line.partition("|")
            known[signature.strip()] = why.strip()
    return known


def classify(log):
    """('cineflow', text) | ('library', signature) | ('unknown', text) for the defect in `log`."""
    kind = "crash"
    if "*** stack smashing detected ***" in log:  # glibc: a stack protector's canary was hit
        kind = "stack-smashing"
    elif "*** buffer overflow detected ***" in log:  # glibc: a _FORTIFY_SOURCE check failed
        kind = "buffer-overflow"
    elif "ERROR: libFuzzer: timeout" in log:
        kind = "timeout"
    elif "out-of-memory" in log or "requested allocation size" in log:
        kind = "memory"
    elif "LeakSanitizer" in log:
        kind = "leak"
    if re.search(r"out-of-memory \(used: ", log):
        # The resident set ran past -rss_limit_mb with no single allocation past -malloc_limit_mb:
        # the stacks libFuzzer prints are what is live then, not what grew.
        return "unknown", "memory: the resident set passed 2048 MiB (no single allocation named)"
    match = re.search(r"^(\S+:\d+:\d+): runtime error: (.*)$", log, re.M)
    if match:  # undefined behaviour: only Cineflow's code is instrumented
        return "cineflow", f"undefined behaviour at {match.group(1)}: {match.group(2)}"
    report = log[log.find("==ERROR") if "==ERROR" in log else log.find("ERROR: libFuzzer"):]
    frames = []  # (where or None, module or "") of the first stack, innermost first; where: the
    for line in report.splitlines():  # function, then its source line or module and offset
        frame = FRAME.match(line)
        if frame:
            frames.append((frame.group("where"), frame_module(frame)))
        elif frames:
            break  # the first stack only
    frames = [(where, module) for where, module in frames
              if not MACHINERY.search(f"{where or ''} {module}") and not RUNTIME.search(module)]
    # Another shared library (zlib, szip, LZ4...) is judged by who called it: HDF5 decoding a
    # damaged chunk, or Cineflow passing it sizes.
    frames = [(where, module) for where, module in frames
              if not (module_library(module) is None and ".so" in pathlib.Path(module).name)]
    if not frames:
        return "unknown", f"{kind} (no stack in the log)"
    library = module_library(frames[0][1])
    if library is None:
        return "cineflow", f"{kind} in {frames[0][0] or frames[0][1]}"
    # The library's innermost named function (frames without symbols show only an offset).
    for where, module in frames:
        if module_library(module) != library:
            break
        if where:
            return "library", f"{library} {where.split(' ')[0]} {kind}"
    return "library", f"{library} ? {kind}"


def frame_module(frame):
    """The module of a parsed stack frame: the braces STACK_FORMAT adds, or else the module a
    frame without symbols shows in parentheses ("(/usr/lib/libhdf5.so+0x1234)")."""
    if frame.group("module"):
        return frame.group("module")
    named = re.search(r"\((/[^)+]*)\+0x[0-9a-f]+\)", frame.group("where") or frame.group("rest"))
    return named.group(1) if named else ""


def module_library(module):
    """The library of LIBRARIES that `module` (a path) is, or None."""
    name = pathlib.Path(module).name
    return next((library for library in LIBRARIES if name.startswith(library)), None)


def refused_allocation(harness, artifact):
    """The log of `artifact` run again with a refused allocation fatal, so that its stack says
    which allocation it was."""
    environment = {**os.environ, "ASAN_OPTIONS": f"allocator_may_return_null=0:{STACK_FORMAT}"}
    try:
        result = subprocess.run([str(harness), "-rss_limit_mb=4096", "-malloc_limit_mb=1024",
                                 artifact], capture_output=True, text=True, errors="replace",
                                env=environment, timeout=300)
    except subprocess.TimeoutExpired:
        return ""
    return result.stdout + result.stderr


def backtrace_alone(harness, artifact):
    """The log of `artifact` run alone under gdb, with the stack of the thread the signal stopped
    in the sanitizers' format (gdb_backtrace.py); empty without gdb. gdb walks a stack smashed by
    an overflow as far as it can, where the sanitizer's unwinder faults."""
    if shutil.which("gdb") is None:
        return ""
    # LeakSanitizer cannot stop the world under a debugger: leaks are not what is looked for here.
    environment = {**os.environ, "ASAN_OPTIONS": "allocator_may_return_null=1:detect_leaks=0"}
    try:
        result = subprocess.run(["gdb", "-q", "-batch", "-nx", "-ex", "run", "-ex",
                                 f"source {HERE / 'gdb_backtrace.py'}", "--args", str(harness),
                                 "-rss_limit_mb=2048", "-malloc_limit_mb=1024", artifact],
                                capture_output=True, text=True, errors="replace",
                                env=environment, timeout=300)
    except subprocess.TimeoutExpired:
        return ""
    return result.stdout + result.stderr


def has_stack_protector(harness):
    """Whether `harness` itself (Cineflow's code and libFuzzer's, linked in) checks stack canaries:
    clang builds the fuzz preset without them, so glibc's "stack smashing detected" can only come
    from a shared library it calls."""
    result = subprocess.run(["nm", "-u", str(harness)], capture_output=True, text=True)
    return result.returncode != 0 or "__stack_chk_fail" in result.stdout


def executed_units(log):
    found = re.findall(r"stat::number_of_executed_units: *(\d+)", log)
    if found:
        return int(found[-1])
    progress = re.findall(r"^#(\d+)\s", log, re.M)
    return int(progress[-1]) if progress else 0


def run_harness(harness, build, runs, seconds, known):
    name = harness.name
    corpus = build / "corpus" / name
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts = build / "artifacts"
    (artifacts / "library").mkdir(parents=True, exist_ok=True)
    log_path = build / f"{name}.log"
    log_path.write_text("")
    dictionary = HERE / f"{name[len('fuzz_'):]}.dict"
    executed, seed, library_finds, stopped_by = 0, 1, [], set()
    deadline = time.monotonic() + seconds
    while True:
        options = [f"-seed={seed}", "-timeout=10", "-rss_limit_mb=2048", "-malloc_limit_mb=1024",
                   "-print_final_stats=1", f"-artifact_prefix={artifacts}/{name}-"]
        if seconds > 0:
            options.append(f"-max_total_time={max(1, round(deadline - time.monotonic()))}")
        else:
            options.append(f"-runs={max(1, runs - executed)}")
        if dictionary.exists():
            options.append(f"-dict={dictionary}")
        result = subprocess.run([str(harness), *options, str(corpus)], capture_output=True,
                                text=True, errors="replace")
        log = result.stdout + result.stderr
        with log_path.open("a") as out:
            out.write(log)
        executed += executed_units(log)
        if result.returncode == 0:
            return True, executed, library_finds
        where, what = classify(log)
        artifact = re.search(r"Test unit written to (\S+)", log)
        alone = artifact.group(1) if artifact and pathlib.Path(artifact.group(1)).exists() else None
        # A stop whose log does not say where is run again alone, in the way that names it:
        rerun = None
        if what.startswith("memory: the resident set"):
            # the resident set grew past its limit without an allocation past -malloc_limit_mb
            # being reported while fuzzing (a huge one refused, null to the library's own error
            # handling, or one whose pages were filled afterwards): with every allocation of
            # 1 GiB or more fatal, the stack names who asked;
            rerun = refused_allocation
        elif what.endswith("(no stack in the log)"):
            rerun = backtrace_alone  # under gdb, which walks even a smashed stack.
        if rerun and alone:
            again = rerun(harness, alone)
            where_again, what_again = classify(again)
            if where_again != "unknown":
                where, what, log = where_again, what_again, log + again
            elif what.startswith("stack-smashing") and not has_stack_protector(harness):
                # Not stopped again alone (what the smashed canary held depended on the inputs
                # before). The harness's own code has no canaries: a shared library's did it.
                where, what = "library", "shared-library ? stack-smashing"
        known_defect = where == "library" and any(fnmatch.fnmatchcase(what, pattern) for pattern in known)
        digest = ""
        if known_defect and artifact and pathlib.Path(artifact.group(1)).exists():
            found = pathlib.Path(artifact.group(1))
            digest = hashlib.sha1(found.read_bytes()).hexdigest()
            shutil.move(found, artifacts / "library" / found.name)
            # An input of the corpus (libFuzzer names them by their SHA-1) that stopped the
            # harness would stop it again at each restart, while the corpus is read: it leaves.
            (corpus / digest).unlink(missing_ok=True)
        if known_defect and digest not in stopped_by and len(library_finds) < LIBRARY_FINDS_LIMIT:
            stopped_by.add(digest)
            library_finds.append(what)
            seed += 1
            if (executed >= runs) if seconds == 0 else (time.monotonic() >= deadline):
                return True, executed, library_finds
            continue
        print(f"--- {name}, the end of its log ({log_path}):\n{log[-6000:]}", file=sys.stderr,
              flush=True)
        reproducer = artifact.group(1) if artifact else "(none written)"
        if known_defect and digest in stopped_by:
            label = f"the same input ({digest}) stopped the harness twice, in a known library defect"
        elif known_defect:
            label = f"more than {LIBRARY_FINDS_LIMIT} inputs hit known library defects"
        elif where == "library":
            label = "a new library defect (add it to known_library_defects.txt once looked at)"
        else:
            label = "a defect"
        return False, executed, [f"{label}: {what}; reproducer {reproducer}"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", type=pathlib.Path)
    parser.add_argument("--runs", type=int, default=10000)
    parser.add_argument("--seconds", type=int, default=0)
    parser.add_argument("--data", type=pathlib.Path, default=HERE.parent.parent / "data")
    parser.add_argument("--only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="harnesses run at once (default: one per core)")
    args = parser.parse_args()
    build = args.build.resolve()
    # A huge allocation HDF5 or matio asks for while reading a damaged file returns null, as it
    # does outside the sanitizer, so that their own error handling is what runs; an allocation of
    # 1 GiB or more that succeeds still stops the harness (-malloc_limit_mb: below the resident
    # limit, so that what asks for too much is caught where it asks, with its stack). tests/lsan.supp says which leaks are not Cineflow's.
    os.environ["ASAN_OPTIONS"] = f"allocator_may_return_null=1:{STACK_FORMAT}"
    os.environ["LSAN_OPTIONS"] = f"suppressions={HERE.parent / 'lsan.supp'}:print_suppressions=0"
    seeds = [str(build / "tests/fuzz/make_fuzz_seeds"), str(build / "corpus")]
    if not (args.data / "field2_pw3_points.h5").is_file():
        sys.exit(f"run_fuzzers: {args.data} lacks the real recordings (data/README.md)")
    seeds.append(str(args.data))
    # The seed writer is built like the harnesses; the libraries it writes with keep a few bytes
    # until exit, which is not what is fuzzed.
    subprocess.run(seeds, check=True, env={**os.environ, "ASAN_OPTIONS": "detect_leaks=0"})
    known = known_defects()
    harnesses = [harness for harness in sorted((build / "tests/fuzz").glob("fuzz_*"))
                 if os.access(harness, os.X_OK) and (not args.only or harness.name == args.only)]
    failed = False
    # The harnesses are independent (a corpus, a log and artifacts named by each): one per core.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = {pool.submit(run_harness, harness, build, args.runs, args.seconds, known): harness
                for harness in harnesses}
        for done in concurrent.futures.as_completed(runs):
            name = runs[done].name
            ok, executed, finds = done.result()
            failed |= not ok
            if ok:
                extra = f"; {len(finds)} inputs hit known library defects ({', '.join(sorted(set(finds)))})" \
                    if finds else ""
                print(f"{name}: {executed} inputs, nothing new found{extra}", flush=True)
            else:
                print(f"{name}: FAILED after {executed} inputs: {finds[0]}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
