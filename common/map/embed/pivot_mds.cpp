#include "pivot_mds.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"

namespace tofa {
namespace embed {
namespace {

/// Hop distances from `source`; unreachable tasks get the farthest + 1.
void hops_from(const CommGraph& graph, int source, std::vector<int>& distance,
               std::vector<int>& queue) {
  std::fill(distance.begin(), distance.end(), -1);
  queue.clear();
  queue.push_back(source);
  distance[source] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int task = queue[head];
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      const int partner = graph.adjacency()[k];
      if (distance[partner] < 0) {
        distance[partner] = distance[task] + 1;
        queue.push_back(partner);
      }
    }
  }
  const int unreachable = distance[queue.back()] + 1;
  for (int& d : distance)
    if (d < 0) d = unreachable;
}

/// The leading `count` eigenvectors of the symmetric `size` x `size`
/// matrix `m` (row-major), by power iteration with deflation against the
/// ones found before. Deterministic starting vectors.
std::vector<std::vector<double>> leading_eigenvectors(const std::vector<double>& m, int size,
                                                      int count) {
  std::vector<std::vector<double>> found;
  std::vector<double> x(size), y(size);
  for (int e = 0; e < count; ++e) {
    for (int i = 0; i < size; ++i) x[i] = std::sin(1.0 + i * (e + 1.7));
    for (int iteration = 0; iteration < 300; ++iteration) {
      for (int i = 0; i < size; ++i) {
        double sum = 0;
        for (int j = 0; j < size; ++j) sum += m[i * size + j] * x[j];
        y[i] = sum;
      }
      for (const auto& v : found) {
        double dot = 0;
        for (int i = 0; i < size; ++i) dot += y[i] * v[i];
        for (int i = 0; i < size; ++i) y[i] -= dot * v[i];
      }
      double norm = 0;
      for (double value : y) norm += value * value;
      norm = std::sqrt(norm);
      if (!(norm > 0)) break;  // nothing left in this direction
      double change = 0;
      for (int i = 0; i < size; ++i) {
        change = std::max(change, std::abs(y[i] / norm - x[i]));
        x[i] = y[i] / norm;
      }
      if (change < 1e-9) break;
    }
    found.push_back(x);
  }
  return found;
}

}  // namespace

std::vector<double> pivot_mds(const CommGraph& graph, int axes, int pivots) {
  if (axes < 1 || pivots < axes) throw Error("pivot_mds: need 1 <= axes <= pivots");
  const int tasks = graph.task_count();
  std::vector<double> coords(static_cast<std::size_t>(tasks) * axes, 0.0);
  if (tasks == 0) return coords;
  pivots = std::min(pivots, tasks);

  // Squared hop distances, one row per pivot; each next pivot is the task
  // farthest from every pivot so far.
  std::vector<std::vector<double>> c(pivots, std::vector<double>(tasks));
  std::vector<int> nearest_pivot(tasks, tasks + 1), distance(tasks), queue;
  queue.reserve(tasks);
  int pivot = 0;
  for (int p = 0; p < pivots; ++p) {
    hops_from(graph, pivot, distance, queue);
    for (int t = 0; t < tasks; ++t) {
      c[p][t] = static_cast<double>(distance[t]) * distance[t];
      nearest_pivot[t] = std::min(nearest_pivot[t], distance[t]);
    }
    pivot = static_cast<int>(std::max_element(nearest_pivot.begin(), nearest_pivot.end()) -
                             nearest_pivot.begin());
  }

  // Double centring: -1/2 (d^2 - row mean - column mean + grand mean).
  std::vector<double> pivot_mean(pivots, 0.0), task_mean(tasks, 0.0);
  double grand = 0;
  for (int p = 0; p < pivots; ++p) {
    for (int t = 0; t < tasks; ++t) {
      pivot_mean[p] += c[p][t];
      task_mean[t] += c[p][t];
    }
    grand += pivot_mean[p];
    pivot_mean[p] /= tasks;
  }
  for (double& mean : task_mean) mean /= pivots;
  grand /= static_cast<double>(tasks) * pivots;
  for (int p = 0; p < pivots; ++p)
    for (int t = 0; t < tasks; ++t) c[p][t] = -0.5 * (c[p][t] - pivot_mean[p] - task_mean[t] + grand);

  // C C^T is pivots x pivots; its eigenvectors v give the coordinates C^T v.
  std::vector<double> gram(static_cast<std::size_t>(pivots) * pivots);
  for (int i = 0; i < pivots; ++i)
    for (int j = i; j < pivots; ++j) {
      double sum = 0;
      for (int t = 0; t < tasks; ++t) sum += c[i][t] * c[j][t];
      gram[i * pivots + j] = gram[j * pivots + i] = sum;
    }
  const auto vectors = leading_eigenvectors(gram, pivots, std::min(axes, pivots));
  for (std::size_t a = 0; a < vectors.size(); ++a)
    for (int p = 0; p < pivots; ++p)
      for (int t = 0; t < tasks; ++t) coords[static_cast<std::size_t>(t) * axes + a] += c[p][t] * vectors[a][p];
  return coords;
}

}  // namespace embed
}  // namespace tofa
