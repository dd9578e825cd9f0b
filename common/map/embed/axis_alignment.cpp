#include "axis_alignment.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tofa {
namespace embed {
namespace {

constexpr int kSweeps = 3;
constexpr int kAngles = 32;          // tried per pair of axes, over a quarter turn
constexpr std::size_t kSample = 2000;  // points the kurtosis is measured on

double kurtosis(const std::vector<double>& values) {
  double mean = 0;
  for (double v : values) mean += v;
  mean /= values.size();
  double m2 = 0, m4 = 0;
  for (double v : values) {
    const double d = (v - mean) * (v - mean);
    m2 += d;
    m4 += d * d;
  }
  m2 /= values.size();
  m4 /= values.size();
  return m2 > 0 ? m4 / (m2 * m2) : 0;
}

void rotate(std::vector<double>& coords, int axes, int i, int j, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  for (std::size_t p = 0; p < coords.size(); p += axes) {
    const double u = c * coords[p + i] - s * coords[p + j];
    const double w = s * coords[p + i] + c * coords[p + j];
    coords[p + i] = u;
    coords[p + j] = w;
  }
}

}  // namespace

void align_axes_to_faces(std::vector<double>& coords, int axes) {
  const std::size_t points = axes > 0 ? coords.size() / axes : 0;
  if (axes < 2 || points < 4) return;
  const std::size_t step = std::max<std::size_t>(1, points / kSample);
  std::vector<double> u, w;
  for (int sweep = 0; sweep < kSweeps; ++sweep)
    for (int i = 0; i < axes; ++i)
      for (int j = i + 1; j < axes; ++j) {
        double best_angle = 0, best = 0;
        for (int a = 0; a < kAngles; ++a) {
          const double angle = a * (M_PI / 2) / kAngles;
          const double c = std::cos(angle), s = std::sin(angle);
          u.clear();
          w.clear();
          for (std::size_t p = 0; p < points; p += step) {
            const double x = coords[p * axes + i], y = coords[p * axes + j];
            u.push_back(c * x - s * y);
            w.push_back(s * x + c * y);
          }
          const double k = kurtosis(u) + kurtosis(w);
          if (a == 0 || k < best) best = k, best_angle = angle;
        }
        if (best_angle != 0) rotate(coords, axes, i, j, best_angle);
      }

  std::vector<double> variance(axes, 0.0);
  for (int a = 0; a < axes; ++a) {
    double mean = 0;
    for (std::size_t p = 0; p < points; ++p) mean += coords[p * axes + a];
    mean /= points;
    for (std::size_t p = 0; p < points; ++p)
      variance[a] += (coords[p * axes + a] - mean) * (coords[p * axes + a] - mean);
  }
  std::vector<int> order(axes);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return variance[a] > variance[b]; });
  std::vector<double> row(axes);
  for (std::size_t p = 0; p < points; ++p) {
    for (int a = 0; a < axes; ++a) row[a] = coords[p * axes + order[a]];
    std::copy(row.begin(), row.end(), coords.begin() + p * axes);
  }
}

}  // namespace embed
}  // namespace tofa
