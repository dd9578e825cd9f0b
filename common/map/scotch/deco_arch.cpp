#include "deco_arch.hpp"

#include <stdio.h>

#include <algorithm>
#include <numeric>

#include "base/error.hpp"

namespace tofa {
namespace scotch {
namespace {

/// Halves `members` (at least 2) into [begin, middle) and [middle, end):
/// first along the coordinate in which they spread most, then by swaps
/// across the cut while one lowers the sum of the distances within the
/// halves (Kernighan-Lin style, best swap first). The cut alone ignores the
/// costs; the distances alone (a cut between the two farthest terminals)
/// split a 2x2x2 torus with a faulty node into two stars.
void halve(const DistanceTable& distances, const std::vector<std::vector<int>>& coords,
           std::vector<int>& members) {
  const std::size_t n = members.size(), half = n / 2;
  std::size_t widest = 0;
  int widest_extent = -1;
  for (std::size_t d = 0; d < coords.front().size(); ++d) {
    int low = coords[members.front()][d], high = low;
    for (int i : members) {
      low = std::min(low, coords[i][d]);
      high = std::max(high, coords[i][d]);
    }
    if (high - low > widest_extent) {
      widest = d;
      widest_extent = high - low;
    }
  }
  std::stable_sort(members.begin(), members.end(),
                   [&](int a, int b) { return coords[a][widest] < coords[b][widest]; });
  // inside[k]: sum of distances from members[k] to the others of its half.
  std::vector<long long> inside(n, 0), across(n, 0);
  auto recount = [&] {
    for (std::size_t a = 0; a < n; ++a) {
      inside[a] = across[a] = 0;
      for (std::size_t b = 0; b < n; ++b)
        ((a < half) == (b < half) ? inside[a] : across[a]) += distances.at(members[a], members[b]);
    }
  };
  recount();
  for (std::size_t swaps = 0; swaps < half; ++swaps) {  // each terminal moves about once
    long long best_gain = 0;
    std::size_t best_a = 0, best_b = 0;
    for (std::size_t a = 0; a < half; ++a)
      for (std::size_t b = half; b < n; ++b) {
        const long long d = distances.at(members[a], members[b]);
        const long long gain = inside[a] + inside[b] - (across[a] - d) - (across[b] - d);
        if (gain > best_gain) {
          best_gain = gain;
          best_a = a;
          best_b = b;
        }
      }
    if (best_gain <= 0) break;
    std::swap(members[best_a], members[best_b]);
    recount();
  }
}

/// Gives each terminal of `members` its domain number in Scotch's heap
/// numbering: domain d splits into 2d and 2d + 1.
void number_domains(const DistanceTable& distances, const std::vector<std::vector<int>>& coords,
                    std::vector<int> members, long long domain, std::vector<long long>& number) {
  if (members.size() == 1) {
    number[members.front()] = domain;
    return;
  }
  halve(distances, coords, members);
  const auto middle = members.begin() + static_cast<long>(members.size() / 2);
  number_domains(distances, coords, std::vector<int>(members.begin(), middle), 2 * domain,
                 number);
  number_domains(distances, coords, std::vector<int>(middle, members.end()), 2 * domain + 1,
                 number);
}

}  // namespace

std::string deco_text(const DistanceTable& distances, const std::vector<std::vector<int>>& coords) {
  const int count = distances.count;
  if (count < 2 || static_cast<std::size_t>(count) > kExplicitDistanceLimit)
    throw Error("an explicit-distance Scotch target needs 2 to " +
                std::to_string(kExplicitDistanceLimit) + " nodes, not " + std::to_string(count));
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < count; ++j)
      if ((i != j && distances.at(i, j) < 1) || distances.at(i, j) != distances.at(j, i))
        throw Error("explicit Scotch distances must be symmetric and >= 1");
  std::vector<int> members(count);
  std::iota(members.begin(), members.end(), 0);
  std::vector<long long> number(count, 0);
  if (coords.size() != static_cast<std::size_t>(count) || coords.front().empty())
    throw Error("explicit Scotch target: one coordinate vector per terminal expected");
  number_domains(distances, coords, members, 1, number);
  const long long largest = *std::max_element(number.begin(), number.end());

  std::string text = "deco\n0\n" + std::to_string(count) + " " + std::to_string(largest) + "\n";
  for (int i = 0; i < count; ++i)
    text += std::to_string(i) + " 1 " + std::to_string(number[i]) + "\n";
  for (int i = 1; i < count; ++i)
    for (int j = 0; j < i; ++j) {
      text += std::to_string(distances.at(i, j));
      text += j + 1 < i ? ' ' : '\n';
    }
  return text;
}

std::unique_ptr<Arch> explicit_distance_arch(const DistanceTable& distances,
                                             const std::vector<std::vector<int>>& coords) {
  std::string text = deco_text(distances, coords);
  FILE* stream = fmemopen(&text[0], text.size(), "r");
  if (!stream) throw Error("fmemopen failed for a Scotch target");
  auto arch = std::make_unique<Arch>();
  const int rc = SCOTCH_archLoad(arch->get(), stream);
  fclose(stream);
  check(rc, "SCOTCH_archLoad");
  return arch;
}

}  // namespace scotch
}  // namespace tofa
