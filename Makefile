# Cineflow's two entry points (README, Quick start):
#   make run   installs what is missing, builds, starts the GUI on the built-in simulator
#   make test  installs what is missing, builds, runs every test (GUI tests under xvfb-run)
# Further targets: make build, make sanitize (engine tests under asan+ubsan and tsan; CI runs it
# after make test), make package (the Debian package, into build/<preset>/packages), make fuzz
# (every libFuzzer harness, FUZZ_RUNS inputs each or FUZZ_SECONDS each), make docs (the manual in
# docs/ as a site, every link checked: build/<preset>/docs-site/index.html), make screenshots (its
# pictures, docs/images, taken of the window this build draws), make clean.
# CUDA_ARCHITECTURES=... builds the CUDA code for those GPUs only (CI: one).

PRESET ?= release
JOBS ?= $(shell nproc)
BUILD_DIR := build/$(PRESET)
CINEFLOW := $(BUILD_DIR)/app/cineflow
# CUDA_ARCHITECTURES: the GPUs the CUDA code is compiled for (CMake's CUDA architecture names, e.g.
# 90 or "80-real;90"); empty: the default set (cmake/CineflowCuda.cmake). CI, which has no GPU,
# compiles every kernel for one architecture only.
CUDA_ARCHITECTURES ?=
# ccache (packaging/install-deps.sh installs it) keeps compilations between builds and clones: a
# cache from an earlier run makes a rebuild mostly lookups. Asked for at every configure, after
# deps has run, so that a tree is configured with it from the start and never rebuilt for it.
LAUNCHER := $$(command -v ccache >/dev/null && echo -DCMAKE_C_COMPILER_LAUNCHER=ccache \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
# The tests share a precompiled header (tests/CMakeLists.txt): ccache caches its users only when
# told that a header precompiled from the same sources is the same.
export CCACHE_SLOPPINESS := pch_defines,time_macros,include_file_mtime,include_file_ctime
CMAKE_ARGS := $(LAUNCHER) $(if $(CUDA_ARCHITECTURES),-DCINEFLOW_CUDA_ARCHITECTURES="$(CUDA_ARCHITECTURES)")

.PHONY: deps configure build run test sanitize package fuzz docs screenshots clean

deps:
	@bash packaging/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) $(CMAKE_ARGS) >/dev/null || cmake --preset $(PRESET) $(CMAKE_ARGS)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

# Without a display the window runs under xvfb-run, where nobody sees it: say so, say how to stop
# it, and how to image without a window instead.
run: build
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "make run: no display (DISPLAY and WAYLAND_DISPLAY are unset): the window runs under"; \
	  echo "          xvfb-run, where nothing is visible, until you press Ctrl+C."; \
	  echo "          To image without a window (one sweep of the simulator into out.h5):"; \
	  echo "          $(CINEFLOW) --headless --input sim --output out.h5"; \
	  xvfb-run -a -s "-screen 0 1600x1000x24" $(CINEFLOW) --input sim; \
	else \
	  $(CINEFLOW) --input sim; \
	fi

test: build
	ctest --preset $(PRESET) -j $(JOBS)

# The sanitizer builds reuse the release build's simulator cache (synthesis under TSan is slow):
# warm it first with one headless frame.
sanitize: build
	CINEFLOW_CACHE_DIR=build/release/tests/cache $(CINEFLOW) --headless --backend cpu --input sim \
	  --frames 1 --output build/release/sim-cache-warmup.h5 >/dev/null
	cmake --preset asan-ubsan $(LAUNCHER) >/dev/null && cmake --build --preset asan-ubsan -j $(JOBS)
	ctest --preset asan-ubsan -j $(JOBS)
	cmake --preset tsan $(LAUNCHER) >/dev/null && cmake --build --preset tsan -j $(JOBS)
	ctest --preset tsan -j $(JOBS)

# Every fuzz harness (tests/fuzz) for FUZZ_RUNS inputs each, or FUZZ_SECONDS each when set; the
# seed corpora come from the real recordings in data/.
FUZZ_RUNS ?= 10000
FUZZ_SECONDS ?= 0
fuzz: deps
	cmake --preset fuzz $(LAUNCHER) >/dev/null && cmake --build --preset fuzz -j $(JOBS)
	python3 tests/fuzz/run_fuzzers.py build/fuzz --runs $(FUZZ_RUNS) --seconds $(FUZZ_SECONDS) \
	  --jobs $(JOBS)

# The .deb from the build tree (cmake/CineflowPackaging.cmake says what it holds).
package: build
	cd $(BUILD_DIR) && cpack --config CPackConfig.cmake

# The manual (mkdocs.yml, docs/) with its generated pages: the command-line reference from this
# build's --help texts, the Python API from its module's docstrings (tools/docs/build_docs.py).
docs: build
	python3 -B tools/docs/build_docs.py $(BUILD_DIR) $(BUILD_DIR)/docs-site

# The README's and the manual's pictures (docs/images), taken of the window this build draws.
screenshots: build
	tools/docs/screenshots.sh $(BUILD_DIR) docs/images

clean:
	rm -rf build
