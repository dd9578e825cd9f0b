#include "deco_arch.hpp"

#include <stdio.h>

#include <algorithm>
#include <numeric>

#include "../tofa/error.hpp"

namespace tofa {
namespace scotch {
namespace {

/// Gives each terminal of `members` its domain number in Scotch's heap
/// numbering: domain d splits into 2d and 2d + 1.
void number_domains(const DistanceTable& distances, std::vector<int> members, long long domain,
                    std::vector<long long>& number) {
  if (members.size() == 1) {
    number[members.front()] = domain;
    return;
  }
  int first = members[0], second = members[1];
  for (std::size_t a = 0; a < members.size(); ++a)
    for (std::size_t b = a + 1; b < members.size(); ++b)
      if (distances.at(members[a], members[b]) > distances.at(first, second)) {
        first = members[a];
        second = members[b];
      }
  // Nearer to `first` first; ties keep the given order.
  std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
    return distances.at(a, first) - distances.at(a, second) <
           distances.at(b, first) - distances.at(b, second);
  });
  const auto middle = members.begin() + static_cast<long>(members.size() / 2);
  number_domains(distances, std::vector<int>(members.begin(), middle), 2 * domain, number);
  number_domains(distances, std::vector<int>(middle, members.end()), 2 * domain + 1, number);
}

}  // namespace

std::string deco_text(const DistanceTable& distances) {
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
  number_domains(distances, members, 1, number);
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

std::unique_ptr<Arch> explicit_distance_arch(const DistanceTable& distances) {
  std::string text = deco_text(distances);
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
