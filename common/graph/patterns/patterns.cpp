#include "graph/patterns/patterns.hpp"

#include <string>

#include "base/error.hpp"
#include "graph/patterns/builders.hpp"

namespace tofa {
namespace {

struct Registered {
  PatternKind kind;
  CommGraph (*build)(const patterns::PatternSpec&);
};

const std::vector<Registered>& table() {
  static const std::vector<Registered> registered = {
      {{"halo", "halo:ranks=PxQ[xR],cells=AxB[xC][,periodic=yes][,width=1][,bytes=8]"},
       patterns::halo_pattern},
      {{"allreduce", "allreduce:ranks=N,bytes=SIZE[,algorithm=ring|recursive-doubling|binomial]"},
       patterns::allreduce_pattern},
      {{"bcast", "bcast:ranks=N,bytes=SIZE[,algorithm=binomial|linear|pipeline][,root=0]"},
       patterns::bcast_pattern},
      {{"alltoall", "alltoall:ranks=N,bytes=SIZE (each pair)"}, patterns::alltoall_pattern},
      {{"fft", "fft:ranks=RxC,grid=XxYxZ[,bytes=16] (pencil decomposition)"},
       patterns::fft_pattern},
      {{"training",
        "training:tp=T,pp=P,dp=D,layers=L,hidden=H,seq=S[,microbatch=1][,microbatches=1]"
        "[,params=12LH^2][,dtype=bf16|fp16|fp32][,allreduce=ring|recursive-doubling|binomial]"},
       patterns::training_pattern},
  };
  return registered;
}

constexpr long long kMaxPatternRecords = 1LL << 26;

}  // namespace

namespace patterns {

void check_pattern_size(const PatternSpec& spec, const char* key, long long tasks,
                        long long records) {
  if (tasks > (1 << 24)) spec.fail(key, "more than 2^24 ranks");
  if (records > kMaxPatternRecords)
    spec.fail(key, "about " + std::to_string(records) + " messages, more than " +
                       std::to_string(kMaxPatternRecords) + " a pattern may make");
}

}  // namespace patterns

const std::vector<PatternKind>& pattern_kinds() {
  static const std::vector<PatternKind> kinds = [] {
    std::vector<PatternKind> out;
    for (const Registered& r : table()) out.push_back(r.kind);
    return out;
  }();
  return kinds;
}

CommGraph pattern_graph(const std::string& spec) {
  const patterns::PatternSpec parsed(spec);
  std::string names;
  for (const Registered& r : table()) {
    if (parsed.name() == r.kind.name) return r.build(parsed);
    names += (names.empty() ? "" : ", ") + std::string(r.kind.name);
  }
  parsed.fail_at(1, "unknown pattern '" + parsed.name() + "' (patterns: " + names + ")");
}

}  // namespace tofa
