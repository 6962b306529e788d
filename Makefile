# Front door: make demo | make test | make demo-dev | make test-fast | make build | make bench | make bench-check | make bench-compare | make fuzz | make lint | make format | make docs
# On a fresh Debian machine with Node, the first target you run installs what is missing.

# fuzz-smoke reads PIPESTATUS.
SHELL := /bin/bash
PORT ?= 8080
FUZZ_SECONDS ?= 60
BUILD_TYPE ?= Release
# em++'s optimizer (its tools/acorn-optimizer.js) requires acorn, which Debian's node-acorn
# installs in /usr/share/nodejs, off Node's default search path.
EM_ENV := NODE_PATH=/usr/share/nodejs
# clang 14 was seen to hang on some SIMD kernels: never wait forever for a build.
BUILD_TIMEOUT := timeout 1800

NATIVE_DIR := build/native
WASM_DIR := build/wasm
SAMPLE := demo/sample.safetensors
STAMP_DIR := build/stamps

# Debian packages: the command or file that shows each is present.
APT_CHECKS := em++:emscripten chromium:chromium firefox-esr:firefox-esr WebKitWebDriver:webkit2gtk-driver xvfb-run:xvfb cmake:cmake g++:g++ clang++:clang clang-format:clang-format python3:python3
APT_FILES := /usr/include/gtest/gtest.h:libgtest-dev
# Python modules (Debian's /usr/bin/python3): torch writes the checkpoints convert is checked on.
APT_PYTHON := torch:python3-torch

.PHONY: setup native wasm build test test-fast checkpoint-check app demo demo-dev bench bench-check bench-compare fuzz fuzz-build fuzz-smoke fuzz-entry serde-differential clean native-test sanitize-test wasm-test js-test js-test-node js-test-browser lint format docs

setup: $(STAMP_DIR)/apt $(STAMP_DIR)/npm

# Installs the Debian packages named in $$missing (as root), or says which are missing.
define install_missing
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing || exit 1; \
	  else echo "missing Debian packages:$$missing (run: sudo apt-get install$$missing)"; exit 1; fi; \
	fi
endef

$(STAMP_DIR)/apt:
	@missing=""; \
	for pair in $(APT_CHECKS); do command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair##*:}"; done; \
	for pair in $(APT_FILES); do [ -e $${pair%%:*} ] || missing="$$missing $${pair##*:}"; done; \
	for pair in $(APT_PYTHON); do /usr/bin/python3 -c "import $${pair%%:*}" 2>/dev/null || missing="$$missing $${pair##*:}"; done; \
	$(install_missing)
	@mkdir -p $(STAMP_DIR) && touch $@

$(STAMP_DIR)/npm: package.json package-lock.json
	npm ci --no-audit --no-fund
	@mkdir -p $(STAMP_DIR) && touch $@

# CMake tracks the C++ dependencies, so these always ask it (a no-op when up to date).
native: $(STAMP_DIR)/apt $(STAMP_DIR)/npm
	cmake -S . -B $(NATIVE_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null
	$(BUILD_TIMEOUT) cmake --build $(NATIVE_DIR) -j2

wasm: $(STAMP_DIR)/apt $(STAMP_DIR)/npm
	$(EM_ENV) emcmake cmake -S . -B $(WASM_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null
	$(EM_ENV) $(BUILD_TIMEOUT) cmake --build $(WASM_DIR) -j2

$(SAMPLE): demo/make_sample.js tools/weight_codes.js tools/write_safetensors.js $(STAMP_DIR)/npm
	node demo/make_sample.js $@

# The Custom Elements Manifest of <safetensors-card> (custom-elements-manifest.config.mjs), shipped
# in the package (package.json "customElements"), generated from the element's JSDoc.
CEM := custom-elements.json
$(CEM): web/element/element.js custom-elements-manifest.config.mjs $(STAMP_DIR)/npm
	npx custom-elements-manifest analyze --quiet

build: native wasm $(SAMPLE) $(CEM)

native-test: build
	ctest --test-dir $(NATIVE_DIR) --output-on-failure -j2

# The same native tests under AddressSanitizer and UndefinedBehaviorSanitizer.
SANITIZE_DIR := build/sanitize
sanitize-test: $(STAMP_DIR)/apt $(STAMP_DIR)/npm
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=Debug -DSAFETENSORS_SANITIZE=ON >/dev/null
	$(BUILD_TIMEOUT) cmake --build $(SANITIZE_DIR) -j2
	ctest --test-dir $(SANITIZE_DIR) --output-on-failure -j2

# The JS suite: tsc over the documented usage (tests/types), then Vitest's two projects
# (tests/vitest.config.js), node and browser, side by side in two processes; -Otarget prints
# each one's output whole when it ends. npm test runs the same tests in one process.
VITEST := npx vitest run --config tests/vitest.config.js
js-test: build
	npx tsc -p tests/types
	$(MAKE) --no-print-directory -j2 -Otarget js-test-node js-test-browser

# One project alone, without the build step (js-test and test-fast build first).
js-test-node js-test-browser: js-test-%:
	$(VITEST) --project $*

# The inner loop: the native tests without sanitizers, and the Node tests (not Chromium's).
test-fast: native-test
	$(VITEST) --project node

# C++ formatting (.clang-format), JS formatting (Prettier: .prettierrc.json), ESLint
# (eslint.config.js), tsc --checkJs over web/, whose JSDoc refers to index.d.ts
# (web/tsconfig.json; it needs the built module's types), TypeDoc over the public .d.ts
# (typedoc.json; a warning fails), no import circle (tools/import_cycles.js), and the package as
# npm users' tools see it: publint --strict and attw (ESM only; the two .wasm exports are files,
# not modules, so they are left out). All in npm run lint (package.json).
CXX_SOURCES = $(shell find cpp tests -name '*.h' -o -name '*.cpp')
lint: wasm $(CEM)
	clang-format --dry-run -Werror $(CXX_SOURCES)
	npm run lint

# The API reference, from the public .d.ts files and their JSDoc (typedoc.json), into
# build/docs/api (open index.html; not committed).
docs: wasm
	npx typedoc

format: $(STAMP_DIR)/npm
	clang-format -i $(CXX_SOURCES)
	npx prettier --write --log-level warn .
	npx eslint --fix .

# The WASM SIMD kernels against the scalar ones, inside wasm.
wasm-test: build
	node $(WASM_DIR)/simd_kernels_check.cjs

test: native-test sanitize-test wasm-test lint js-test fuzz-smoke checkpoint-check

# Our checkpoint convert against torch (tests/checkpoints/check_conversions.py): seeded random
# checkpoints torch.save writes, and the committed ones, converted and compared byte for byte
# with save_file's layout and tensor by tensor with torch.load. CHECK_SEED, CHECK_COUNT vary it.
CHECK_SEED ?= 35
CHECK_COUNT ?= 200
checkpoint-check: build
	/usr/bin/python3 tests/checkpoints/check_conversions.py --seed $(CHECK_SEED) --count $(CHECK_COUNT)

# The offline app (demo/vite.config.js): the demo built by Vite into $(APP_DIR), with Workbox's
# service worker (vite-plugin-pwa) and the web app manifest. APP_BASE=/sub/path/ builds it for a
# sub-path of a static host (docs/app.md). make demo builds it and serves the folder with Vite's
# static preview server; make demo-dev serves the demo's modules unbuilt, for work on it.
APP_DIR := build/app
app: build
	NODE_ENV=production APP_OUT=$(abspath $(APP_DIR)) npx vite build --config demo/vite.config.js

demo: app
	APP_OUT=$(abspath $(APP_DIR)) npx vite preview --config demo/vite.config.js --host 127.0.0.1 --port $(PORT) --strictPort

demo-dev: build
	node demo/serve.js --port $(PORT)

bench: build
	node tests/bench/open_header.bench.js
	node tests/bench/many_tensors.bench.js
	node tests/bench/decode.bench.js
	node tests/bench/scan.bench.js
	node tests/bench/hash.bench.js
	node tests/bench/hash_cli.bench.js
	node tests/bench/cold_cli.bench.js
	node tests/bench/verify_signature.bench.js
	node tests/bench/sharded.bench.js
	node tests/bench/sharded_latency.bench.js
	node tests/bench/convert.bench.js
	node tests/bench/checkpoint_convert.bench.js
	node tests/bench/batch.bench.js
	node tests/bench/browser_decode.bench.js
	node tests/bench/browser_worker.bench.js
	node tests/bench/gpu.bench.js
	node tests/bench/cold_start.bench.js

# Issue 47's warm-speed bounds: the header, decode and stream benchmarks three times each, medians.
bench-check: build
	node tests/bench/check_bounds.js

# Every benchmark above on this checkout and on REF (built in ../safetensors-wasm-ref-<sha>),
# side by side, with each figure's ratio; BENCH='open_header decode' runs only those.
bench-compare: build
	@[ -n "$(REF)" ] || { echo 'usage: make bench-compare REF=<commit> [BENCH=...] [COMPARE_ROUNDS=n]'; exit 2; }
	node tests/bench/compare.js $(REF) $(BENCH)

# libFuzzer with ASan+UBSan: header_fuzzer (the header analysis), decode_fuzzer (the
# conversion kernels) and pickle_fuzzer (the pickle machine, zip and legacy readers), seeded
# from the real fixtures (when ../shared is there), the demo sample, the crafted file of each
# finding (tools/finding_files.js), the files of other formats (tools/foreign_files.py) and the
# checkpoints of tests/checkpoints. Corpora grow in build/fuzz/corpus/<target>.
FUZZ_DIR := build/fuzz
FUZZ_TARGETS := header_fuzzer decode_fuzzer pickle_fuzzer
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_FLAGS := -max_len=65536 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/

fuzz-build: $(STAMP_DIR)/apt $(STAMP_DIR)/npm $(SAMPLE)
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) -DSAFETENSORS_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	$(BUILD_TIMEOUT) cmake --build $(FUZZ_DIR) -j2
	rm -rf $(FUZZ_DIR)/seeds && mkdir -p $(FUZZ_DIR)/seeds
	cp $(SAMPLE) $(FUZZ_DIR)/seeds/
	node tools/finding_files.js $(FUZZ_DIR)/seeds
	# Files of other formats (NotSafetensors), each as a .safetensors seed.
	python3 tools/foreign_files.py $(FUZZ_DIR)/foreign
	for f in $(FUZZ_DIR)/foreign/*; do [ "$${f##*/}" = expected.tsv ] || cp "$$f" "$(FUZZ_DIR)/seeds/foreign_$${f##*/}.safetensors"; done
	if [ -d ../shared/fixtures/real ]; then find ../shared/fixtures/real -name '*.safetensors' -exec cp {} $(FUZZ_DIR)/seeds/ \; ; fi
	# A seed byte of 0 in front: for the header, "claimed size = bytes given"; for decode, BOOL.
	for f in $(FUZZ_DIR)/seeds/*.safetensors; do printf '\0' | cat - "$$f" > "$$f.seed"; rm "$$f"; done
	# pickle_fuzzer: the checkpoints torch.save and zipfile wrote (tests/checkpoints).
	cp tests/checkpoints/*.pt tests/checkpoints/*.ckpt tests/checkpoints/*.pkl tests/checkpoints/*.np? $(FUZZ_DIR)/seeds/

# serde_json itself (tools/serde_verdict, built offline from the crate sources Debian ships)
# against our header JSON verdict on SERDE_CASES generated headers: number literals at the
# edge of f64 and past i32 exponents, nesting 120-130 deep with every leaf kind.
SERDE_APT := cargo librust-serde-json-dev librust-serde-derive-dev
SERDE_VERDICT := tools/serde_verdict/target/release/serde_verdict
SERDE_CASES ?= 1000000
SERDE_SEED ?= 1

$(STAMP_DIR)/apt-serde:
	@missing=""; for p in $(SERDE_APT); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	$(install_missing)
	@mkdir -p $(STAMP_DIR) && touch $@

$(SERDE_VERDICT): tools/serde_verdict/src/main.rs tools/serde_verdict/Cargo.toml $(STAMP_DIR)/apt-serde
	cd tools/serde_verdict && cargo build --release --quiet --locked

serde-differential: native $(SERDE_VERDICT)
	$(NATIVE_DIR)/serde_differential generate $(SERDE_CASES) $(SERDE_SEED) | $(SERDE_VERDICT) | \
	  $(NATIVE_DIR)/serde_differential compare; exit $$(( $${PIPESTATUS[0]} | $${PIPESTATUS[1]} | $${PIPESTATUS[2]} ))

# The JS-level pass (tests/fuzz/entry_points.fuzz.js): seeded mutants of the reference's
# conformance files, the finding files and the real and wild fixtures through every entry point
# of the library and the CLI, for ENTRY_FUZZ_SECONDS (make fuzz) or ENTRY_FUZZ_SMOKE_SECONDS
# (make test). Fails on an untyped error, an InternalError, or (make fuzz only; make test's
# short pass reports it) an entry over 8x a plain validate.
ENTRY_FUZZ_SECONDS ?= 300
ENTRY_FUZZ_SMOKE_SECONDS ?= 45
ENTRY_FUZZ_SEED ?= 1
fuzz-entry: build
	node --expose-gc tests/fuzz/entry_points.fuzz.js --seconds $(ENTRY_FUZZ_SECONDS) --mutants 1000 --seed $(ENTRY_FUZZ_SEED)

# Each target for FUZZ_SECONDS (make fuzz) or FUZZ_SMOKE_SECONDS (make test: catches regressions).
fuzz: fuzz-build serde-differential fuzz-entry
	for t in $(FUZZ_TARGETS); do mkdir -p $(FUZZ_DIR)/corpus/$$t && \
	  $(FUZZ_DIR)/$$t -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/seeds || exit 1; done

fuzz-smoke: fuzz-build build
	for t in $(FUZZ_TARGETS); do mkdir -p $(FUZZ_DIR)/corpus/$$t && \
	  $(FUZZ_DIR)/$$t -max_total_time=$(FUZZ_SMOKE_SECONDS) $(FUZZ_FLAGS) $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/seeds 2>&1 | \
	  grep -E '^(stat::number_of_executed_units|==[0-9]+==|SUMMARY|artifact_prefix|Test unit)' ; \
	  test $${PIPESTATUS[0]} -eq 0 || exit 1; done
	node --expose-gc tests/fuzz/entry_points.fuzz.js --seconds $(ENTRY_FUZZ_SMOKE_SECONDS) --seed $(ENTRY_FUZZ_SEED) --report-timing

clean:
	rm -rf build web/wasm $(SAMPLE) $(CEM)
