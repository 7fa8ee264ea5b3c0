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
# The ensemble models' member loops (lib/models/kz_<name>_ens.c, lib/models/kz_ens_model.h): OpenMP
# SIMD with glibc's vector math library (no -ffast-math: sin and cos are declared simd there), one
# clone per vector ISA.
build/obj/models/%_ens.o: XFLAGS = -O3 -fopenmp-simd -fno-math-errno
build/asan/models/%_ens.o: XFLAGS = -fopenmp-simd -fno-math-errno
build/obj/methods/kz_ens.o: XFLAGS = -O3 -fopenmp-simd
build/asan/methods/kz_ens.o: XFLAGS = -fopenmp-simd
LUAJIT  := luajit
# The library's layers, one folder each (lib/README.md): its C files and private headers.
LIBDIRS := core steppers methods models
SRC     := $(sort $(wildcard $(LIBDIRS:%=lib/%/kz_*.c)))
# The models' own sources (lib/models/<name>.c, one per model: lib/models/README.md), read by their
# model files (lib/models/<name>.lua) and compiled into the library by the adapters that #include
# them (kz_<name>.c), never on their own. The runtime model loader needs them and kz_model.h.
MODELSRC := $(filter-out lib/models/kz_%,$(wildcard lib/models/*.c))
# The public headers: lib/include/kapitza.h and its modules lib/include/kapitza/*.h, included as
# <kapitza.h> and <kapitza/NAME.h> from the source tree (-Ilib/include) and from PREFIX/include alike;
# the private ones (kz_internal.h, ...) by their names from the layers' folders.
INC     := -Ilib/include $(LIBDIRS:%=-Ilib/%)
HDR     := $(wildcard lib/include/*.h lib/include/kapitza/*.h $(LIBDIRS:%=lib/%/*.h))
OBJ     := $(patsubst lib/%.c,build/obj/%.o,$(SRC))
AOBJ    := $(patsubst lib/%.c,build/asan/%.o,$(SRC))
# The Lua package: lib/lua/kapitza.lua (the binding) and lib/lua/kapitza/**.lua, each module at the
# path its name says (require "kapitza.atlas.run" is lib/lua/kapitza/atlas/run.lua).
LUAMOD  := lib/lua/kapitza.lua $(sort $(shell find lib/lua/kapitza -name '*.lua'))
# the papers' model files (lib/lua/kapitza/models.lua builds the built-in models from them)
MODELFILES := $(wildcard lib/models/*.lua)
# The longest scenarios first (CPU seconds on the reference machine: sam-fig6 9.5, ste-fig3.2/3.3
# 8.4, ste-fig3.5 6.1, ste-fig3.4 5.5, vmi-table2 3.2, top-table1 2.8, atlas-dpend 2.7), so that
# `make -j2 figures` does not end on one of them running alone; then the rest in name order.
LONGPOLES := sam-fig6 ste-fig3.2 ste-fig3.3 ste-fig3.5 ste-fig3.4 vmi-table2 top-table1 atlas-dpend
ALLSCEN := $(sort $(basename $(notdir $(wildcard scenarios/*.lua))))
SCEN    := $(filter $(ALLSCEN),$(LONGPOLES)) $(filter-out $(LONGPOLES),$(ALLSCEN))
# Every figure of paper/figures is drawn by its scenario into DIR/figures (scenario.lua, sc:figure)
# and comes with its stamp; the benchmark figures (figures/bench-*.gp) are drawn by make bench.
STAMPS  := $(SCEN:%=build/stamp/%.ok)

.PHONY: all asan figures paper scenarios check test bench deps deps-lib deps-peers peers clean FORCE
.DELETE_ON_ERROR:

all: lib/libkapitza.so

$(filter build/obj/models/%,$(OBJ)) $(filter build/asan/models/%,$(AOBJ)): $(MODELSRC)

build/obj/%.o: lib/%.c $(HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(INC) $(CFLAGS) $(XFLAGS) -fPIC -c $< -o $@

build/asan/%.o: lib/%.c $(HDR)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(INC) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	  -fno-sanitize-recover=undefined $(XFLAGS) -fPIC -c $< -o $@

# -z nodelete: the library stays mapped once loaded (LuaJIT closes what ffi.load opened when its
# state closes, while the watch's monitor thread, lib/core/kz_watch.c, may still run its code)
lib/libkapitza.so: $(OBJ) | deps-lib
	$(CC) -shared -Wl,-z,nodelete -o $@ $(OBJ) $(LDLIBS)

lib/libkapitza-asan.so: $(AOBJ) | deps-lib
	$(CC) -shared -Wl,-z,nodelete -fsanitize=address,undefined -o $@ $(AOBJ) $(LDLIBS)

asan: lib/libkapitza-asan.so

deps:
	@sh scripts/deps.sh

# What linking the library needs (gcc, LAPACK): `make` alone checks only this.
deps-lib:
	@sh scripts/deps.sh --lib

# The optional peer integrators of `make bench` (scripts/peers/, lib/lua/kapitza/peers.lua): build/libkzpeers.so
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

build/libkzpeers.so: $(wildcard scripts/peers/*.c scripts/peers/*.h) $(HDR) build/peers.cfg lib/libkapitza.so
	$(CC) $(CSTD) $(WARN) -Ilib/include $(CFLAGS) -fPIC -shared $(PEER_DEF) -o $@ $(PEER_C) -Llib -lkapitza \
	  -Wl,-rpath,'$$ORIGIN/../lib' $(PEER_LIB) -lm

peers: build/libkzpeers.so
FORCE:

# The optional peers of `make bench` (GSL, SUNDIALS) and GNU parallel: large, never needed by check.
deps-peers:
	@sh scripts/deps.sh --peers

# One stamp per scenario: it writes its own files under paper/ (never another's), so -j2 is safe;
# it also draws its own figures (figures/<id>*.gp and the .gpi files they load).
.SECONDEXPANSION:
build/stamp/%.ok: scenarios/%.lua lib/libkapitza.so $(LUAMOD) $(MODELFILES) $(MODELSRC) lib/models/kz_model.h $(wildcard figures/*.gpi) $$(wildcard figures/$$*.gp) | deps
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
# The version is written once, in lib/include/kapitza.h (enum kz_version). Installed: the headers
# (kapitza.h in INCLUDEDIR, its modules in INCLUDEDIR/kapitza/), the shared
# library libkapitza.so.MAJOR.MINOR.PATCH (SONAME libkapitza.so.MAJOR) with its two symlinks, the
# static library, kapitza.pc, and the Lua modules: kapitza.lua in LUADIR (LuaJIT's default search
# path for PREFIX=/usr/local or /usr), the others in LUADIR/kapitza/ (the papers' model files with
# their C and the preamble kz_model.h, which the model loader compiles, in kapitza/models/), with kapitza/config.lua,
# which tells the installed kapitza.lua where its header and library are (relative to itself).
kz_version_part = $(shell sed -n 's/.*KZ_VERSION_$(1) = \([0-9][0-9]*\).*/\1/p' lib/include/kapitza.h)
VMAJOR     := $(call kz_version_part,MAJOR)
VERSION    := $(VMAJOR).$(call kz_version_part,MINOR).$(call kz_version_part,PATCH)
PREFIX     ?= /usr/local
DESTDIR    ?=
# Paths may hold spaces: they are used only through text functions (subst, never the word-wise
# patsubst or abspath) and reach the shell single-quoted ($(call shq,...)). A relative PREFIX (or
# INCLUDEDIR, LIBDIR, PCDIR, LUADIR) is taken from the directory make runs in, so that kapitza.pc
# names an absolute prefix; an empty one is refused.
shq        = '$(subst ','\'',$(1))'
abs_dir    = $(if $(filter /%,$(firstword $(1))),$(1),$(CURDIR)/$(1))
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
ifeq ($(strip $(PREFIX)),)
$(error make install: PREFIX is empty (give a directory, e.g. PREFIX=/usr/local))
endif
endif
override PREFIX := $(call abs_dir,$(PREFIX))
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR     ?= $(PREFIX)/lib
PCDIR      ?= $(LIBDIR)/pkgconfig
LUADIR     ?= $(PREFIX)/share/lua/5.1
BINDIR     ?= $(PREFIX)/bin
override INCLUDEDIR := $(call abs_dir,$(INCLUDEDIR))
override LIBDIR     := $(call abs_dir,$(LIBDIR))
override PCDIR      := $(call abs_dir,$(PCDIR))
override LUADIR     := $(call abs_dir,$(LUADIR))
override BINDIR     := $(call abs_dir,$(BINDIR))
SONAME     := libkapitza.so.$(VMAJOR)
SOFILE     := libkapitza.so.$(VERSION)
LUAOTHER   := $(filter-out lib/lua/kapitza.lua,$(LUAMOD))
KZHDR      := $(wildcard lib/include/kapitza/*.h)
# what bin/kapitza needs besides the modules: the atlas and sweep figures and the sweep tool (in LUADIR/kapitza)
KZDATA     := figures/style.gpi figures/atlas-model.gp figures/atlas-model-sweep.gp figures/atlas-model-scaling.gp figures/sweep-line.gp figures/sweep-grid.gp scripts/sweep.lua
# kapitza.pc: a directory under PREFIX as ${prefix}/..., and spaces escaped as pkg-config reads them
pc_rel     = $(subst |$(PREFIX)/,,|$(1))
pc_esc     = $(subst $(space),\$(space),$(1))
pc_dir     = $(call pc_esc,$(if $(findstring |,$(call pc_rel,$(1))),$(1),$${prefix}/$(call pc_rel,$(1))))
empty      :=
space      := $(empty) $(empty)
D_INC      = $(DESTDIR)$(INCLUDEDIR)
D_LIB      = $(DESTDIR)$(LIBDIR)
D_PC       = $(DESTDIR)$(PCDIR)
D_LUA      = $(DESTDIR)$(LUADIR)
D_BIN      = $(DESTDIR)$(BINDIR)

.PHONY: install uninstall

build/dist/$(SOFILE): $(OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-z,nodelete -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

build/dist/libkapitza.a: $(OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

install: build/dist/$(SOFILE) build/dist/libkapitza.a
	install -d $(call shq,$(D_INC)/kapitza) $(call shq,$(D_LIB)) $(call shq,$(D_PC)) $(call shq,$(D_LUA)/kapitza)
	install -m 644 lib/include/kapitza.h $(call shq,$(D_INC)/kapitza.h)
	install -m 644 $(KZHDR) $(call shq,$(D_INC)/kapitza/)
	install -m 755 build/dist/$(SOFILE) $(call shq,$(D_LIB)/$(SOFILE))
	ln -sf $(SOFILE) $(call shq,$(D_LIB)/$(SONAME))
	ln -sf $(SONAME) $(call shq,$(D_LIB)/libkapitza.so)
	install -m 644 build/dist/libkapitza.a $(call shq,$(D_LIB)/libkapitza.a)
	printf '%s\n' $(call shq,prefix=$(call pc_esc,$(PREFIX))) \
	  $(call shq,includedir=$(call pc_dir,$(INCLUDEDIR))) $(call shq,libdir=$(call pc_dir,$(LIBDIR))) '' \
	  'Name: kapitza' \
	  'Description: numerical integrators for highly oscillatory and multirate mechanical systems' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lkapitza' 'Libs.private: -llapack -lmvec -lm -lpthread' \
	  > $(call shq,$(D_PC)/kapitza.pc)
	install -m 644 lib/lua/kapitza.lua $(call shq,$(D_LUA)/kapitza.lua)
	for f in $(LUAOTHER); do d=$$(dirname $${f#lib/lua/}); install -d $(call shq,$(D_LUA))/$$d && \
	  install -m 644 $$f $(call shq,$(D_LUA))/$${f#lib/lua/} || exit 1; done
	install -d $(call shq,$(D_LUA)/kapitza/models)
	install -m 644 $(MODELFILES) $(MODELSRC) lib/models/kz_model.h $(call shq,$(D_LUA)/kapitza/models/)
	install -d $(call shq,$(D_BIN)) $(call shq,$(D_LUA)/kapitza/figures) $(call shq,$(D_LUA)/kapitza/scripts)
	for f in $(KZDATA); do install -m 644 $$f $(call shq,$(D_LUA)/kapitza)/$$f || exit 1; done
	rel=$$(realpath -m -s --relative-to=$(call shq,$(BINDIR)) $(call shq,$(LUADIR))) && \
	  sed "s|^local luadir_rel = nil.*|local luadir_rel = [=[$$rel]=] -- written by make install|" \
	  bin/kapitza > $(call shq,$(D_BIN)/kapitza.tmp) && chmod 755 $(call shq,$(D_BIN)/kapitza.tmp) && \
	  mv $(call shq,$(D_BIN)/kapitza.tmp) $(call shq,$(D_BIN)/kapitza)
	printf '%s\n' '-- written by make install: where the installed kapitza.lua finds its header and library' \
	  '-- (relative to the folder of kapitza.lua)' \
	  "return { version = \"$(VERSION)\", header = [=[$$(realpath -m -s --relative-to=$(call shq,$(LUADIR)) $(call shq,$(INCLUDEDIR)/kapitza.h))]=]," \
	  "         lib = [=[$$(realpath -m -s --relative-to=$(call shq,$(LUADIR)) $(call shq,$(LIBDIR)/$(SONAME)))]=] }" \
	  > $(call shq,$(D_LUA)/kapitza/config.lua)

uninstall:
	rm -f $(call shq,$(D_INC)/kapitza.h) $(call shq,$(D_LIB)/$(SOFILE)) $(call shq,$(D_LIB)/$(SONAME)) \
	  $(call shq,$(D_LIB)/libkapitza.so) $(call shq,$(D_LIB)/libkapitza.a) $(call shq,$(D_PC)/kapitza.pc) \
	  $(call shq,$(D_LUA)/kapitza.lua) $(call shq,$(D_LUA)/kapitza/config.lua) $(call shq,$(D_BIN)/kapitza)
	cd $(call shq,$(D_LUA)) 2>/dev/null && rm -f $(LUAOTHER:lib/lua/%=%) || true
	cd $(call shq,$(D_LUA)/kapitza) 2>/dev/null && rm -f $(KZDATA) || true
	-cd $(call shq,$(D_LUA)/kapitza) 2>/dev/null && rmdir $(sort $(dir $(LUAOTHER:lib/lua/kapitza/%=%))) 2>/dev/null
	cd $(call shq,$(D_LUA)/kapitza/models) 2>/dev/null && rm -f $(notdir $(MODELFILES) $(MODELSRC)) kz_model.h || true
	cd $(call shq,$(D_INC)/kapitza) 2>/dev/null && rm -f $(notdir $(KZHDR)) || true
	-rmdir $(call shq,$(D_LUA)/kapitza/figures) $(call shq,$(D_LUA)/kapitza/scripts) $(call shq,$(D_LUA)/kapitza/models) 2>/dev/null
	-rmdir $(call shq,$(D_LUA)/kapitza) $(call shq,$(D_INC)/kapitza) 2>/dev/null
