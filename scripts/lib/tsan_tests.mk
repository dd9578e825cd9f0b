# The service and network unit tests (tests/unit/service, tests/unit/net)
# linked against a ThreadSanitizer build of libtofa; used by scripts/sanitizers.sh.
#   make -f scripts/lib/tsan_tests.mk SRC=DIR BUILD=DIR CXX=... SANITIZE=...
TEST_SOURCES := $(wildcard $(SRC)/tests/unit/service/*.cpp $(SRC)/tests/unit/net/*.cpp) \
  $(SRC)/tools/tofactl_format.cpp $(SRC)/tools/tofactl_slurm_conf.cpp $(SRC)/tools/links_svg.cpp
OBJECTS := $(patsubst $(SRC)/%.cpp,$(BUILD)/tsan-tests/%.o,$(TEST_SOURCES))
CXXFLAGS := -std=c++17 -O1 -g -fno-omit-frame-pointer $(SANITIZE) -pthread \
  -I$(SRC)/common -I$(SRC)/tests/unit -I$(SRC)/tests/unit/net -I$(SRC)/tools -I/usr/include/scotch

$(BUILD)/service_net_tests: $(OBJECTS) $(BUILD)/common/.libs/libtofa.a
	$(CXX) $(SANITIZE) $^ -lgtest -lgtest_main -lscotch -lscotcherr -lm -lmunge \
	  $(shell pkg-config --libs nettle) -pthread -o $@

# Every object depends on every header: ccache's relative paths (CCACHE_BASEDIR)
# make compiler-written dependency files name other targets than make's, and
# ccache answers an unaffected object from its cache anyway.
HEADERS := $(shell find $(SRC)/common $(SRC)/tests/unit $(SRC)/tools -name '*.h' -o -name '*.hpp')

$(BUILD)/tsan-tests/%.o: $(SRC)/%.cpp $(HEADERS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@
