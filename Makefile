# hipvis top-level build.
#
# Each module owns a fragment (`module.mk`) next to its sources that appends
# to the variables below; this file only knows how to turn sources into the
# shipped artifacts. That keeps modules independent: a new intercept family or
# analysis rule touches its own directory and nothing else.
#
#   make            -> build/ (optimised, what ships)
#   make check      -> build/ + build-san/ (ASan+UBSan) and runs every test
#   make demo       -> the decode-loop demo on the test-only runtime double
#   make bench      -> benchmarks (figures printed as side-by-side ratios)
#   make install PREFIX=/usr/local

BUILD   ?= build
PREFIX  ?= /usr/local
SAN     ?= 0
CC      ?= cc
ifeq ($(origin CC),default)
CC      := cc
endif

HIPVIS_VERSION := 0.1.0

CPPFLAGS_BASE := -Iinclude -Isrc -D_GNU_SOURCE -DHIPVIS_VERSION=\"$(HIPVIS_VERSION)\"
CFLAGS_BASE   := -std=c11 -Wall -Wextra -Werror -g -fPIC -fno-omit-frame-pointer \
                 -fvisibility=hidden
ifeq ($(SAN),1)
CFLAGS_OPT    := -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined
LDFLAGS_SAN   := -fsanitize=address,undefined
else
CFLAGS_OPT    := -O2
LDFLAGS_SAN   :=
endif
CFLAGS  := $(CFLAGS_BASE) $(CFLAGS_OPT) $(EXTRA_CFLAGS)
LDFLAGS := $(LDFLAGS_SAN) $(EXTRA_LDFLAGS)

# Filled in by module fragments.
FORMAT_SRCS   :=   # trace format reader/writer: shared by every side
RECORD_SRCS   :=   # ring + writer thread (in-process only)
PRELOAD_SRCS  :=   # constructor, config, real-symbol lookup, intercepts
CODEOBJ_SRCS  :=   # AMDGPU code-object parsing
ANALYZE_SRCS  :=   # analyzer model, rules, reports
PROGRAMS      :=   # everything `make` builds
CHECKS        :=   # phony targets `make check` runs against build/
SAN_CHECKS    :=   # phony targets run again in build-san/ (ASan+UBSan)
BENCHES       :=   # phony targets `make bench` runs
DEMO_DEPS     :=
INSTALL_BINS  :=
INSTALL_LIBS  :=
INSTALL_MANS  :=

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

# Set-up: on a fresh Debian 12 machine, `make demo` and `make check` first
# install the packages they need (.ci/run --deps: apt-get as root; anyone
# else gets the one command to run, then make stops). It runs while this file
# is read, before the fragments below look for LLVM or the HIP headers, so
# what it installs is seen by this same make. HIPVIS_NO_BOOTSTRAP=1 skips it.
ifneq ($(filter demo check,$(MAKECMDGOALS)),)
ifeq ($(HIPVIS_NO_BOOTSTRAP),)
# Not root, its one line (the apt-get command to run) comes back on stdout and
# is make's one error line; apt-get's own output goes to stderr as it runs.
HV_SETUP := $(shell out=$$(HIPVIS_SETUP_MSG=stdout bash .ci/run --deps) || \
              echo "$${out:-hipvis: set-up failed (apt-get, above): fix it, then run make $(MAKECMDGOALS) again}")
ifneq ($(strip $(HV_SETUP)),)
$(error $(HV_SETUP))
endif
endif
endif

FRAGMENTS := $(sort $(wildcard src/*/module.mk src/*/*/module.mk src/*/*/*/module.mk tools/module.mk tests/module.mk tests/*/module.mk \
                    deploy/*/module.mk))
include $(FRAGMENTS)

.DEFAULT_GOAL := all
.PHONY: all check check-build check-san run-checks san-checks demo bench install clean fuzz \
        $(CHECKS) $(SAN_CHECKS) $(BENCHES)

all: $(PROGRAMS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# The sanitizer build is a second tree driven by a recursive make so both
# builds share one set of rules.
check-build: all
check-san:
	$(MAKE) --no-print-directory BUILD=build-san SAN=1 san-checks

check: check-build
	@$(MAKE) --no-print-directory run-checks
	@$(MAKE) --no-print-directory check-san
	@echo "make check: all suites passed$(if $(filter 1,$(HAVE_CUDA)),,; SKIPPED: check-cuda and the NVTX marks, no CUDA toolkit at $(CUDA_HOME))"

run-checks: $(CHECKS)
san-checks: $(SAN_CHECKS)

bench: all $(BENCHES)

# Installed headers: the public API (hipvis.h) and the trace reader's
# (reader.h and what it includes), the latter with the library that
# implements it, libhipvis-reader.a (link with -lzstd). libhipvis.so is
# installed stripped: it is loaded into every traced process.
INSTALL_HEADERS := include/hipvis/hipvis.h include/hipvis/reader.h include/hipvis/trace.h \
                   include/hipvis/api.h include/hipvis/api_cuda.h
STRIP ?= strip

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/include/hipvis
	$(if $(INSTALL_BINS),install -m 0755 $(INSTALL_BINS) $(DESTDIR)$(PREFIX)/bin/)
	$(if $(INSTALL_LIBS),install -m 0755 $(INSTALL_LIBS) $(DESTDIR)$(PREFIX)/lib/)
	$(STRIP) --strip-unneeded $(DESTDIR)$(PREFIX)/lib/libhipvis.so
	install -m 0644 $(BUILD)/libhvformat.a $(DESTDIR)$(PREFIX)/lib/libhipvis-reader.a
	$(if $(INSTALL_MANS),install -m 0644 $(INSTALL_MANS) $(DESTDIR)$(PREFIX)/share/man/man1/)
	install -m 0644 $(INSTALL_HEADERS) $(DESTDIR)$(PREFIX)/include/hipvis/

clean:
	rm -rf build build-san build-floor build-floor-none build-floor-pick build-floor-raw
