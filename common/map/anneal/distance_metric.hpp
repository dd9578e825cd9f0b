// The distances between nodes that the free energy (Equation 1) may weigh
// traffic with.
#pragma once

#include <string>

namespace tofa {

/// The distance d(a, b) between two nodes that F weighs traffic with.
enum class DistanceMetric {
  Hops,        ///< h(a, b): hops of a shortest path (the seed's default)
  ScaledHops,  ///< (n / D) * h(a, b), D = dimensions the path uses, n = all dimensions
  Euclidean,   ///< sqrt of the sum of squared per-dimension distances (shorter way round rings)
};

/// "hops", "scaled" or "euclid". Throws Error naming the text and the choices.
DistanceMetric parse_distance_metric(const std::string& text);
const char* distance_metric_name(DistanceMetric metric);

}  // namespace tofa
