# kapitza -- build, reproduce, test, benchmark.
#   make            the library lib/libkapitza.so
#   make figures    run every scenario, draw every figure, weave paper/paper.md and paper.html
#   make paper      only weave paper/paper.md and render paper/paper.html
#   make check      tests (busted under LuaJIT, part of them on the sanitizer build) + regression
#   make bench      benchmarks into paper/bench/ (then weaves paper/paper.md and paper.html again)
#   make asan       lib/libkapitza-asan.so (-fsanitize=address,undefined)
# Missing Debian packages are installed by scripts/deps.sh when run as root.

CC      ?= gcc
CSTD    := -std=c11 -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Werror
CFLAGS  ?= -O2
LDLIBS  := -llapack -lmvec -lm -lpthread
# The ensemble models' member loops (lib/kz_ens_models.c): OpenMP SIMD with glibc's vector math
# library (no -ffast-math: sin and cos are declared simd there), one clone per vector ISA.
build/obj/kz_ens_models.o: XFLAGS = -O3 -fopenmp-simd -fno-math-errno
build/asan/kz_ens_models.o: XFLAGS = -fopenmp-simd -fno-math-errno
build/obj/kz_ens.o: XFLAGS = -O3 -fopenmp-simd
build/asan/kz_ens.o: XFLAGS = -fopenmp-simd
LUAJIT  := luajit
SRC     := $(sort $(wildcard lib/*.c))
HDR     := $(wildcard lib/*.h)
OBJ     := $(patsubst lib/%.c,build/obj/%.o,$(SRC))
AOBJ    := $(patsubst lib/%.c,build/asan/%.o,$(SRC))
LUAMOD  := $(wildcard lib/*.lua)
SCEN    := $(sort $(basename $(notdir $(wildcard scenarios/*.lua))))
# Every figure of paper/figures is drawn by its scenario into DIR/figures (scenario.lua, sc:figure)
# and comes with its stamp; the benchmark figures (figures/bench-*.gp) are drawn by make bench.
STAMPS  := $(SCEN:%=build/stamp/%.ok)

.PHONY: all asan figures paper scenarios check test bench deps deps-lib deps-peers peers clean FORCE
.DELETE_ON_ERROR:

all: lib/libkapitza.so

build/obj/%.o: lib/%.c $(HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(XFLAGS) -fPIC -c $< -o $@

build/asan/%.o: lib/%.c $(HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	  -fno-sanitize-recover=undefined $(XFLAGS) -fPIC -c $< -o $@

lib/libkapitza.so: $(OBJ) | deps-lib
	$(CC) -shared -o $@ $(OBJ) $(LDLIBS)

lib/libkapitza-asan.so: $(AOBJ) | deps-lib
	$(CC) -shared -fsanitize=address,undefined -o $@ $(AOBJ) $(LDLIBS)

asan: lib/libkapitza-asan.so

deps:
	@sh scripts/deps.sh

# What linking the library needs (gcc, LAPACK): `make` alone checks only this.
deps-lib:
	@sh scripts/deps.sh --lib

# The optional peer integrators of `make bench` (scripts/peers/, lib/peers.lua): build/libkzpeers.so
# with the backends whose libraries are found (GSL: pkg-config; SUNDIALS: a link test); without
# any it still builds and reports every peer as unavailable, so nothing else needs them.
SUNLIBS  := -lsundials_cvode -lsundials_arkode -lsundials_nvecserial -lsundials_sunlinsoldense \
            -lsundials_sunmatrixdense -lsundials_sunnonlinsolfixedpoint
HAVE_GSL := $(shell pkg-config --exists gsl 2>/dev/null && echo 1)
HAVE_SUN := $(shell printf '\043include <arkode/arkode_mristep.h>\n\043include <cvode/cvode.h>\nint main(void){return 0;}\n' | \
              $(CC) -x c -o /dev/null - $(SUNLIBS) >/dev/null 2>&1 && echo 1)
PEER_C   := scripts/peers/peer_common.c scripts/peers/peer_field.c $(if $(HAVE_GSL),scripts/peers/peer_gsl.c) \
            $(if $(HAVE_SUN),scripts/peers/peer_sundials.c)
PEER_DEF := $(if $(HAVE_GSL),-DKZP_HAVE_GSL) $(if $(HAVE_SUN),-DKZP_HAVE_SUNDIALS)
PEER_LIB := $(if $(HAVE_GSL),$(shell pkg-config --libs gsl 2>/dev/null)) $(if $(HAVE_SUN),$(SUNLIBS))

build/peers.cfg: FORCE
	@mkdir -p $(@D); echo "$(PEER_DEF)" | cmp -s - $@ || echo "$(PEER_DEF)" > $@

build/libkzpeers.so: $(wildcard scripts/peers/*.c scripts/peers/*.h) build/peers.cfg lib/libkapitza.so
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared $(PEER_DEF) -o $@ $(PEER_C) -Llib -lkapitza \
	  -Wl,-rpath,'$$ORIGIN/../lib' $(PEER_LIB) -lm

peers: build/libkzpeers.so
FORCE:

# The optional peers of `make bench` (GSL, SUNDIALS) and GNU parallel: large, never needed by check.
deps-peers:
	@sh scripts/deps.sh --peers

# One stamp per scenario: it writes its own files under paper/ (never another's), so -j2 is safe;
# it also draws its own figures (figures/<id>*.gp and the .gpi files they load).
.SECONDEXPANSION:
build/stamp/%.ok: scenarios/%.lua lib/libkapitza.so $(LUAMOD) $(wildcard figures/*.gpi) $$(wildcard figures/$$*.gp) | deps
	@mkdir -p $(@D)
	$(LUAJIT) scenarios/$*.lua --out paper
	@touch $@

scenarios: $(STAMPS)

paper/paper.md: scripts/weave.lua $(STAMPS) $(wildcard scenarios/*.lua) $(wildcard paper/reference/*) paper/front.md \
                $(wildcard paper/bench/*.md)
	$(LUAJIT) scripts/weave.lua paper > $@.tmp && mv $@.tmp $@

# the report as one standalone HTML page (figures inline), rendered by cmark-gfm
paper/paper.html: paper/paper.md scripts/html.lua | deps
	$(LUAJIT) scripts/html.lua paper

paper: paper/paper.md paper/paper.html

figures: $(STAMPS) paper/paper.md paper/paper.html

check test: lib/libkapitza.so lib/libkapitza-asan.so build/libkzpeers.so | deps
	@sh scripts/check.sh

# Every scripts/bench-*.lua writes paper/bench/<name>.{tsv,md} (ratios measured in one run), one
# after the other (never two timings side by side); then figures/bench-*.gp draw them.
bench: lib/libkapitza.so build/libkzpeers.so | deps
	@for b in scripts/bench-*.lua; do echo "== $$b"; $(LUAJIT) $$b --out paper || exit 1; done
	@for f in figures/bench-*.gp; do [ -f "$$f" ] || continue; id=$$(basename $$f .gp); \
	  gnuplot -e "outfile='paper/figures/$$id.svg'" $$f || exit 1; done
	$(LUAJIT) scripts/weave.lua paper > paper/paper.md.tmp && mv paper/paper.md.tmp paper/paper.md
	$(LUAJIT) scripts/html.lua paper

clean:
	rm -rf build lib/libkapitza.so lib/libkapitza-asan.so

# ---- Installation (make install PREFIX=... DESTDIR=...; make uninstall) -------------------------
# The version is written once, in lib/kapitza.h (enum kz_version). Installed: the header, the shared
# library libkapitza.so.MAJOR.MINOR.PATCH (SONAME libkapitza.so.MAJOR) with its two symlinks, the
# static library, kapitza.pc, and the Lua modules: kapitza.lua in LUADIR (LuaJIT's default search
# path for PREFIX=/usr/local or /usr), the others in LUADIR/kapitza/ with kapitza/config.lua,
# which tells the installed kapitza.lua where its header and library are (relative to itself).
kz_version_part = $(shell sed -n 's/.*KZ_VERSION_$(1) = \([0-9][0-9]*\).*/\1/p' lib/kapitza.h)
VMAJOR     := $(call kz_version_part,MAJOR)
VERSION    := $(VMAJOR).$(call kz_version_part,MINOR).$(call kz_version_part,PATCH)
PREFIX     ?= /usr/local
DESTDIR    ?=
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR     ?= $(PREFIX)/lib
PCDIR      ?= $(LIBDIR)/pkgconfig
LUADIR     ?= $(PREFIX)/share/lua/5.1
BINDIR     ?= $(PREFIX)/bin
SONAME     := libkapitza.so.$(VMAJOR)
SOFILE     := libkapitza.so.$(VERSION)
LUAOTHER   := $(filter-out lib/kapitza.lua,$(LUAMOD))
# the papers' model files (lib/models.lua builds the built-in models from them)
MODELFILES := $(wildcard lib/models/*.lua)
# what bin/kapitza needs besides the modules: the atlas figure and the sweep tool (in LUADIR/kapitza)
KZDATA     := figures/style.gpi figures/atlas-model.gp scripts/sweep.lua

.PHONY: install uninstall

build/dist/$(SOFILE): $(OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

build/dist/libkapitza.a: $(OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

install: build/dist/$(SOFILE) build/dist/libkapitza.a
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(LUADIR)/kapitza
	install -m 644 lib/kapitza.h $(DESTDIR)$(INCLUDEDIR)/kapitza.h
	install -m 755 build/dist/$(SOFILE) $(DESTDIR)$(LIBDIR)/$(SOFILE)
	ln -sf $(SOFILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libkapitza.so
	install -m 644 build/dist/libkapitza.a $(DESTDIR)$(LIBDIR)/libkapitza.a
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))' \
	  'libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))' '' \
	  'Name: kapitza' \
	  'Description: numerical integrators for highly oscillatory and multirate mechanical systems' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lkapitza' 'Libs.private: -llapack -lmvec -lm -lpthread' \
	  > $(DESTDIR)$(PCDIR)/kapitza.pc
	install -m 644 lib/kapitza.lua $(DESTDIR)$(LUADIR)/kapitza.lua
	install -m 644 $(LUAOTHER) $(DESTDIR)$(LUADIR)/kapitza/
	install -d $(DESTDIR)$(LUADIR)/kapitza/models
	install -m 644 $(MODELFILES) $(DESTDIR)$(LUADIR)/kapitza/models/
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LUADIR)/kapitza/figures $(DESTDIR)$(LUADIR)/kapitza/scripts
	for f in $(KZDATA); do install -m 644 $$f $(DESTDIR)$(LUADIR)/kapitza/$$f || exit 1; done
	sed 's|^local luadir_rel = nil.*|local luadir_rel = "$(shell realpath -m --relative-to=$(BINDIR) $(LUADIR))" -- written by make install|' \
	  bin/kapitza > $(DESTDIR)$(BINDIR)/kapitza.tmp && chmod 755 $(DESTDIR)$(BINDIR)/kapitza.tmp && \
	  mv $(DESTDIR)$(BINDIR)/kapitza.tmp $(DESTDIR)$(BINDIR)/kapitza
	printf '%s\n' '-- written by make install: where the installed kapitza.lua finds its header and library' \
	  '-- (relative to the folder of kapitza.lua)' \
	  'return { version = "$(VERSION)", header = "$(shell realpath -m --relative-to=$(LUADIR) $(INCLUDEDIR)/kapitza.h)",' \
	  '         lib = "$(shell realpath -m --relative-to=$(LUADIR) $(LIBDIR)/$(SONAME))" }' \
	  > $(DESTDIR)$(LUADIR)/kapitza/config.lua

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/kapitza.h $(DESTDIR)$(LIBDIR)/$(SOFILE) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	  $(DESTDIR)$(LIBDIR)/libkapitza.so $(DESTDIR)$(LIBDIR)/libkapitza.a $(DESTDIR)$(PCDIR)/kapitza.pc \
	  $(DESTDIR)$(LUADIR)/kapitza.lua $(DESTDIR)$(LUADIR)/kapitza/config.lua \
	  $(addprefix $(DESTDIR)$(LUADIR)/kapitza/,$(notdir $(LUAOTHER))) \
	  $(addprefix $(DESTDIR)$(LUADIR)/kapitza/,$(KZDATA)) $(DESTDIR)$(BINDIR)/kapitza \
	  $(addprefix $(DESTDIR)$(LUADIR)/kapitza/models/,$(notdir $(MODELFILES)))
	-rmdir $(DESTDIR)$(LUADIR)/kapitza/figures $(DESTDIR)$(LUADIR)/kapitza/scripts $(DESTDIR)$(LUADIR)/kapitza/models 2>/dev/null
	-rmdir $(DESTDIR)$(LUADIR)/kapitza 2>/dev/null
