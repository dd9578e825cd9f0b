# Builds the libFuzzer targets (fuzz/*_fuzzer.cpp) with clang, ASan and UBSan,
# outside the source tree; the in-tree autotools build (g++) is not touched.
#   make -f fuzz/build.mk BUILD=DIR -j2
# libtofa's sources are the .cpp files of common/local.mk, except the munge
# codec, which fuzz/fake_munge_codec.cpp replaces (no munged while fuzzing).
SRC := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
BUILD ?= $(SRC)/out/fuzz-build
CCACHE := $(shell command -v ccache 2>/dev/null)
CXX := $(CCACHE) clang++

LIB_SOURCES := $(filter-out common/net/munge_codec.cpp,$(filter %.cpp, \
  $(shell sed -n '/^common_libtofa_la_SOURCES/,/^[^[:space:]]/p' $(SRC)/common/local.mk | tr -d '\\')))
TARGETS := $(patsubst $(SRC)/fuzz/%_fuzzer.cpp,%,$(wildcard $(SRC)/fuzz/*_fuzzer.cpp))

SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all
# Small size limits (common/base/size_limit.hpp), as OSS-Fuzz builds define.
FUZZ_MODE := -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
CXXFLAGS := -std=c++17 -O1 -g -fno-omit-frame-pointer $(SANITIZE) $(FUZZ_MODE) -fsanitize=fuzzer-no-link \
  -I$(SRC)/common -I$(SRC)/fuzz -I/usr/include/scotch $(shell pkg-config --cflags nettle)
LDFLAGS := $(SANITIZE) -fsanitize=fuzzer
LDLIBS := -lscotch -lscotcherr -lm -lmunge $(shell pkg-config --libs nettle) -pthread

LIB_OBJECTS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(LIB_SOURCES) fuzz/fake_munge_codec.cpp)

all: $(addprefix $(BUILD)/bin/fuzz_,$(TARGETS))

$(BUILD)/libtofa-fuzz.a: $(LIB_OBJECTS)
	@rm -f $@
	ar rcs $@ $^

# Every object depends on every header and on this file (its flags): ccache's
# relative paths (CCACHE_BASEDIR) make compiler-written dependency files name
# other targets than make's, and ccache answers an unaffected object anyway.
HEADERS := $(shell find $(SRC)/common $(SRC)/fuzz -name '*.h' -o -name '*.hpp')

# The mapping strategies compare computed costs, not input bytes: libFuzzer's
# comparison tracing there guides nothing and took 38% of the mapping target's
# time. Rubik's spec parser, under common/map too, keeps it.
SEARCH_OBJECTS := $(filter-out $(BUILD)/obj/common/map/rubik/spec_parser.o, \
  $(filter $(BUILD)/obj/common/map/%,$(LIB_OBJECTS)))
$(SEARCH_OBJECTS): CXXFLAGS += -fno-sanitize-coverage=trace-cmp

$(BUILD)/obj/%.o: $(SRC)/%.cpp $(HEADERS) $(SRC)/fuzz/build.mk
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/bin/fuzz_%: $(BUILD)/obj/fuzz/%_fuzzer.o $(BUILD)/libtofa-fuzz.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

.PHONY: all
.SECONDARY:
