#include "compact_choice.hpp"

#include <algorithm>
#include <string>

#include "../map/ball_search.hpp"
#include "../tofa/error.hpp"

namespace tofa {
namespace {

/// Centers tried, spread evenly over the usable candidates in their order:
/// as the candidate window's (map/portfolio/candidate_window.cpp).
constexpr int kCenters = 16;

struct Ball {
  int center = -1;
  int failing = kBallUnreached;
  int hops = kBallUnreached;
};

}  // namespace

Placement compact_choice(const Topology& topology, const TaskLimits& limits,
                         const std::vector<double>& outage, int tasks, int min_nodes,
                         int max_nodes) {
  const auto fails = [&](int node) { return !outage.empty() && outage[node] > 0; };
  std::vector<int> cap(topology.node_count(), 0), floor(topology.node_count(), 0);
  long long room = 0, healthy_room = 0, floors = 0;
  int healthy_nodes = 0, usable_nodes = 0;
  bool forced = false;  // some node must take tasks: every listed node is used
  for (std::size_t i = 0; i < limits.nodes.size(); ++i) {
    const int node = limits.nodes[i];
    cap[node] = limits.max_tasks.empty() ? 1 << 30 : limits.max_tasks[i];
    floor[node] = limits.min_tasks.empty() ? 0 : limits.min_tasks[i];
    forced = forced || floor[node] > 0;
    floors += floor[node];
    if (cap[node] <= 0) continue;
    room += cap[node];
    ++usable_nodes;
    if (!fails(node)) healthy_room += cap[node], ++healthy_nodes;
  }
  if (room < tasks || floors > tasks || usable_nodes < min_nodes)
    throw Error("the candidates hold " + std::to_string(room) + " of the " +
                std::to_string(tasks) + " tasks on " + std::to_string(usable_nodes) +
                " nodes (at least " + std::to_string(min_nodes) + ")");
  const bool healthy_only = !forced && healthy_room >= tasks && healthy_nodes >= min_nodes;
  std::vector<char> usable(topology.node_count(), 0);
  std::vector<int> usable_list;
  for (int node : limits.nodes)
    if (cap[node] > 0 && (!healthy_only || !fails(node))) usable[node] = 1, usable_list.push_back(node);

  // Grows until the ball holds the job (every listed node when some must
  // take tasks).
  BallSearch search(topology, usable, outage);
  const auto ball_around = [&](int center, int max_hops, int max_failing,
                               std::vector<int>* ball) {
    long long held = 0;
    int taken = 0;
    return search.grow(center, max_hops, max_failing, [&](int node) {
      if (ball) ball->push_back(node);
      held += cap[node];
      ++taken;
      return forced ? taken < static_cast<int>(usable_list.size())
                    : held < tasks || taken < min_nodes;
    });
  };
  Ball best;
  const std::size_t centers = std::min<std::size_t>(kCenters, usable_list.size());
  const std::size_t step = usable_list.size() / centers;
  for (std::size_t i = 0; i < centers; ++i) {
    const int center = usable_list[step / 2 + i * step];
    const int hops = ball_around(center, best.failing == 0 ? best.hops : kBallUnreached - 1,
                                 best.failing, nullptr);
    if (hops == kBallUnreached) continue;
    const int failing = search.failing_seen();
    if (failing < best.failing || (failing == best.failing && hops < best.hops))
      best = Ball{center, failing, hops};
  }
  std::vector<int> ball;
  ball_around(best.center < 0 ? usable_list.front() : best.center, kBallUnreached - 1,
              kBallUnreached, &ball);
  // Unreachable nodes of a forced list (a mesh cut by unusable ones): last.
  if (forced && ball.size() < usable_list.size()) {
    std::vector<char> in_ball(topology.node_count(), 0);
    for (int node : ball) in_ball[node] = 1;
    for (int node : usable_list)
      if (!in_ball[node]) ball.push_back(node);
  }

  // Each node its minimum (one each on the first min_nodes), then blocks
  // nearest the center first.
  std::vector<int> count(ball.size(), 0);
  long long left = tasks;
  for (std::size_t i = 0; i < ball.size(); ++i) {
    count[i] = std::max(floor[ball[i]], static_cast<int>(i) < min_nodes ? 1 : 0);
    left -= count[i];
  }
  for (std::size_t i = 0; i < ball.size() && left > 0; ++i) {
    const long long more = std::min<long long>(left, cap[ball[i]] - count[i]);
    count[i] += static_cast<int>(more);
    left -= more;
  }
  int spanned = 0;
  Placement placement;
  placement.reserve(tasks);
  for (std::size_t i = 0; i < ball.size(); ++i) {
    spanned += count[i] > 0;
    placement.insert(placement.end(), count[i], ball[i]);
  }
  if (left > 0 || static_cast<int>(placement.size()) != tasks)
    throw Error("the candidates' limits do not hold the " + std::to_string(tasks) + " tasks");
  if (max_nodes > 0 && spanned > max_nodes)
    throw Error("the nearest nodes that hold the job are " + std::to_string(spanned) +
                ", the job asks for at most " + std::to_string(max_nodes));
  return placement;
}

}  // namespace tofa
