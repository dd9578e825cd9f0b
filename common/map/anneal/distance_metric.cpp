#include "map/anneal/distance_metric.hpp"

#include "base/error.hpp"

namespace tofa {

DistanceMetric parse_distance_metric(const std::string& text) {
  if (text == "hops") return DistanceMetric::Hops;
  if (text == "scaled") return DistanceMetric::ScaledHops;
  if (text == "euclid") return DistanceMetric::Euclidean;
  throw Error("unknown distance metric '" + text + "': expected hops, scaled or euclid");
}

const char* distance_metric_name(DistanceMetric metric) {
  switch (metric) {
    case DistanceMetric::Hops:
      return "hops";
    case DistanceMetric::ScaledHops:
      return "scaled";
    case DistanceMetric::Euclidean:
      return "euclid";
  }
  return "hops";
}

}  // namespace tofa
