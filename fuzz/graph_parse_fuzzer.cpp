// tofa::parse_graph on any text, in each of its formats (the first byte picks
// one). A ParseError is an answer; anything else thrown is a finding.
#include <sstream>

#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "graph/graph.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const tofa::GraphFormat formats[] = {tofa::GraphFormat::Auto, tofa::GraphFormat::DenseMatrix,
                                       tofa::GraphFormat::EdgeList,
                                       tofa::GraphFormat::MatrixMarket};
  std::istringstream in(tofa_fuzz::text_of(data + 1, size - 1));
  try {
    const tofa::CommGraph graph = tofa::parse_graph(in, "fuzz", formats[data[0] % 4]);
    FUZZ_CHECK(graph.offsets().size() == static_cast<std::size_t>(graph.task_count()) + 1,
               "offsets do not match the task count");
    for (const tofa::CommEdge& edge : graph.undirected_edges())
      FUZZ_CHECK(edge.from < edge.to && edge.to < graph.task_count(), "bad undirected edge");
  } catch (const tofa::Error&) {
  }
  return 0;
}
