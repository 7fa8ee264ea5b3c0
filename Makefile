# kapitza -- build, reproduce, test, benchmark.
#   make            the library lib/libkapitza.so
#   make figures    run every scenario, draw every figure, weave paper/paper.md
#   make check      tests (busted under LuaJIT, part of them on the sanitizer build) + regression
#   make bench      benchmarks into paper/bench/
#   make asan       lib/libkapitza-asan.so (-fsanitize=address,undefined)
# Missing Debian packages are installed by scripts/deps.sh when run as root.

CC      ?= gcc
CSTD    := -std=c11 -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Werror
CFLAGS  ?= -O2
LDLIBS  := -llapack -lm
LUAJIT  := luajit
SRC     := $(sort $(wildcard lib/*.c))
HDR     := $(wildcard lib/*.h)
OBJ     := $(patsubst lib/%.c,build/obj/%.o,$(SRC))
AOBJ    := $(patsubst lib/%.c,build/asan/%.o,$(SRC))
LUAMOD  := $(wildcard lib/*.lua)
SCEN    := $(sort $(basename $(notdir $(wildcard scenarios/*.lua))))
# Figures the Makefile draws: the scripts with a '# needs:' line; the others are drawn by their
# scenario into DIR/figures (scenario.lua, sc:figure) and come with its stamp.
FIGS    := $(sort $(basename $(notdir $(shell grep -l '^\# needs:' figures/*.gp))))
STAMPS  := $(SCEN:%=build/stamp/%.ok)
SVGS    := $(FIGS:%=paper/figures/%.svg)

.PHONY: all asan figures scenarios check test bench deps deps-peers clean
.DELETE_ON_ERROR:

all: lib/libkapitza.so

build/obj/%.o: lib/%.c $(HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -c $< -o $@

build/asan/%.o: lib/%.c $(HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	  -fno-sanitize-recover=undefined -fPIC -c $< -o $@

lib/libkapitza.so: $(OBJ) | deps
	$(CC) -shared -o $@ $(OBJ) $(LDLIBS)

lib/libkapitza-asan.so: $(AOBJ) | deps
	$(CC) -shared -fsanitize=address,undefined -o $@ $(AOBJ) $(LDLIBS)

asan: lib/libkapitza-asan.so

deps:
	@sh scripts/deps.sh

# The optional peers of `make bench` (GSL, SUNDIALS) and GNU parallel: large, never needed by check.
deps-peers:
	@sh scripts/deps.sh --peers

# One stamp per scenario: it writes its own files under paper/ (never another's), so -j2 is safe;
# it also draws its own figures (figures/<id>*.gp) when the scripts have no '# needs:' line.
.SECONDEXPANSION:
build/stamp/%.ok: scenarios/%.lua lib/libkapitza.so $(LUAMOD) $(wildcard figures/*.gpi) $$(wildcard figures/$$*.gp) | deps
	@mkdir -p $(@D)
	$(LUAJIT) scenarios/$*.lua --out paper
	@touch $@

scenarios: $(STAMPS)

# Each figure script names the scenarios whose data it draws on a line "# needs: id id ...".
build/figdeps.mk: $(wildcard figures/*.gp)
	@mkdir -p $(@D)
	@for f in $(FIGS:%=figures/%.gp); do id=$$(basename $$f .gp); \
	  needs=$$(sed -n 's/^# needs://p' $$f); \
	  printf 'paper/figures/%s.svg:' $$id; \
	  for n in $$needs; do printf ' build/stamp/%s.ok' $$n; done; echo; done > $@
-include build/figdeps.mk

paper/figures/%.svg: figures/%.gp $(wildcard figures/*.gpi) | deps
	@mkdir -p $(@D)
	gnuplot -e "outfile='$@.tmp'" $< && mv $@.tmp $@

paper/paper.md: scripts/weave.lua $(STAMPS) $(SVGS) $(wildcard scenarios/*.lua)
	$(LUAJIT) scripts/weave.lua paper > $@.tmp && mv $@.tmp $@

figures: $(STAMPS) $(SVGS) paper/paper.md

check test: lib/libkapitza.so lib/libkapitza-asan.so | deps
	@sh scripts/check.sh

# Every scripts/bench-*.lua writes paper/bench/<name>.{tsv,md} (ratios measured in one run).
bench: lib/libkapitza.so | deps
	@for b in scripts/bench-*.lua; do echo "== $$b"; $(LUAJIT) $$b --out paper || exit 1; done
	@for f in figures/bench-*.gp; do [ -f "$$f" ] || continue; id=$$(basename $$f .gp); \
	  gnuplot -e "outfile='paper/figures/$$id.svg'" $$f || exit 1; done

clean:
	rm -rf build lib/libkapitza.so lib/libkapitza-asan.so
