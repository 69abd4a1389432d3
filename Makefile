# Articula: the two set-up commands are `make demo` and `make test`.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# New build folders use Ninja, and the libraries compile as unity builds (CMake's
# CMAKE_UNITY_BUILD: a library's sources in batches of 8 per translation unit, so that Eigen's
# templates are instantiated and optimised once per batch rather than once per file; the tests
# and benchmarks stay file by file, see tests/CMakeLists.txt). Measured 2026-11-26 (Release, gcc
# 12): the core library 590 s of CPU instead of 1040 s, the Python module 31 s instead of 119 s.
# UNITY=OFF suits incremental work, where one changed file recompiles its whole batch.
UNITY ?= ON
# -G Ninja for a new folder only: CMake refuses another generator for an existing one.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)
CONFIGURE = cmake -S . -DCMAKE_UNITY_BUILD=$(UNITY)

.PHONY: all deps build demo test test-asan test-tsan fuzz test-browser bench bench-table bench-car bench-truck bench-precision bench-gradient bench-peers clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(CONFIGURE) -B $(BUILD) $(call generator,$(BUILD)) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# The main job: simulate the four-bar, write out/results.csv, out/summary.json, out/animation.html.
demo: build
	$(BUILD)/bin/articula simulate models/four_bar.yaml --t-end 10 --out out

# The whole test suite (unit, simulation, command line).
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer share one clang build folder
# (ASAN_BUILD): the test suite under the sanitizers (test-asan) and the fuzz drivers (fuzz) link
# the same objects, so CI compiles the library twice (Release, sanitizers) rather than three
# times. clang rather than gcc: libFuzzer is part of clang, and clang compiled the same unity
# batch under ASan at -O1 in 66 s of CPU where gcc took 96 s (2026-11-26).
# Sanitizer builds compile at -O1 with line tables only (-g1): stack traces keep file:line, and
# the compiler needs less than half the CPU time of -O2 -g.
SANITIZER_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1"
SANITIZER_BUILD = scripts/install-deps.sh clang libclang-rt-14-dev && \
  CXX=clang++ $(CONFIGURE) -B $(ASAN_BUILD) $(call generator,$(ASAN_BUILD)) $(SANITIZER_FLAGS) \
  -DARTICULA_FUZZ=ON -DARTICULA_BUILD_BENCH=OFF

# The whole suite under the sanitizers, but for the tests labelled heavy (whole optimisations of
# the examples and long formulation sweeps, whose code the smaller tests run too:
# ARTICULA_HEAVY_TESTS in tests/CMakeLists.txt) and the browser test (its subject is the page's
# JavaScript in Chromium; the C++ that writes the page runs under the sanitizers in the
# animation tests).
test-asan: deps
	$(SANITIZER_BUILD)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -LE 'heavy|browser'

# The whole suite under ThreadSanitizer: the race check for the parallel code paths (manual,
# not in CI): the OpenMP finite-difference tangent, which the ForceDerivatives tests run on 2
# and 3 threads. (GCC's libgomp is not built for TSan: expect reports from inside it.)
TSAN_BUILD ?= build-tsan
test-tsan: deps
	$(CONFIGURE) -B $(TSAN_BUILD) $(call generator,$(TSAN_BUILD)) $(SANITIZER_FLAGS) -DARTICULA_SANITIZE_THREAD=ON -DARTICULA_BUILD_BENCH=OFF
	cmake --build $(TSAN_BUILD) -j $(JOBS)
	cd $(TSAN_BUILD) && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS)

# libFuzzer on the model loaders (YAML, URDF), the problem loader, the sweep's cases table and the
# command-line parser, built in the sanitizers' folder: first the stored corpora as a regression,
# then FUZZ_SECONDS of fuzzing per target. Inputs found are kept in $(ASAN_BUILD)/found-*/ (not in
# the source tree); a crash or hang leaves crash-*/timeout-* files there and fails the target.
# Copy such inputs into tests/fuzz/<target>/ once fixed.
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SANITIZER_BUILD)
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target fuzz_model_yaml fuzz_model_urdf fuzz_cli_args fuzz_problem_yaml fuzz_sweep_cases
	scripts/run-fuzzers.sh $(ASAN_BUILD) $(FUZZ_SECONDS)

# The animation pages in headless Chromium (the ctest label `browser`, part of `make test` too):
# no console errors or network requests, playback, WebGL pixels, plots; screenshots in $(BUILD)/browser/.
test-browser: build
	@scripts/install-deps.sh chromium
	cd $(BUILD) && ctest -L browser --output-on-failure

# Benchmarks are built without assertions (like the peers' Debian release builds) and without the
# Python module, whose position-independent code would change the timings. $(BENCH_BUILD) TARGETS
# configures that build and builds TARGETS.
BENCH_BUILD = $(CONFIGURE) -B $(BUILD)-bench $(call generator,$(BUILD)-bench) -DCMAKE_BUILD_TYPE=Release \
  -DARTICULA_ASSERTIONS=OFF -DARTICULA_BUILD_TESTS=OFF -DARTICULA_PYTHON=OFF && cmake --build $(BUILD)-bench -j $(JOBS) --target
BENCH_KERNELS = bench_dynamics bench_semi_recursive bench_force_derivatives bench_coordinate_partitioning bench_divide_and_conquer
bench: deps
	$(BENCH_BUILD) $(BENCH_KERNELS)
	for b in $(BENCH_KERNELS); do $(BUILD)-bench/bin/$$b --benchmark_repetitions=5 --benchmark_report_aggregates_only=true; done

# Formulation x integrator whole runs on the closed-loop models (docs/benchmarks.md, seed 001 Tables 4-7).
bench-table: deps
	$(BENCH_BUILD) formulation_table
	$(BUILD)-bench/bin/formulation_table

# Seed 001's Tables 3-7 on the car (models/car.yaml) and the truck (models/truck.yaml): the fastest
# acceptable run of every formulation x integrator family over the time-step x basic-parameter
# sweep, at the Newton tolerance VEHICLE_NEWTON; bench-truck adds seed 004's Tables 1-2 (whole
# slalom runs on 1 and 2 threads, one Newton iteration step by step). The full grids (the car's
# about 15 minutes, the truck's about 40, on an idle machine) are written into docs/benchmarks.md's
# generated blocks (scripts/doc_block.py); VEHICLE_TABLE_FLAGS (--quick: every fifth parameter and
# every second step; --only FORMULATION) makes a partial run, which only prints its table.
VEHICLE_NEWTON ?= 1e-6
VEHICLE_TABLE_FLAGS ?=
# $(call vehicle_table,MODEL,BLOCK): the table, printed as it grows, then written into BLOCK.
vehicle_table = bash -o pipefail -c '$(BUILD)-bench/bin/vehicle_table --newton $(VEHICLE_NEWTON) $(VEHICLE_TABLE_FLAGS) $(1) \
  | tee $(BUILD)-bench/$(2).md' $(if $(VEHICLE_TABLE_FLAGS),,&& scripts/doc_block.py docs/benchmarks.md $(2) \
  "make $@ VEHICLE_NEWTON=$(VEHICLE_NEWTON)" < $(BUILD)-bench/$(2).md)
bench-car: deps
	$(BENCH_BUILD) vehicle_table
	$(call vehicle_table,models/car.yaml,car-tables)
bench-truck: deps
	$(BENCH_BUILD) vehicle_table truck_slalom
	$(call vehicle_table,models/truck.yaml,truck-tables)
	ARTICULA_TRUCK_DT=0.05 ARTICULA_TRUCK_NEWTON=$(VEHICLE_NEWTON) $(BUILD)-bench/bin/truck_slalom --benchmark_repetitions=5 \
	  --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$(BUILD)-bench/truck-steps.json
	scripts/truck_steps_table.py $(BUILD)-bench/truck-steps.json | tee $(BUILD)-bench/truck-steps.md
	$(if $(VEHICLE_TABLE_FLAGS),,scripts/doc_block.py docs/benchmarks.md truck-steps \
	  "make bench-truck VEHICLE_NEWTON=$(VEHICLE_NEWTON)" < $(BUILD)-bench/truck-steps.md)

# Seed 000's single-precision study: HDCA in float and double, explicit Euler (docs/benchmarks.md).
bench-precision: deps
	$(BENCH_BUILD) precision_study
	$(BUILD)-bench/bin/precision_study

# Trajectory gradients: one gradient over one forward run by each method (docs/benchmarks.md).
bench-gradient: deps
	$(BENCH_BUILD) gradient_cost
	$(BUILD)-bench/bin/gradient_cost

bench-peers: deps
	@scripts/install-peers.sh
	cmake -S bench/peers -B $(BUILD)-peers -DCMAKE_BUILD_TYPE=Release -DARTICULA_ROOT=$(CURDIR)
	cmake --build $(BUILD)-peers -j $(JOBS)
	$(BUILD)-peers/peers --car

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(BUILD)-peers $(BUILD)-bench out
