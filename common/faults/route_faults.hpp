// Faulty links of dimension-order routes, counted per segment, not per hop.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace tofa {

/// A link is faulty when either end has an outage probability above 0.
/// R(a,b) is a segment along dimension 0 to b's coordinate, then one along
/// dimension 1 from there, and so on, and the direction along a dimension
/// depends only on the two coordinates: so the faulty links of a route are
/// a sum of one table entry per segment. row(d, v)[t] is that entry: the
/// faulty links from node v along dimension d to coordinate t. A row is
/// computed on first use, and only on a line (nodes differing in coordinate
/// d alone) that holds a faulty node, so on a large torus with a few failing
/// nodes most routes cost a lookup per dimension and no row at all. The
/// tables are per faulty line, not per node. Not thread-safe (rows are
/// added on use); `outage` must outlive it.
class RouteFaults {
 public:
  RouteFaults(const Topology& topology, const std::vector<double>& outage);

  bool any() const { return any_; }
  /// Faulty links of R(from, to).
  int faulty_links(int from, int to);
  /// The same from both ends' coordinates (dimension_count() each), without
  /// a division: for a caller that asks of many routes between nodes whose
  /// coordinates it keeps.
  int faulty_links(const int* from, const int* to);

  /// For each of `count` targets (their coordinates one after another in
  /// `targets`): out[i] = 1 when R(from, target) or R(target, from) has a
  /// faulty link, else 0. The segments one route shares with the next are
  /// looked up once per call: a row of many targets costs a few lookups each.
  void crossing_flags(const int* from, const int* targets, std::size_t count, std::uint16_t* out);

  int stride(int d) const { return stride_[d]; }
  /// The node of v's line along dimension d with coordinate 0 there.
  int base(int d, int v) const { return v - coordinate(d, v) * stride_[d]; }
  const std::uint16_t* row(int d, int v);

 private:
  int coordinate(int d, int v) const { return (v / stride_[d]) % topology_.dims()[d]; }
  /// Index of the line through `node` along dimension d among that dimension's lines.
  int line(int d, int node) const {
    return node % stride_[d] + node / (stride_[d] * topology_.dims()[d]) * stride_[d];
  }

  /// The row of the line in `slot` along d from coordinate `here`; `first`
  /// is the line's node with coordinate 0 there.
  const std::uint16_t* row_on(int d, int slot, int here, int first);

  const Topology& topology_;
  const std::vector<double>& outage_;
  bool any_ = false;
  std::vector<int> stride_;
  std::vector<int> line_stride_;  // [d * dims + k]: coordinate k's weight in line(d, node)
  std::vector<std::uint16_t> zeros_;
  std::vector<std::uint16_t> up_, down_;        // row's scratch
  std::vector<std::vector<int>> slot_of_line_;  // [d][line]: its faulty-line slot, -1 none faulty
  std::vector<std::vector<int>> row_of_;        // [d][slot * length + coordinate]: its row, -1 none
  // crossing_flags' per-call caches by dimension: R(from, t)'s segment row
  // by t's coordinates below d; R(t, from)'s segment count by t's at and
  // above d (from dimension 1: at 0 every target has its own). A cache
  // entry is valid when its stamp is the call's.
  std::vector<std::vector<const std::uint16_t*>> forward_row_;
  std::vector<std::vector<std::uint32_t>> forward_stamp_;
  std::vector<std::vector<std::uint16_t>> reverse_links_;
  std::vector<std::vector<std::uint32_t>> reverse_stamp_;
  std::uint32_t call_ = 0;
  // Rows stay where they are while more are added: callers hold several.
  std::vector<std::vector<std::uint16_t>> rows_;
};

}  // namespace tofa
