// Size limits (nodes per topology, names per hostlist, cells per Rubik tree,
// tasks per graph) are checked before anything is allocated. Fuzz builds
// define OSS-Fuzz's FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION and get small
// limits: the same checks, at sizes a fuzzer runs thousands of times per
// second instead of spending seconds building a million-node topology.
#pragma once

namespace tofa {

constexpr long long size_limit(long long production, long long fuzzing) {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  (void)production;
  return fuzzing;
#else
  (void)fuzzing;
  return production;
#endif
}

}  // namespace tofa
