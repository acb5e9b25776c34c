# eevdf-sim: libeevdf (static + shared), the eevdf-sim CLI, and the tests.
#
#   make            build everything into build/
#   make run        build, then run the default simulation
#   make test       build and run every libcheck suite and the golden outputs
#   make golden     rewrite tests/golden/ from the current build
#   make asan       the tests under -fsanitize=address,undefined
#   make determinism  same workloads under -O0, -O2 and PGO=1: byte-identical
#                   JSON
#   make clang      build and test with clang
#   make opt-check  build at -O3 and -Os with gcc and clang (-Werror)
#   make fuzz       run each libFuzzer target FUZZ_SECONDS (default 60)
#   make oom-test   fail the Nth allocation for N = 1, 2, ... (under ASan)
#   make bench      build and run the speed benchmark (never part of test),
#                   profile-guided with gcc (BENCH_PGO=0: not)
#   make bench-smoke  every benchmark scenario at a tiny size; checks its JSON
#   make deps       install the Debian packages the build needs
#   make test-cluster  a sweep on a real single-node Slurm cluster that
#                   the test starts on localhost (needs root)
#   make examples   build the example programs of examples/
#   make install    install the library, headers, eevdf.pc, CLI, man page,
#                   shipped workloads and machines under $(DESTDIR)$(PREFIX);
#                   make uninstall removes them
#   make format     clang-format every C file in place (.clang-format)
#   make format-check  fail on any file clang-format would change
#   make lint       cppcheck and clang-tidy (.clang-tidy); clean today
#   make coverage   the suites built with gcov: line coverage per folder
#                   and an lcov HTML report in build/coverage/html
#   make deps-dev   install what format-check, lint and coverage need
#   make deps-test  install what make test needs beyond the build
#   make readme-check  README.md's example sessions against this build;
#                   make readme rewrites them
#   make calibrate  measure this machine into build/host-machine.json
#   make kernel-check  this kernel against the simulator on that machine
#
# Knobs: CC, CFLAGS (default -O2 -g), BUILD (output dir), SANITIZE, V=1
# to echo every command, PREFIX (default /usr/local), DESTDIR, PGO=1 for a
# profile-guided build with gcc (into build/pgo unless BUILD says where;
# `make install PGO=1` installs it): the same results, faster.

VERSION := 0.1.0
MAJOR   := $(word 1,$(subst ., ,$(VERSION)))

CC      ?= cc
# 1 when CC is gcc (PGO=1 needs it), whatever its name
CC_IS_GCC := $(shell $(CC) --version 2>/dev/null | head -n 1 | \
		grep -qi clang || echo 1)
PGO     ?=
BUILD   ?= $(if $(filter 1,$(PGO)),build/pgo,build)
CFLAGS  ?= -O2 -g
CSTD    := -std=c11
WARN    := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wundef -Wwrite-strings \
           -Wcast-qual -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
           -Wold-style-definition -Wdouble-promotion -Wvla -Wpointer-arith \
           -Wimplicit-fallthrough
DEPS_PKGS := check libcjson-dev pkg-config
# What make test needs beyond the build (make deps-test): GNU parallel
# runs a sweep's job list (tests/sweep_parallel.sh); protoc decodes the
# protobuf trace, pytest runs the Python package's tests (setuptools and
# wheel build it for pip), chromium renders the --html reports
# (tests/cli_seeing.sh, tests/python.sh).
TEST_PKGS := parallel protobuf-compiler python3-pytest python3-setuptools \
	     python3-wheel chromium
# What make test-cluster needs: a real Slurm (slurmctld, slurmd, sbatch)
# and the munge authentication it uses.
CLUSTER_PKGS := slurm-wlm munge
# The developer tools of format-check, lint and coverage (make deps-dev).
DEV_PKGS  := clang-format clang-tidy cppcheck lcov

PKG_CFLAGS := $(shell pkg-config --cflags libcjson 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs libcjson 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

ALL_CFLAGS := $(CSTD) $(WARN) -fPIC -fvisibility=hidden -Iinclude \
              $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS := $(LDFLAGS)
ifdef SANITIZE
ALL_CFLAGS  += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

# One folder per subsystem (ARCHITECTURE.md); the lower layers first.
LIB_DIRS := lib machine sched engine workload report
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard src/$(d)/*.c))
CLI_SRC  := $(wildcard cli/*.c)
# calibrate/: host micro-benchmarks (calibrate, kernel-check), linked
# into the CLI: the only code with threads, wall clocks and sysfs.
CALIB_SRC := $(wildcard calibrate/*.c)
TEST_SRC := $(wildcard tests/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
CALIB_OBJ := $(CALIB_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

ifeq ($(V),1)
Q :=
else
Q := @
endif

STATIC  := $(BUILD)/libeevdf.a
SHARED  := $(BUILD)/libeevdf.so.$(VERSION)
CLI     := $(BUILD)/eevdf-sim
TESTBIN := $(BUILD)/check_eevdf

.PHONY: all lib cli test run fidelity calibrate kernel-check deps deps-dev \
	deps-test deps-cluster test-cluster asan determinism clang clean bench \
	opt-check fuzz deps-fuzz oom-test \
	bench-digests bench-smoke golden examples install uninstall format \
	format-check lint coverage

# The builds a target makes for itself (the sanitizer, -O levels, clang,
# fuzz and bench trees) compile one file per CPU at a time.
SUB_JOBS ?= -j$(shell nproc 2>/dev/null || echo 2)

all: lib cli

lib: $(STATIC) $(SHARED)
cli: $(CLI)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

# Library files name an internal header by its folder ("sched/fair.h")
# unless it is their own folder's.  Tests reach library internals the same
# way; the CLI sees only include/eevdf/ and is built with POSIX for
# getopt_long and friends.
$(BUILD)/obj/src/%.o: ALL_CFLAGS += -iquote src
$(BUILD)/obj/cli/%.o: ALL_CFLAGS += -D_GNU_SOURCE
$(BUILD)/obj/calibrate/%.o: ALL_CFLAGS += -D_GNU_SOURCE -pthread
$(BUILD)/obj/tests/%.o: ALL_CFLAGS += -iquote src -iquote . $(CHECK_CFLAGS) \
	-D_GNU_SOURCE

# gen/git.h: `git describe` of the checkout for the CLI's provenance,
# rewritten only when it changes so that nothing else rebuilds.
GIT_DESCRIBE := $(shell git describe --always --dirty --tags 2>/dev/null)
$(BUILD)/gen/git.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define CLI_GIT_DESCRIBE "%s"\n' '$(GIT_DESCRIBE)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
$(BUILD)/obj/cli/build_info.o: $(BUILD)/gen/git.h
$(BUILD)/obj/cli/%.o: ALL_CFLAGS += -iquote $(BUILD)
.PHONY: FORCE
FORCE:

$(STATIC): $(LIB_OBJ)
	@rm -f $@
	@$(if $(Q),echo "  AR      $@")
	$(Q)ar rcs $@ $^

$(SHARED): $(LIB_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libeevdf.so.$(MAJOR) -o $@ $^ \
		$(ALL_LDFLAGS) $(PKG_LIBS) -lm
	$(Q)ln -sf libeevdf.so.$(VERSION) $(BUILD)/libeevdf.so.$(MAJOR)
	$(Q)ln -sf libeevdf.so.$(MAJOR) $(BUILD)/libeevdf.so

$(CLI): $(CLI_OBJ) $(CALIB_OBJ) $(STATIC)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -pthread -o $@ $(CLI_OBJ) $(CALIB_OBJ) $(STATIC) \
		$(ALL_LDFLAGS) $(PKG_LIBS) -lm

$(TESTBIN): $(TEST_OBJ) $(CALIB_OBJ) $(STATIC)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -pthread -o $@ $(TEST_OBJ) $(CALIB_OBJ) $(STATIC) \
		$(ALL_LDFLAGS) $(PKG_LIBS) $(CHECK_LIBS) -lm

# deps: the Debian packages the build and the tests need; deps-dev, the
# developer tools.  Each installs what is missing when we are root, and
# otherwise names the command to run.
define install_pkgs
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
			grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "deps: installing$$missing"; \
			apt-get update && DEBIAN_FRONTEND=noninteractive \
				apt-get install -y $$missing || exit 1; \
		else \
			echo "deps: missing Debian packages:$$missing"; \
			echo "deps: run: sudo apt-get update && sudo apt-get install -y$$missing"; \
			exit 1; \
		fi; \
	fi
endef

deps:
	$(call install_pkgs,$(DEPS_PKGS))

deps-dev: deps
	$(call install_pkgs,$(DEV_PKGS))

deps-test: deps
	$(call install_pkgs,$(TEST_PKGS))

deps-cluster: deps
	$(call install_pkgs,$(CLUSTER_PKGS))

# run and test depend on deps; the build itself is a sub-make so that the
# pkg-config flags are read after deps has installed the packages.
run: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) all
	$(CLI) run workloads/sleeper-vs-hog.json

test: deps-test
	@$(MAKE) --no-print-directory $(SUB_JOBS) all $(TESTBIN) examples $(FUZZ_REPLAY)
	$(TESTBIN)
	tests/layout.sh
	tests/alloc_check.sh $(STATIC)
	tests/golden.sh $(CLI)
	tests/cli_trust.sh $(CLI)
	tests/cli_features.sh $(CLI)
	tests/cli_rtapp.sh $(CLI)
	tests/cli_seeing.sh $(CLI)
	tests/cli_calibrate.sh $(CLI)
	tests/cli_harden.sh $(CLI)
	tests/bench_ab.sh
	tests/fuzz/replay.sh $(BUILD)
	tests/machines.sh $(CLI)
	tests/cli_sweep.sh $(CLI)
	tests/sweep_parallel.sh $(CLI)
	tests/examples.sh $(BUILD)
	tests/python.sh $(BUILD)
	tests/install.sh

# This machine measured (calibrate/, docs/calibration.md): never part of
# make test, and only meaningful on a quiet machine.  calibrate writes
# build/host-machine.json; kernel-check compares this kernel with the
# simulator on it (calibrating first when there is none yet).
HOST_MACHINE := $(BUILD)/host-machine.json

calibrate: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) all
	$(CLI) calibrate -o $(HOST_MACHINE)

kernel-check: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) all
	@[ -f $(HOST_MACHINE) ] || $(CLI) calibrate -o $(HOST_MACHINE)
	$(CLI) kernel-check --machine $(HOST_MACHINE)
# A sweep on a real Slurm cluster: tests/sweep_slurm.sh starts munged,
# slurmctld and slurmd on localhost (root only; skipped otherwise), runs
# the sweep's job array and stops them.  About 10 s; .ci/run runs it.
test-cluster: deps-cluster
	@$(MAKE) --no-print-directory $(SUB_JOBS) all
	tests/sweep_slurm.sh $(CLI)

# Real-kernel figures the model should reproduce (fidelity/run.sh):
# reported, met or not; not a gate of make test.
fidelity: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) all
	fidelity/run.sh $(CLI)

# README.md's sessions against this build (tests/readme.sh); readme
# rewrites them after a change meant to move them (review the diff).
readme-check: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) all examples
	tests/readme.sh $(BUILD)

readme: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) all examples
	tests/readme.sh $(BUILD) --update

# After a change that is meant to change results (review the goldens
# first): store the bench scenarios' new results digests.
bench-digests: deps
	@$(BENCH_MAKE)
	$(BENCH_BUILD)/eevdf-bench --smoke --json build/bench.json \
		--write-digests tests/bench-smoke.digests

# Rewrite tests/golden/ from the current build: review the diff before
# committing it, it is every decision the model changed.
golden: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) all
	tests/golden.sh $(CLI) --update

# The test builds abort where a model invariant (EEVDF_ASSERT) breaks;
# the library users link reports broken invariants of a run as
# EEVDF_EINTERNAL instead (src/lib/internal.h).
TEST_ASSERTS := -DEEVDF_TEST_ASSERTS

# The suites' timeouts guard against hangs; the sanitizers run the same
# work 4-8 times slower, so each case gets twice its time.
asan: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=build/asan \
		CFLAGS="-O1 -g $(TEST_ASSERTS)" \
		SANITIZE=address,undefined all build/asan/check_eevdf \
		$(FUZZ_REPLAY:$(BUILD)/%=build/asan/%)
	CK_TIMEOUT_MULTIPLIER=2 ASAN_OPTIONS=detect_leaks=1 build/asan/check_eevdf
	ASAN_OPTIONS=detect_leaks=1 tests/cli_errors.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/cli_trust.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/cli_features.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/cli_rtapp.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/cli_seeing.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/cli_calibrate.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/cli_sweep.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/cli_harden.sh build/asan/eevdf-sim
	ASAN_OPTIONS=detect_leaks=1 tests/fuzz/replay.sh build/asan

# The same workloads built at -O0, at -O2 and (with gcc) profile-guided
# must give byte-identical JSON.
determinism: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=build/O0 CFLAGS="-O0 -g" cli
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=build/O2 CFLAGS="-O2" cli
	tests/determinism.sh build/O0/eevdf-sim build/O2/eevdf-sim
ifeq ($(CC_IS_GCC),1)
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=build/O2-pgo \
		CFLAGS="-O2" PGO=1 cli
	tests/determinism.sh build/O0/eevdf-sim build/O2-pgo/eevdf-sim
endif

# Every -O level must build warning-free (-Werror) with gcc and with clang:
# -O3 and -Os see uninitialised paths and truncations -O2 does not.  The
# library and the CLI only: the tests build at -O1 (asan), -O2 (test,
# clang) and -O0 (determinism), and CI's time is short.
OPT_LEVELS := -O3 -Os
opt-check: deps
	@for cc in gcc clang; do \
		if ! command -v $$cc >/dev/null; then \
			echo "opt-check: $$cc is not installed: skipped"; \
			continue; \
		fi; \
		for o in $(OPT_LEVELS); do \
			echo "opt-check: $$cc $$o"; \
			$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=build/opt$$o-$$cc \
				CC=$$cc CFLAGS="$$o" all || exit 1; \
		done; \
	done

# The whole tree must also build warning-free with clang, and pass there.
clang: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=build/clang CC=clang \
		CFLAGS="-O2 -g $(TEST_ASSERTS)" all build/clang/check_eevdf
	build/clang/check_eevdf

clean:
	rm -rf build

# Style and static analysis.  clang-format is Debian's (14 on bookworm):
# another version may wrap a few lines differently.
FORMAT_SRC = $(shell git ls-files 'src/*.[ch]' 'cli/*.[ch]' 'bench/*.[ch]' \
		'calibrate/*.[ch]' 'tests/*.[ch]' 'examples/*.[ch]' 2>/dev/null)

format: deps-dev
	clang-format -i $(FORMAT_SRC)

format-check: deps-dev
	@bad=0; for f in $(FORMAT_SRC); do \
		if ! clang-format "$$f" | cmp -s - "$$f"; then \
			echo "format-check: $$f differs from clang-format"; \
			bad=1; \
		fi; \
	done; \
	if [ $$bad = 0 ]; then echo "format-check: $(words $(FORMAT_SRC)) files clean"; \
	else echo "format-check: run make format"; exit 1; fi

# cppcheck: warnings, portability and performance over the library, CLI
# and bench (tests/cppcheck.cfg tells it what the headers cannot);
# clang-tidy: the checks of .clang-tidy, each justified there.
LINT_SRC = $(shell git ls-files 'src/*.c' 'cli/*.c' 'bench/*.c' \
		'calibrate/*.c' 2>/dev/null)

# clang-tidy takes a few seconds a file: one per CPU at a time (xargs
# exits non-zero when any of them finds something).
LINT_JOBS = $(shell nproc 2>/dev/null || echo 2)

lint: deps-dev $(BUILD)/gen/git.h
	cppcheck --std=c11 --enable=warning,portability,performance \
		--library=tests/cppcheck.cfg --inline-suppr --quiet \
		-j $(LINT_JOBS) --error-exitcode=1 -Iinclude -Isrc \
		-D__GNUC__ -D__CPPCHECK__ src cli bench calibrate
	@echo "clang-tidy: $(words $(LINT_SRC)) files, $(LINT_JOBS) at a time"
	@printf '%s\n' $(LINT_SRC) | xargs -P $(LINT_JOBS) -I{} \
		sh -c 'clang-tidy --quiet "{}" -- $(CSTD) -Iinclude -Isrc \
			-iquote $(BUILD) $(PKG_CFLAGS) -D_GNU_SOURCE \
			2>/dev/null' && echo "lint: clean"

# Line coverage of the library by the unit and scenario suites, the
# goldens, the machines and the CLI scripts, per folder.
COV_BUILD := build/coverage
coverage: deps-dev
	@rm -rf $(COV_BUILD)
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=$(COV_BUILD) \
		CFLAGS="-O0 -g --coverage $(TEST_ASSERTS)" \
		LDFLAGS="--coverage" all $(COV_BUILD)/check_eevdf
	$(COV_BUILD)/check_eevdf >/dev/null
	tests/golden.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/machines.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/cli_errors.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/cli_trust.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/cli_features.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/cli_rtapp.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/cli_calibrate.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/cli_sweep.sh $(COV_BUILD)/eevdf-sim >/dev/null
	tests/cli_harden.sh $(COV_BUILD)/eevdf-sim >/dev/null
	lcov --quiet --capture --directory $(COV_BUILD)/obj/src \
		--output-file $(COV_BUILD)/lcov.info
	lcov --quiet --remove $(COV_BUILD)/lcov.info '/usr/*' \
		--output-file $(COV_BUILD)/lcov.info
	genhtml --quiet --output-directory $(COV_BUILD)/html $(COV_BUILD)/lcov.info
	@for d in $(LIB_DIRS); do \
		lcov --quiet --extract $(COV_BUILD)/lcov.info "*/src/$$d/*" \
			--output-file $(COV_BUILD)/$$d.info >/dev/null 2>&1; \
		printf 'src/%-9s ' "$$d/"; \
		lcov --summary $(COV_BUILD)/$$d.info 2>&1 | grep 'lines'; \
	done
	@printf 'total         '; lcov --summary $(COV_BUILD)/lcov.info 2>&1 | grep 'lines'
	@echo "coverage: $(COV_BUILD)/html/index.html"

# Examples: small programs that use only the public API, linked with the
# static library here; tests/install.sh also builds one against an
# installed copy through pkg-config.
EXAMPLE_SRC := $(wildcard examples/*.c)
EXAMPLES    := $(EXAMPLE_SRC:examples/%.c=$(BUILD)/examples/%)

examples: $(EXAMPLES)

# keep the objects: make would delete them as intermediates
.SECONDARY: $(EXAMPLE_SRC:%.c=$(BUILD)/obj/%.o)

$(BUILD)/examples/%: $(BUILD)/obj/examples/%.o $(STATIC)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $< $(STATIC) $(ALL_LDFLAGS) $(PKG_LIBS) -lm

# Installation: the GNU directory variables, staged under DESTDIR.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DATADIR    ?= $(PREFIX)/share/eevdf-sim
DOCDIR     ?= $(PREFIX)/share/doc/eevdf-sim
DOCS       := README.md ARCHITECTURE.md CHANGELOG.md CONTRIBUTING.md \
              LICENSE $(wildcard docs/*.md)
HEADERS    := $(wildcard include/eevdf/*.h)
WORKLOADS  := $(wildcard workloads/*.json)
SWEEPS     := $(wildcard workloads/sweeps/*.json)
MACHINES   := $(wildcard workloads/machines/*.json)

# eevdf.pc names the directories of this install, so it is written by the
# install itself.  cJSON and libm are private: a shared link needs only
# -leevdf, and pkg-config --static adds the rest.  With libeevdf.so
# beside libeevdf.a the linker still takes the shared one for -leevdf, so
# eevdf-static.pc names the archive itself: pkg-config --static --libs
# eevdf-static links libeevdf statically.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(INCLUDEDIR)/eevdf $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/workloads \
		$(DESTDIR)$(DATADIR)/machines $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(DATADIR)/workloads/sweeps
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/eevdf-sim
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	install -m 644 $(WORKLOADS) $(DESTDIR)$(DATADIR)/workloads/
	install -m 644 $(SWEEPS) $(DESTDIR)$(DATADIR)/workloads/sweeps/
	install -m 644 $(MACHINES) $(DESTDIR)$(DATADIR)/machines/
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/libeevdf.a
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/libeevdf.so.$(VERSION)
	ln -sf libeevdf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libeevdf.so.$(MAJOR)
	ln -sf libeevdf.so.$(MAJOR) $(DESTDIR)$(LIBDIR)/libeevdf.so
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/eevdf/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' \
		'includedir=$(INCLUDEDIR)' '' 'Name: eevdf' \
		'Description: deterministic simulator of the Linux EEVDF scheduler' \
		'Version: $(VERSION)' 'Requires.private: libcjson' \
		'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -leevdf' \
		'Libs.private: -lm' >$(DESTDIR)$(PKGCONFIGDIR)/eevdf.pc
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' \
		'includedir=$(INCLUDEDIR)' '' 'Name: eevdf-static' \
		'Description: libeevdf linked statically (the archive itself)' \
		'Version: $(VERSION)' 'Requires.private: libcjson' \
		'Cflags: -I$${includedir}' 'Libs: $${libdir}/libeevdf.a' \
		'Libs.private: -lm' >$(DESTDIR)$(PKGCONFIGDIR)/eevdf-static.pc
	install -m 644 docs/eevdf-sim.1 $(DESTDIR)$(MANDIR)/man1/eevdf-sim.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/eevdf-sim $(DESTDIR)$(LIBDIR)/libeevdf.a \
		$(DESTDIR)$(LIBDIR)/libeevdf.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/libeevdf.so.$(MAJOR) \
		$(DESTDIR)$(LIBDIR)/libeevdf.so \
		$(DESTDIR)$(PKGCONFIGDIR)/eevdf.pc \
		$(DESTDIR)$(PKGCONFIGDIR)/eevdf-static.pc \
		$(DESTDIR)$(MANDIR)/man1/eevdf-sim.1 \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS))) \
		$(HEADERS:include/eevdf/%=$(DESTDIR)$(INCLUDEDIR)/eevdf/%) \
		$(WORKLOADS:workloads/%=$(DESTDIR)$(DATADIR)/workloads/%) \
		$(SWEEPS:workloads/%=$(DESTDIR)$(DATADIR)/workloads/%) \
		$(MACHINES:workloads/machines/%=$(DESTDIR)$(DATADIR)/machines/%)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/eevdf \
		$(DESTDIR)$(DATADIR)/workloads/sweeps $(DESTDIR)$(DATADIR)/workloads \
		$(DESTDIR)$(DATADIR)/machines $(DESTDIR)$(DATADIR) \
		$(DESTDIR)$(DOCDIR) 2>/dev/null

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(CALIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
-include $(EXAMPLE_SRC:%.c=$(BUILD)/obj/%.d)
-include $(wildcard $(BUILD)/obj/tests/fuzz/*.d $(BUILD)/obj/tests/oom/*.d)

# Fuzz targets (tests/fuzz/): the workload, machine, rt-app and sweep
# spec parsers, parse + run a few ms, and the CLI's option parser.  Each
# is a LLVMFuzzerTestOneInput(); `make fuzz` builds them with libFuzzer
# and runs each FUZZ_SECONDS (tests/fuzz/run.sh), and every build has a
# replayer of each (tests/fuzz/replay.c, no libFuzzer) that make test and
# make asan run over the seeds and the regression inputs
# (tests/fuzz/regress/TARGET/, where every crash found goes, minimised).
# The CLI target links the CLI without its main(): main.c again, its main
# renamed.
FUZZ_TARGETS := workload machine rtapp run cli sweep
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
# -fsanitize=fuzzer needs clang's runtime: Debian's clang 14 has it in
# libclang-rt-14-dev.
FUZZ_PKGS    := clang libclang-rt-14-dev
FUZZ_REPLAY   = $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay-%)
FUZZ_CLI_OBJ  = $(filter-out $(BUILD)/obj/cli/main.o,$(CLI_OBJ)) \
		$(CALIB_OBJ) $(BUILD)/obj/tests/fuzz/cli_main.o

$(BUILD)/obj/tests/fuzz/%.o: ALL_CFLAGS += -iquote cli -iquote $(BUILD)
$(BUILD)/obj/tests/fuzz/cli_main.o: cli/main.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (main renamed)")
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -Dmain=eevdf_cli_main \
		-Wno-missing-prototypes -c $< -o $@
# keep the objects: make would delete them as intermediates
.SECONDARY: $(FUZZ_TARGETS:%=$(BUILD)/obj/tests/fuzz/fuzz_%.o) \
	$(BUILD)/obj/tests/fuzz/replay.o $(BUILD)/obj/tests/fuzz/cli_main.o

$(BUILD)/fuzz/replay-cli: $(BUILD)/obj/tests/fuzz/fuzz_cli.o \
		$(BUILD)/obj/tests/fuzz/replay.o $(FUZZ_CLI_OBJ) $(STATIC)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -pthread -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm
$(BUILD)/fuzz/replay-%: $(BUILD)/obj/tests/fuzz/fuzz_%.o \
		$(BUILD)/obj/tests/fuzz/replay.o $(STATIC)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

$(BUILD)/fuzz/fuzz-cli: $(BUILD)/obj/tests/fuzz/fuzz_cli.o $(FUZZ_CLI_OBJ) \
		$(STATIC)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -fsanitize=fuzzer -pthread -o $@ $^ $(ALL_LDFLAGS) \
		$(PKG_LIBS) -lm
$(BUILD)/fuzz/fuzz-%: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(STATIC)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -fsanitize=fuzzer -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

deps-fuzz: deps
	$(call install_pkgs,$(FUZZ_PKGS))

fuzz: deps-fuzz
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=$(FUZZ_BUILD) CC=clang \
		SANITIZE=address,undefined \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $(TEST_ASSERTS)" \
		$(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz/fuzz-%)
	tests/fuzz/run.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The allocation-failure loop (tests/oom/oom_loop.c): parse + run +
# report of three shipped workloads at small sizes, failing the Nth
# allocation for N = 1, 2, ... until a run needs no more; under ASan and
# LeakSanitizer, each failing run must end cleanly and give back all it
# took.
OOM_ARGS := workloads/pipe.json loops=200 \
	-- workloads/hackbench.json groups=1 fds=2 loops=5 \
	-- workloads/rtapp-mixed.json

$(BUILD)/oom_loop: $(BUILD)/obj/tests/oom/oom_loop.o $(STATIC)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

oom-test: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=build/asan \
		CFLAGS="-O1 -g $(TEST_ASSERTS)" SANITIZE=address,undefined \
		build/asan/oom_loop
	ASAN_OPTIONS=detect_leaks=1 build/asan/oom_loop $(OOM_ARGS)

# The speed benchmark: bench/*.c through the public API only, linked with
# the static library.  It is built in build/bench at -O2 with the
# invariant checker compiled out (EEVDF_NO_INVARIANTS), never sharing
# objects with the test build.  `bench` runs the full sizes (minutes) and
# then measures what --trace costs; `bench-smoke` runs every scenario at a
# tiny size and checks that build/bench.json is well-formed JSON and that
# every scenario's results equal tests/bench-smoke.digests (an
# optimisation must not change them), not how fast it was.
BENCH_SRC    := $(wildcard bench/*.c)
BENCH_OBJ    := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)
BENCHBIN     := $(BUILD)/eevdf-bench
BENCH_BUILD  := build/bench
BENCH_CFLAGS ?= -O2 -g -DEEVDF_NO_INVARIANTS
# The bench measures the profile-guided build that PGO=1 gives users
# (gcc only; BENCH_PGO=0 measures the plain one).
BENCH_PGO    ?= $(CC_IS_GCC)
BENCH_MAKE    = $(MAKE) --no-print-directory $(SUB_JOBS) BUILD=$(BENCH_BUILD) \
		CFLAGS="$(BENCH_CFLAGS)" PGO=$(BENCH_PGO) \
		$(BENCH_BUILD)/eevdf-bench $(BENCH_BUILD)/hogs-pelt

$(BUILD)/obj/bench/%.o: ALL_CFLAGS += -D_GNU_SOURCE -iquote $(BUILD) \
	-DBENCH_PGO=$(if $(filter 1,$(PGO)),1,0)
# the bench JSON names the commit it measured (gen/git.h, as the CLI's)
$(BUILD)/obj/bench/output.o: $(BUILD)/gen/git.h

$(BENCHBIN): $(BENCH_OBJ) $(STATIC)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $(BENCH_OBJ) $(STATIC) $(ALL_LDFLAGS) $(PKG_LIBS) -lm

# bench/ceiling/: the hogs scenario's ceiling, the PELT arithmetic of its
# ticks timed alone: the bench's one program below the public API.
$(BUILD)/obj/bench/ceiling/%.o: ALL_CFLAGS += -iquote src
$(BUILD)/hogs-pelt: $(BUILD)/obj/bench/ceiling/hogs_pelt.o $(STATIC)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $< $(STATIC) $(ALL_LDFLAGS) $(PKG_LIBS) -lm

bench: deps
	@$(BENCH_MAKE)
	$(BENCH_BUILD)/eevdf-bench --json build/bench.json
	$(BENCH_BUILD)/hogs-pelt
	@$(MAKE) --no-print-directory $(SUB_JOBS) cli
	bench/trace-cost.sh $(CLI)

bench-smoke: deps
	@$(BENCH_MAKE)
	$(BENCH_BUILD)/eevdf-bench --smoke --json build/bench.json \
		--digests tests/bench-smoke.digests
	@if command -v python3 >/dev/null; then \
		echo "python3 -m json.tool build/bench.json"; \
		python3 -m json.tool build/bench.json >/dev/null; \
	fi
	$(BENCH_BUILD)/eevdf-bench --check-json build/bench.json
	bench/compare.sh build/bench.json build/bench.json >/dev/null
	$(BENCH_BUILD)/hogs-pelt --smoke >/dev/null
	bench/ab.sh --pairs 1 --smoke $(BENCH_BUILD)/eevdf-bench \
		$(BENCH_BUILD)/eevdf-bench hogs >/dev/null

-include $(BENCH_OBJ:.o=.d) $(BUILD)/obj/bench/ceiling/hogs_pelt.d

# PGO=1: a profile-guided build.  The CLI is first built into $(BUILD)
# with -fprofile-generate (the same CFLAGS) and runs bench/pgo-train.sh;
# its objects then go and gcc compiles them again with -fprofile-use,
# reading the counts the runs left beside each one: the hot paths laid
# out together, the code the runs never took moved aside.  One tree for
# both because gcc names a static function's counts after its object
# file.  The simulator's hot code outgrows a core's 32 KiB L1 instruction
# cache; with the profile cachegrind counts a third fewer L1i misses on
# schbench.  The C is the same, so the results are too, bit for bit:
# bench-smoke checks the bench's digests on this build, determinism the
# shipped workloads' JSON.  Any source, workload or the training script
# changing trains again and rebuilds everything.
PGO_STAMP := $(BUILD)/pgo.stamp
PGO_OBJ   := $(LIB_OBJ) $(CLI_OBJ) $(CALIB_OBJ) $(BENCH_OBJ)
ifeq ($(PGO),1)
ifneq ($(CC_IS_GCC),1)
$(error PGO=1 needs gcc: $(CC) is not)
endif
PGO_DEPS  := $(LIB_SRC) $(CLI_SRC) $(CALIB_SRC) $(wildcard src/*/*.h) \
	     $(wildcard cli/*.h calibrate/*.h include/eevdf/*.h) \
	     $(wildcard workloads/*.json workloads/machines/*.json) \
	     bench/pgo-train.sh
ALL_CFLAGS += -fprofile-use -fprofile-partial-training -Wno-missing-profile
$(PGO_OBJ): $(PGO_STAMP)

# libgcov adds to counts it finds: the old ones go first.  The stamp
# keeps the time the training began (touched then, renamed at the end):
# a source edited while it ran is newer, so the next make trains again
# instead of compiling the edit against counts of the old code.
$(PGO_STAMP): $(PGO_DEPS)
	@mkdir -p $(@D) && touch $@.start
	@rm -f $(PGO_OBJ) $(PGO_OBJ:.o=.gcda) $(CLI) $(STATIC)
	@$(MAKE) --no-print-directory $(SUB_JOBS) BUILD=$(BUILD) PGO=train \
		CFLAGS="$(CFLAGS) -fprofile-generate -fprofile-update=single" \
		LDFLAGS="$(LDFLAGS) -fprofile-generate" $(CLI)
	bench/pgo-train.sh $(CLI) workloads
	@rm -f $(PGO_OBJ) $(CLI) $(STATIC)
	@mv $@.start $@
else ifneq ($(PGO),train)
# A tree built with PGO=1 and now without (BENCH_PGO=0): its objects go,
# so that what is built is what was asked for.
ifneq ($(wildcard $(PGO_STAMP)),)
$(shell rm -f $(PGO_STAMP) $(PGO_OBJ))
endif
endif
