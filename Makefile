# Makefile -- the front door.  `make demo` builds libtether and runs the example;
# `make test` runs every test.  Each target is a thin wrapper over CMake and CTest, so
# anything here can also be done by hand (see README.md).

# Quieter nested makes (cmake --build runs make).
MAKEFLAGS += --no-print-directory

# A literal comma (for lists inside $(call ...) arguments) and a space.
, := ,
empty :=
space := $(empty) $(empty)

CMAKE ?= cmake
CTEST ?= ctest
JOBS ?= 2
# Extra flags for every configure, e.g. CMAKE_FLAGS=-DCMAKE_BUILD_TYPE=Debug
CMAKE_FLAGS ?=

BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
BUILD_FUZZ ?= build-fuzz
BUILD_UPSTREAM ?= build-upstream

# (tests/valgrind.cmake adds --error-exitcode to tell valgrind errors from test failures.)
# --fair-sched=yes: valgrind runs one thread at a time, and without a fair lock a thread
# that waits by spinning can keep the others from ever running.
VALGRIND ?= valgrind --fair-sched=yes --leak-check=full --errors-for-leak-kinds=definite
# Test programs run under ThreadSanitizer (the ones that start threads).
TSAN_TESTS ?= ffi_test_threads ffi_test_env ffi_test_object testing_test_testing
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 20
# libFuzzer's -seed: empty picks a fresh random seed per run; CI pins one so that a run is
# reproducible (longer random campaigns: make fuzz FUZZ_SECONDS=600).
FUZZ_SEED ?=
FUZZ_TARGETS := $(filter-out fuzz_driver,$(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c))))
FUZZ_CMAKE_FLAGS := -DCMAKE_C_COMPILER=$(FUZZ_CC) -DTETHER_FUZZ=ON \
                    -DTETHER_SANITIZE=fuzzer-no-link$(,)address$(,)undefined

# `make test` runs these suites in order; a new suite (e.g. test-python) is added here.
TEST_SUITES := test-c test-python

# TSan needs a non-randomised address space on kernels with high mmap entropy.
NO_ASLR := $(shell setarch $$(uname -m) -R true >/dev/null 2>&1 && echo setarch $$(uname -m) -R)

# $(call configure_build,<dir>,<cmake flags>[,<targets>])
configure_build = $(CMAKE) -S . -B $(1) $(2) $(CMAKE_FLAGS) && \
                  $(CMAKE) --build $(1) -j$(JOBS) $(if $(3),--target $(3))

.PHONY: all build demo demo-c test $(TEST_SUITES) test-asan test-valgrind test-tsan fuzz bench clean

all: build

build:
	$(call configure_build,$(BUILD),)

# The main demo: the seed experiment (examples/seed_experiment.py) on tether -- the tether
# package built into the virtualenv (only its build backend is needed, not the test deps).
demo: venv-core
	$(VENV_PY) examples/seed_experiment.py

# The C example of README.md: register a C function, call it with every kind of value, catch an error.
demo-c:
	$(call configure_build,$(BUILD),,example_hello_ffi)
	$(BUILD)/examples/example_hello_ffi

test: $(TEST_SUITES)

# The C suite: every tests/ffi/test_*.c, the examples' output, the fuzz seeds.  -Werror.
# (With the Python virtualenv present, its python runs the tvm-ffi compatibility tests.)
test-c:
	$(call configure_build,$(BUILD),-DTETHER_WERROR=ON $(TETHER_PYTHON_FLAG))
	cd $(BUILD) && $(CTEST) --output-on-failure -j$(JOBS)

test-asan:
	$(call configure_build,$(BUILD_ASAN),-DTETHER_WERROR=ON -DTETHER_SANITIZE=address$(,)undefined)
	cd $(BUILD_ASAN) && $(CTEST) --output-on-failure -j$(JOBS)

# Every CTest test under valgrind (tests/valgrind.cmake; a failing test's output is shown),
# with libtether's block cache off so that valgrind sees every block freed.
test-valgrind:
	$(call configure_build,$(BUILD),-DTETHER_WERROR=ON)
	TETHER_NO_BLOCK_CACHE=1 $(CMAKE) -DBUILD_DIR=$(BUILD) -DCTEST=$(CTEST) \
	  "-DVALGRIND=$(subst $(space),;,$(strip $(VALGRIND)))" -P tests/valgrind.cmake

# (object.c uses an acq_rel decrement instead of a fence under TSan, so -Werror holds.)
test-tsan:
	$(call configure_build,$(BUILD_TSAN),-DTETHER_WERROR=ON -DTETHER_SANITIZE=thread,$(TSAN_TESTS))
	@for t in $(TSAN_TESTS); do \
	  echo "tsan $$t"; $(NO_ASLR) $(BUILD_TSAN)/tests/$$t || exit 1; \
	done

# libFuzzer: each tests/fuzz/fuzz_* for FUZZ_SECONDS, starting from its seed corpus (copied
# into the build dir, where new inputs accumulate).  The library itself is built with
# coverage (fuzzer-no-link) so the fuzzer can see into it.  Only the fuzz targets are built
# (they link the static library; clang's sanitizers do not link into a shared one).
fuzz:
	@if ! printf 'int LLVMFuzzerTestOneInput(const char* d, unsigned long n) { return 0; }\n' | \
	     $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1; then \
	  echo "fuzz: skipped ($(FUZZ_CC) with libFuzzer not found; it needs clang)"; exit 0; fi; \
	set -e; \
	[ -n "$(FUZZ_TARGETS)" ] || { echo "fuzz: no fuzz targets"; exit 0; }; \
	$(call configure_build,$(BUILD_FUZZ),$(FUZZ_CMAKE_FLAGS),$(FUZZ_TARGETS)) || exit 1; \
	n=0; for name in $(FUZZ_TARGETS); do \
	  f=$(BUILD_FUZZ)/tests/fuzz/$$name; n=$$((n + 1)); \
	  mkdir -p $(BUILD_FUZZ)/corpus/$$name $(BUILD_FUZZ)/artifacts; \
	  if [ -d tests/fuzz/corpus/$$name ]; then cp -R tests/fuzz/corpus/$$name/. $(BUILD_FUZZ)/corpus/$$name/; fi; \
	  echo "fuzz $$name for $(FUZZ_SECONDS)s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) $(if $(FUZZ_SEED),-seed=$(FUZZ_SEED)) \
	    -artifact_prefix=$(BUILD_FUZZ)/artifacts/$$name- $(BUILD_FUZZ)/corpus/$$name; \
	done; echo "fuzz: $$n target(s) ran without crashing"

bench:
	$(call configure_build,$(BUILD),)
	@n=0; for b in $(BUILD)/bench/bench_*; do \
	  [ -x "$$b" ] || continue; n=$$((n + 1)); echo "== $${b##*/}"; "$$b" || exit 1; \
	done; [ $$n -gt 0 ] || echo "bench: no benchmarks yet"

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_TSAN) $(BUILD_FUZZ) $(BUILD_UPSTREAM)

# ---- Python: the package in a virtualenv, and its tests ---------------------------------
# `make venv` creates $(VENV) (python3 -m venv), installs the build backend and the test
# dependencies once (PY_TEST_DEPS: pytest, numpy, apache-tvm-ffi, apache-tvm, torch -- the CPU
# torch wheel from local disk, never a CUDA build), then (re)installs tether itself: a regular
# install, built with scikit-build-core in the persistent build-py/ tree, so a re-run only
# rebuilds what changed.  For development, `$(VENV)/bin/pip install --no-build-isolation -e .` instead
# keeps python/tether/*.py live.  `make test-python` runs pytest on tests/python; the module
# tests load the example kernel from $(BUILD).
PYTHON ?= python3
VENV ?= .venv
VENV_PY := $(VENV)/bin/python
PIP_FLAGS ?= --only-binary=torch
# The build backend (the package is built without build isolation) and pyproject.toml's
# `test` extra (keep the two lists the same).
PY_BUILD_DEPS := "scikit-build-core>=0.10"
PY_TEST_DEPS := pytest numpy apache-tvm-ffi==0.1.15.post2 apache-tvm==0.27.0.post1 torch==2.13.0 onnx==1.23.2 onnxruntime==1.32.0 torchvision==0.28.0 onnxscript==0.7.2
# -DTETHER_PYTHON for the C configure, when the virtualenv exists (checked when run).
TETHER_PYTHON_FLAG = $$(test -x $(VENV_PY) && echo -DTETHER_PYTHON=$(abspath $(VENV_PY)))

.PHONY: venv venv-core test-python test-upstream test-upstream-python clean-python

# `make test`: the virtualenv first (so the C suite's compatibility tests run), pytest last.
ifneq ($(filter test,$(MAKECMDGOALS)),)
test-c: venv
test-python: test-c
endif

$(VENV)/.core-deps-installed: Makefile
	test -x $(VENV_PY) || $(PYTHON) -m venv $(VENV)
	$(VENV_PY) -m pip install $(PIP_FLAGS) $(PY_BUILD_DEPS)
	touch $@

$(VENV)/.deps-installed: $(VENV)/.core-deps-installed
	$(VENV_PY) -m pip install $(PIP_FLAGS) $(PY_TEST_DEPS)
	touch $@

# venv-core: the virtualenv with tether installed (what `make demo` needs); venv: plus the
# test dependencies.
venv-core: $(VENV)/.core-deps-installed
	$(VENV_PY) -m pip install --no-build-isolation --no-deps .

venv: $(VENV)/.deps-installed venv-core

test-python: venv venv-tvm
	$(call configure_build,$(BUILD),-DTETHER_WERROR=ON $(TETHER_PYTHON_FLAG),add_one_kernel)
	TETHER_BUILD_DIR=$(abspath $(BUILD)) TETHER_TVM_PYTHON=$(abspath $(TVM_PY)) \
	  $(VENV_PY) -m pytest tests/python -q

clean-python:
	rm -rf $(VENV) $(TVM_VENV) build-py

# ---- the TVM virtualenv: apache-tvm in an interpreter of its own ---------------------------
# The handoff tests (tests/python/test_tvm_handoff.py, tools/tvm_handoff.py,
# examples/tvm_handoff.py) hand modules built with tether to apache-tvm and back: a separate
# interpreter, so that TVM runs on its own apache-tvm-ffi, never beside tether.
# apache-tvm-ffi is pinned to 0.1.14.post1 (apache-tvm 0.27.0.post1 accepts it): under
# 0.1.15.post2, apache-tvm 0.27.0.post1's own tvm.ir.save_json segfaults inside libtvm_ffi for
# any object with a DataType field (ir.PrimType, relax.TensorType, ir.IntImm), i.e. for every
# Relax module; under 0.1.14.post1 it works.
TVM_VENV ?= .venv-tvm
TVM_PY := $(TVM_VENV)/bin/python
TVM_DEPS := apache-tvm==0.27.0.post1 apache-tvm-ffi==0.1.14.post1 numpy onnx==1.23.2

.PHONY: venv-tvm
$(TVM_VENV)/.installed: Makefile
	test -x $(TVM_PY) || $(PYTHON) -m venv $(TVM_VENV)
	$(TVM_PY) -m pip install -q $(TVM_DEPS)
	touch $@

venv-tvm: $(TVM_VENV)/.installed

# The expected results of tests/ir/test_op_infer.c's table, rewritten from apache-tvm 0.27
# (`$(TVM_PY) tools/tvm_op_infer_table.py --check` lists the rows that differ, writing nothing).
.PHONY: op-infer-table
op-infer-table: venv-tvm
	$(TVM_PY) tools/tvm_op_infer_table.py --write

# ---- op-cases: apache-tvm's results for the op cases of tools/op_cases ----------------------
# Runs every case (or one category: make op-cases CAT=nn) on apache-tvm in the TVM virtualenv
# and writes tests/python/data/op_cases/<category>.json (tests/python/test_op_cases.py compares
# tether with them).
CAT ?=
.PHONY: op-cases
op-cases: venv-tvm
	$(TVM_PY) tools/tvm_op_cases.py $(if $(CAT),--category $(CAT))

# tests/python/data/tvm_op_signatures.json: apache-tvm's wrapper signatures for the same ops.
.PHONY: op-signatures
op-signatures: venv-tvm
	$(TVM_PY) tools/tvm_op_signatures.py
# ---- end of op-cases -----------------------------------------------------------------------

# ---- onnx: every ONNX case the onnx package ships, tether against apache-tvm -----------------
# onnx-record: apache-tvm's from_onnx on every case, into tests/python/data/onnx/tvm_corpus.json
# (ONNX_TEXTS=DIR also keeps each printed module).  onnx-diff: tether on every case against that
# record, per group (identical / different / raised / extra), into bench/results/onnx_diff.md.
ONNX_TEXTS ?=
.PHONY: onnx-record onnx-diff
onnx-record: venv-tvm
	$(TVM_PY) tools/onnx_diff.py record $(if $(ONNX_TEXTS),--texts $(ONNX_TEXTS))

onnx-diff: venv venv-core
	$(VENV_PY) tools/onnx_diff.py compare --results bench/results/onnx_diff.md \
	  $(if $(ONNX_TEXTS),--texts $(ONNX_TEXTS))

# onnx-numerics: every case tether imports (ONNX's node tests, the light models with random
# weights, torchvision exports made here), handed to apache-tvm as JSON, compiled for llvm and
# run against the expected outputs; the summary goes to bench/results/onnx_numerics.md, the
# cases' files to build/onnx-numerics.  test-onnx: that, then the ONNX pytest files.
.PHONY: onnx-numerics test-onnx
onnx-numerics: venv venv-core venv-tvm
	TETHER_TVM_PYTHON=$(abspath $(TVM_PY)) $(VENV_PY) tools/onnx_numerics.py \
	  --results bench/results/onnx_numerics.md

test-onnx: onnx-numerics
	TETHER_TVM_PYTHON=$(abspath $(TVM_PY)) $(VENV_PY) -m pytest -q tests/python/test_onnx_*.py

# demo-onnx: light_resnet50 (shipped with the onnx package) imported by tether, the head of its
# TVMScript and the import time (examples/onnx_demo.py).  bench-onnx: from_onnx next to
# apache-tvm's on the light models (and BENCH_ONNX_ARGS, e.g. --extra DIR of more .onnx files;
# bench/python/bench_onnx.py), into bench/results/onnx.md.
BENCH_ONNX_ARGS ?=
.PHONY: demo-onnx bench-onnx
demo-onnx: venv-core
	$(VENV_PY) -m pip install -q "onnx==1.23.2" numpy
	$(VENV_PY) examples/onnx_demo.py

bench-onnx: venv-core venv-tvm
	$(VENV_PY) -m pip install -q "onnx==1.23.2" numpy
	$(VENV_PY) bench/python/bench_onnx.py --tvm-python $(TVM_PY) $(BENCH_ONNX_ARGS)
# ---- end of onnx ---------------------------------------------------------------------------

# apache-tvm-ffi's own C++ suite (tests/cpp of its sdist, downloaded from PyPI into
# $(BUILD_UPSTREAM) at test time), each file built against upstream's libtvm_ffi.so (the
# wheel in the virtualenv) and against libtether (tests/upstream/run.py).  Fails unless every
# test that passes on upstream's library passes on libtether; the table goes to
# bench/results/upstream_cpp.md.  Needs g++ and GoogleTest (Debian: libgtest-dev).
test-upstream: venv
	$(call configure_build,$(BUILD),,tether)
	$(VENV_PY) tests/upstream/run.py --build-dir $(BUILD_UPSTREAM) --tether-lib $(BUILD)/libtether.so \
	  --jobs $(JOBS) --results bench/results/upstream_cpp.md

# apache-tvm-ffi's own Python suite (tests/python of the same sdist) against the installed
# apache-tvm-ffi and against tether through the alias-only shim tests/upstream/shim
# (tests/upstream/run_python.py).  Fails if a test crashes the interpreter under tether or
# tether passes less than UPSTREAM_PY_MIN of the tests tvm_ffi passes; the per-file table
# goes to bench/results/upstream_python.md.
UPSTREAM_PY_MIN ?= 0.995
test-upstream-python: venv
	$(VENV_PY) tests/upstream/run_python.py --build-dir $(BUILD_UPSTREAM) --jobs $(JOBS) \
	  --min-ratio $(UPSTREAM_PY_MIN) --results bench/results/upstream_python.md

# ---- bench-python ------------------------------------------------------------------------
# The Python-boundary benchmark (bench/python/run.sh): its own venv in bench/python/.venv,
# tether installed from this tree, the floor / nanobind / pybind11 columns built for it; writes
# bench/results/python_boundary.md and .png.  BENCH_ARGS passes options (e.g. --quick).
BENCH_ARGS ?=
.PHONY: bench-python
bench-python:
	sh bench/python/run.sh $(BENCH_ARGS)
# ---- end of bench-python -----------------------------------------------------------------

# ---- bench-json --------------------------------------------------------------------------
# save_json / load_json next to apache-tvm 0.27 (bench/python/bench_json.py): tether from the
# virtualenv, apache-tvm in the TVM virtualenv above.  Writes bench/results/json.md.
# BENCH_JSON_ARGS passes options (--quick, --callgrind).
BENCH_JSON_ARGS ?=
.PHONY: bench-json
bench-json: venv-core venv-tvm
	$(VENV_PY) -m pip install -q numpy
	$(VENV_PY) bench/python/bench_json.py --tvm-python $(TVM_PY) $(BENCH_JSON_ARGS)
# ---- end of bench-json -------------------------------------------------------------------
