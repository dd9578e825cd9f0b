#include "rcb.hpp"

#include <algorithm>
#include <numeric>

namespace tofa {
namespace stencil {
namespace {

class Bisection {
 public:
  explicit Bisection(const StencilProblem& problem)
      : job_(problem.job), coord_(problem.allocation.rank_coord),
        ranks_(problem.allocation.rank_count()), rank_of_task_(ranks_.size()) {
    std::iota(ranks_.begin(), ranks_.end(), 0);
  }

  std::vector<int> run() {
    split({0, 0, 0}, job_.dims(), 0);
    return std::move(rank_of_task_);
  }

 private:
  /// Maps the job block [low, high) onto ranks_[first .. first + volume).
  void split(const Triple& low, const Triple& high, int first) {
    const Triple length{high[0] - low[0], high[1] - low[1], high[2] - low[2]};
    const int volume = length[0] * length[1] * length[2];
    if (volume == 1) {
      rank_of_task_[job_.task_at(low)] = ranks_[first];
      return;
    }
    const int axis = cut_axis(length, first, volume);
    const int lower_layers = length[axis] / 2;
    const int lower_count = volume / length[axis] * lower_layers;
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    std::nth_element(ranks_.begin() + first, ranks_.begin() + first + lower_count,
                     ranks_.begin() + first + volume, [&](int a, int b) {
                       const Triple& ca = coord_[a];
                       const Triple& cb = coord_[b];
                       if (ca[axis] != cb[axis]) return ca[axis] < cb[axis];
                       if (ca[a1] != cb[a1]) return ca[a1] < cb[a1];
                       if (ca[a2] != cb[a2]) return ca[a2] < cb[a2];
                       return a < b;
                     });
    Triple middle_high = high, middle_low = low;
    middle_high[axis] = low[axis] + lower_layers;
    middle_low[axis] = low[axis] + lower_layers;
    split(low, middle_high, first);
    split(middle_low, high, first + lower_count);
  }

  int cut_axis(const Triple& length, int first, int volume) const {
    const int longest = std::max({length[0], length[1], length[2]});
    int tied = 0;
    for (int axis = 0; axis < 3; ++axis) tied += length[axis] == longest;
    if (tied == 1) return static_cast<int>(std::max_element(length.begin(), length.end()) - length.begin());
    Triple low = coord_[ranks_[first]], high = low;
    for (int k = first; k < first + volume; ++k)
      for (int axis = 0; axis < 3; ++axis) {
        low[axis] = std::min(low[axis], coord_[ranks_[k]][axis]);
        high[axis] = std::max(high[axis], coord_[ranks_[k]][axis]);
      }
    int best = -1;
    for (int axis = 0; axis < 3; ++axis)
      if (length[axis] == longest &&
          (best < 0 || high[axis] - low[axis] > high[best] - low[best]))
        best = axis;
    return best;
  }

  const JobGrid& job_;
  const std::vector<Triple>& coord_;
  std::vector<int> ranks_;
  std::vector<int> rank_of_task_;
};

}  // namespace

std::vector<int> rcb_assignment(const StencilProblem& problem) {
  return Bisection(problem).run();
}

}  // namespace stencil
}  // namespace tofa
