# The service and network unit tests (tests/unit/service, tests/unit/net)
# linked against a ThreadSanitizer build of libtofa; used by scripts/sanitizers.sh.
#   make -f scripts/lib/tsan_tests.mk SRC=DIR BUILD=DIR CXX=... SANITIZE=...
TEST_SOURCES := $(wildcard $(SRC)/tests/unit/service/*.cpp $(SRC)/tests/unit/net/*.cpp) \
  $(SRC)/tools/tofactl_format.cpp $(SRC)/tools/tofactl_slurm_conf.cpp
OBJECTS := $(patsubst $(SRC)/%.cpp,$(BUILD)/tsan-tests/%.o,$(TEST_SOURCES))
CXXFLAGS := -std=c++17 -O1 -g -fno-omit-frame-pointer $(SANITIZE) -pthread \
  -I$(SRC)/common -I$(SRC)/tests/unit -I$(SRC)/tests/unit/net -I$(SRC)/tools -I/usr/include/scotch

$(BUILD)/service_net_tests: $(OBJECTS) $(BUILD)/common/.libs/libtofa.a
	$(CXX) $(SANITIZE) $^ -lgtest -lgtest_main -lscotch -lscotcherr -lm -lmunge \
	  $(shell pkg-config --libs nettle) -pthread -o $@

$(BUILD)/tsan-tests/%.o: $(SRC)/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -MMD -MP -c $< -o $@

-include $(OBJECTS:.o=.d)
