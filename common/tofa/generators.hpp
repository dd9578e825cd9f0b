// Synthetic communication graphs for tools, benchmarks and tests.
#pragma once

#include <string>
#include <vector>

#include "graph.hpp"

namespace tofa {

/// Nearest-neighbour stencil on a grid of any dimension (no wrap): every task
/// exchanges `bytes` with each neighbour in each direction (so each undirected
/// edge weighs 2*bytes). Task id = x + X*(y + Y*z), first dimension fastest.
CommGraph stencil_graph(const std::vector<int>& dims, double bytes = 1.0);

/// "stencil:4x4x4[:BYTES]" -> stencil_graph. Throws Error on a bad spec.
CommGraph graph_from_spec(const std::string& spec);

/// True when `text` names a generated graph rather than a file.
bool is_graph_spec(const std::string& text);

}  // namespace tofa
