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

/// Chung et al.'s Power Law benchmark: task i has about n*(i+1)^-exponent
/// partners (at least 1), chosen uniformly by a std::mt19937 seeded with
/// `seed`; every pair exchanges `bytes` each way.
CommGraph power_law_graph(int tasks, double exponent = 0.6, double bytes = 1.0,
                          unsigned seed = 1);

/// Chung et al.'s Mesh benchmark: rows x columns tasks (id = row*columns +
/// column); each exchanges `row_bytes` with every task of its row and
/// `column_bytes` with the tasks above and below it.
CommGraph chung_mesh_graph(int rows, int columns, double row_bytes = 4.0,
                           double column_bytes = 1.0);

/// The same graph with task i renamed to a std::mt19937(seed) shuffle of
/// the ids: what a mapper sees when MPI ranks do not follow the geometry.
CommGraph with_shuffled_ids(const CommGraph& graph, unsigned seed);

/// "stencil:4x4x4[:BYTES]" -> stencil_graph. Throws Error on a bad spec.
CommGraph graph_from_spec(const std::string& spec);

/// True when `text` names a generated graph rather than a file.
bool is_graph_spec(const std::string& text);

}  // namespace tofa
