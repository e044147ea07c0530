#!/usr/bin/env python3
"""Checks run_fuzzers.py's triage (`classify`) on stacks the sanitizer really prints: small programs
built here with clang and AddressSanitizer, as the fuzz preset builds its harnesses, stop in the
C library's memcpy called from their own code, from a shared library named like HDF5's, from
another library called by that one, and from their own code alone. Whether the C library's frames
carry their glibc source lines (libc6-dbg installed) or only their module, the verdict is the
same: the triage reads a frame's module, never its text.

    test_triage.py        (CTest: fuzz_triage; skips, exit 77, without clang-14)
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # the source tree stays as cloned
sys.path.insert(0, str(HERE))
import run_fuzzers  # noqa: E402

CLANG = shutil.which("clang-14") or shutil.which("clang")

# A library that copies from an address it was handed (a pointer read from a damaged file).
LIBRARY = r"""
#include <string.h>
void inner_copy(char* to, const char* from, size_t n) { memcpy(to, from, n); }
void H5fake_read(char* to, const char* from, size_t n) { inner_copy(to, from, n); }
"""
# Another shared library, called only by the first one.
CODEC = r"""
#include <string.h>
void codec_decode(char* to, const char* from, size_t n) { memcpy(to, from, n); }
"""
LIBRARY_WITH_CODEC = r"""
#include <stddef.h>
void codec_decode(char* to, const char* from, size_t n);
void H5fake_filter(char* to, const char* from, size_t n) { codec_decode(to, from, n); }
"""
PROGRAM = r"""
#include <stdlib.h>
#include <string.h>
void H5fake_read(char* to, const char* from, size_t n);
void H5fake_filter(char* to, const char* from, size_t n);
void codec_decode(char* to, const char* from, size_t n);
__attribute__((noinline)) void reader_of_cineflow(char* to, const char* from, size_t n, int how) {
  if (how == 0) memcpy(to, from, n);          /* its own bug */
  else if (how == 1) H5fake_read(to, from, n);  /* the library's */
  else if (how == 2) H5fake_filter(to, from, n);  /* the library's, through a codec */
  else codec_decode(to, from, n);              /* the codec called by Cineflow's code */
}
int main(int argc, char** argv) {
  char buffer[64];
  reader_of_cineflow(buffer, (const char*)0x10, 48, atoi(argv[1]));
  return buffer[0];
}
"""


class Triage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = pathlib.Path(tempfile.mkdtemp(prefix="cineflow-triage-"))
        for name, text in (("codec", CODEC), ("hdf5_fake", LIBRARY)):
            (cls.folder / f"{name}.c").write_text(text)
            subprocess.run([CLANG, "-g", "-O0", "-fPIC", "-shared", "-o",
                            str(cls.folder / f"lib{name}.so"), str(cls.folder / f"{name}.c")],
                           check=True)
        (cls.folder / "filter.c").write_text(LIBRARY_WITH_CODEC)
        subprocess.run([CLANG, "-g", "-O0", "-fPIC", "-shared", "-o",
                        str(cls.folder / "libhdf5_filter_fake.so"), str(cls.folder / "filter.c"),
                        f"-L{cls.folder}", "-lcodec"], check=True)
        (cls.folder / "program.c").write_text(PROGRAM)
        cls.program = cls.folder / "program"
        subprocess.run([CLANG, "-g", "-O1", "-fsanitize=address", "-o", str(cls.program),
                        str(cls.folder / "program.c"), f"-L{cls.folder}", "-lhdf5_fake",
                        "-lhdf5_filter_fake", "-lcodec", f"-Wl,-rpath,{cls.folder}"], check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def stop(self, how):
        environment = {**os.environ,
                       "ASAN_OPTIONS": f"allocator_may_return_null=1:{run_fuzzers.STACK_FORMAT}"}
        result = subprocess.run([str(self.program), str(how)], capture_output=True, text=True,
                                errors="replace", env=environment)
        self.assertNotEqual(result.returncode, 0, "the program was to stop on a bad address")
        log = result.stdout + result.stderr
        self.assertIn("memcpy", log, log)
        return log

    def test_own_code_is_a_defect(self):
        where, what = run_fuzzers.classify(self.stop(0))
        self.assertEqual(where, "cineflow")
        self.assertTrue(what.startswith("crash in reader_of_cineflow"), what)

    def test_a_library_copying_from_a_damaged_address_is_the_library(self):
        self.assertEqual(run_fuzzers.classify(self.stop(1)),
                         ("library", "libhdf5 inner_copy crash"))

    def test_a_codec_called_by_the_library_is_the_library(self):
        self.assertEqual(run_fuzzers.classify(self.stop(2)),
                         ("library", "libhdf5 H5fake_filter crash"))

    def test_a_codec_called_by_cineflow_is_a_defect(self):
        where, what = run_fuzzers.classify(self.stop(3))
        self.assertEqual(where, "cineflow")
        self.assertTrue(what.startswith("crash in reader_of_cineflow"), what)

    def test_the_c_library_named_by_its_sources_is_not_where(self):
        # The frames of a machine with libc6-dbg (CI's log of 2026-11-30): memcpy named by its
        # glibc source file, the caller a library without symbols.
        log = "\n".join([
            "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x7f0000000000",
            "    #0 0x7f1 in __memcpy_avx512_unaligned_erms "
            "string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:273 "
            "{/lib/x86_64-linux-gnu/libc.so.6}",
            "    #1 0x5f2 in __asan_memcpy (/build/fuzz_oct_recording+0xa2561) "
            "(BuildId: 78) {/build/fuzz_oct_recording}",
            "    #2 0x7f3 in H5HG_read (/lib/x86_64-linux-gnu/libhdf5_serial.so.103+0x1f2) "
            "(BuildId: 11) {/lib/x86_64-linux-gnu/libhdf5_serial.so.103}",
            "    #3 0x5f4 in cineflow::io::readAttribute(long) /src/engine/io/h5.cpp:12:3 "
            "{/build/fuzz_oct_recording}",
            ""])
        self.assertEqual(run_fuzzers.classify(log), ("library", "libhdf5 H5HG_read crash"))


if __name__ == "__main__":
    if CLANG is None:
        print("SKIP: clang is not installed (packaging/install-deps.sh installs clang-14)")
        sys.exit(77)
    unittest.main()
