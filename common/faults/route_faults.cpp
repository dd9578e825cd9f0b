#include "faults/route_faults.hpp"

#include <algorithm>

namespace tofa {

RouteFaults::RouteFaults(const Topology& topology, const std::vector<double>& outage)
    : topology_(topology), outage_(outage), stride_(topology.dimension_count(), 1),
      slot_of_line_(topology.dimension_count()), row_of_(topology.dimension_count()) {
  const int dims = topology.dimension_count();
  const int nodes = outage.empty() ? 0 : topology.node_count();
  int longest = 0;
  for (int d = 0; d < dims; ++d) {
    if (d > 0) stride_[d] = stride_[d - 1] * topology.dims()[d - 1];
    longest = std::max(longest, topology.dims()[d]);
    slot_of_line_[d].assign(topology.node_count() / topology.dims()[d], -1);
  }
  zeros_.assign(longest, 0);
  up_.resize(longest);
  down_.resize(longest);
  std::vector<int> faulty_lines(dims, 0);
  for (int node = 0; node < nodes; ++node) {
    if (!(outage[node] > 0)) continue;
    any_ = true;
    for (int d = 0; d < dims; ++d) {
      int& slot = slot_of_line_[d][line(d, node)];
      if (slot < 0) slot = faulty_lines[d]++;
    }
  }
  for (int d = 0; d < dims; ++d) row_of_[d].assign(faulty_lines[d] * topology.dims()[d], -1);
  // line(d, node) from coordinates: those below d at their strides, those above at theirs over dims[d].
  line_stride_.assign(dims * dims, 0);
  for (int d = 0; d < dims; ++d)
    for (int k = 0; k < dims; ++k)
      if (k != d) line_stride_[d * dims + k] = k < d ? stride_[k] : stride_[k] / topology.dims()[d];
}

int RouteFaults::faulty_links(int from, int to) {
  if (!any_) return 0;
  int links = 0, at = from;
  for (int d = 0; d < topology_.dimension_count(); ++d) {
    const int here = coordinate(d, at), there = coordinate(d, to);
    if (here == there) continue;
    if (slot_of_line_[d][line(d, at)] >= 0) links += row(d, at)[there];
    at += (there - here) * stride_[d];
  }
  return links;
}

int RouteFaults::faulty_links(const int* from, const int* to) {
  if (!any_) return 0;
  const int dims = topology_.dimension_count();
  int links = 0;
  for (int d = 0; d < dims; ++d) {
    if (from[d] == to[d]) continue;
    // The segment along d runs on the line with to's coordinates below d and from's above.
    int line = 0, first = 0;
    for (int k = 0; k < dims; ++k) {
      if (k == d) continue;
      const int c = k < d ? to[k] : from[k];
      line += c * line_stride_[d * dims + k];
      first += c * stride_[k];
    }
    const int slot = slot_of_line_[d][line];
    if (slot >= 0) links += row_on(d, slot, from[d], first)[to[d]];
  }
  return links;
}

void RouteFaults::crossing_flags(const int* from, const int* targets, std::size_t count,
                                 std::uint16_t* out) {
  const int dims = topology_.dimension_count();
  if (!any_) {
    std::fill(out, out + count, 0);
    return;
  }
  if (forward_row_.empty()) {
    forward_row_.resize(dims);
    forward_stamp_.resize(dims);
    reverse_links_.resize(dims);
    reverse_stamp_.resize(dims);
    for (int d = 0; d < dims; ++d) {
      forward_row_[d].resize(stride_[d]);
      forward_stamp_[d].assign(stride_[d], 0);
      if (d == 0) continue;
      reverse_links_[d].resize(topology_.node_count() / stride_[d]);
      reverse_stamp_[d].assign(topology_.node_count() / stride_[d], 0);
    }
  }
  if (++call_ == 0) {  // the stamps wrapped: every entry is stale
    for (int d = 0; d < dims; ++d) {
      std::fill(forward_stamp_[d].begin(), forward_stamp_[d].end(), 0);
      std::fill(reverse_stamp_[d].begin(), reverse_stamp_[d].end(), 0);
    }
    call_ = 1;
  }
  // from's part of each segment's line and first node: coordinates above d
  // (R(from, t)) and below d (R(t, from)).
  int from_above_line[kMaxTopologyDimensions], from_above_first[kMaxTopologyDimensions];
  int from_below[kMaxTopologyDimensions];
  for (int d = 0; d < dims; ++d) {
    from_above_line[d] = from_above_first[d] = from_below[d] = 0;
    for (int k = 0; k < dims; ++k) {
      if (k > d) from_above_line[d] += from[k] * line_stride_[d * dims + k];
      if (k > d) from_above_first[d] += from[k] * stride_[k];
      if (k < d) from_below[d] += from[k] * stride_[k];
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const int* to = targets + i * dims;
    int links = 0;
    for (int d = 0, below = 0; d < dims && links == 0; below += to[d] * stride_[d], ++d) {
      if (from[d] == to[d]) continue;
      if (forward_stamp_[d][below] != call_) {
        forward_stamp_[d][below] = call_;
        const int slot = slot_of_line_[d][below + from_above_line[d]];
        forward_row_[d][below] =
            slot < 0 ? zeros_.data() : row_on(d, slot, from[d], below + from_above_first[d]);
      }
      links += forward_row_[d][below][to[d]];
    }
    for (int d = dims - 1, above = 0, upper = 0; d >= 0 && links == 0; --d) {
      // `above`: t's coordinates above d at their strides; the key, t's
      // coordinates from d up in units of stride_[d], grows from `upper`
      // (the key of d + 1).
      const int key = to[d] + topology_.dims()[d] * upper;
      if (to[d] != from[d]) {
        if (d == 0 || reverse_stamp_[d][key] != call_) {
          int line = from_below[d];
          for (int k = d + 1; k < dims; ++k) line += to[k] * line_stride_[d * dims + k];
          const int slot = slot_of_line_[d][line];
          const int found = slot < 0 ? 0 : row_on(d, slot, to[d], from_below[d] + above)[from[d]];
          if (d == 0) {
            links += found;
            break;
          }
          reverse_stamp_[d][key] = call_;
          reverse_links_[d][key] = static_cast<std::uint16_t>(found);
        }
        links += reverse_links_[d][key];
      }
      above += to[d] * stride_[d];
      upper = key;
    }
    out[i] = links > 0;
  }
}

const std::uint16_t* RouteFaults::row(int d, int v) {
  const int slot = slot_of_line_[d][line(d, v)];
  if (slot < 0) return zeros_.data();
  return row_on(d, slot, coordinate(d, v), base(d, v));
}

const std::uint16_t* RouteFaults::row_on(int d, int slot, int here, int first) {
  const int length = topology_.dims()[d];
  int& index = row_of_[d][slot * length + here];
  if (index >= 0) return rows_[index].data();
  index = static_cast<int>(rows_.size());
  std::vector<std::uint16_t>& row = rows_.emplace_back(length);
  // Faulty links within k hops of `here` each way; a route along a ring
  // keeps the direction of its first hop.
  const auto faulty = [&](int c) { return outage_[first + ((c + length) % length) * stride_[d]] > 0; };
  up_[0] = down_[0] = 0;
  for (int k = 1; k < length; ++k) {
    up_[k] = up_[k - 1] + (faulty(here + k - 1) || faulty(here + k));
    down_[k] = down_[k - 1] + (faulty(here - k + 1) || faulty(here - k));
  }
  for (int t = 0; t < length; ++t) {
    if (t == here) continue;
    row[t] = topology_.hop_direction(d, here, t) > 0 ? up_[(t - here + length) % length]
                                                     : down_[(here - t + length) % length];
  }
  return row.data();
}

}  // namespace tofa
