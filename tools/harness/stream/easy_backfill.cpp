// The EASY backfilling simulation: events in a heap, the waiting jobs in a
// FIFO list, running jobs ordered by expected end for the shadow time.
#include "easy_backfill.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <list>
#include <queue>
#include <set>
#include <stdexcept>
#include <utility>

#include "base/error.hpp"

namespace tofa::harness {
namespace {

struct Running {
  std::size_t job = 0;                        // index into the input
  std::vector<std::pair<int, int>> nodes;     // (node, tasks on it)
  double expected_end = 0;                    // start + requested time
};

void check_input(const Machine& machine, const std::vector<StreamJob>& jobs) {
  if (machine.node_count < 1 || machine.slots_per_node < 1) {
    throw Error("EASY: the machine needs at least 1 node and 1 slot per node, got " +
                std::to_string(machine.node_count) + " nodes of " +
                std::to_string(machine.slots_per_node) + " slots");
  }
  for (const StreamJob& job : jobs) {
    if (!(job.runtime > 0) || !std::isfinite(job.runtime) || job.tasks <= 0 ||
        !std::isfinite(job.submit) || !std::isfinite(job.requested_time)) {
      throw Error("EASY: job " + std::to_string(job.id) +
                  " needs a finite submit time, runtime > 0 and tasks > 0 (runtime " +
                  std::to_string(job.runtime) + ", tasks " + std::to_string(job.tasks) + ")");
    }
  }
}

double percentile(const std::vector<double>& sorted, double share) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(share * static_cast<double>(sorted.size()));
  const std::size_t index = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

class Simulation {
 public:
  Simulation(const Machine& machine, const std::vector<StreamJob>& jobs, const Allocate& allocate,
             const EasyOptions& options)
      : machine_(machine), jobs_(jobs), allocate_(allocate), options_(options),
        free_slots_(static_cast<std::size_t>(machine.node_count), machine.slots_per_node),
        free_total_(machine.slots()), scratch_(free_slots_.size(), 0),
        reservation_(jobs.size(), -1.0) {}

  StreamResult run();

 private:
  using EndEvent = std::pair<double, std::size_t>;  // (end, running slot)

  double expected_end(const Running& running, double now) const {
    return std::max(now, running.expected_end);
  }
  bool try_start(std::size_t job, double now, bool backfilled);
  void finish(std::size_t slot);
  void reject(std::size_t job, std::string reason);
  void schedule(double now);
  void report() {
    ++done_;
    if (options_.progress) options_.progress(done_, static_cast<long>(jobs_.size()));
  }

  const Machine& machine_;
  const std::vector<StreamJob>& jobs_;
  const Allocate& allocate_;
  const EasyOptions& options_;

  std::vector<int> free_slots_;
  long long free_total_;
  std::vector<int> scratch_;  // per-node task counts while checking an allocation
  std::vector<double> reservation_;
  std::list<std::size_t> queue_;
  std::vector<Running> running_;             // slots reused through free_running_
  std::vector<std::size_t> free_running_;
  std::vector<std::size_t> result_index_;    // running slot -> result.jobs index
  std::priority_queue<EndEvent, std::vector<EndEvent>, std::greater<EndEvent>> ends_;
  std::set<std::pair<double, std::size_t>> expected_;  // (start + requested, running slot)
  StreamResult result_;
  long done_ = 0;
};

bool Simulation::try_start(std::size_t index, double now, bool backfilled) {
  const StreamJob& job = jobs_[index];
  std::optional<std::vector<int>> chosen = allocate_(job, free_slots_);
  if (!chosen) return false;
  const std::vector<int>& nodes = *chosen;
  auto fail = [&](const std::string& what) {
    for (int node : nodes)
      if (node >= 0 && node < machine_.node_count) scratch_[node] = 0;
    throw Error("EASY: the allocator gave job " + std::to_string(job.id) + " " + what);
  };
  if (nodes.size() != static_cast<std::size_t>(job.tasks)) {
    fail(std::to_string(nodes.size()) + " nodes for " + std::to_string(job.tasks) + " tasks");
  }
  Running running;
  running.job = index;
  for (int node : nodes) {
    if (node < 0 || node >= machine_.node_count) fail("node " + std::to_string(node) +
                                                      ", outside the machine");
    if (scratch_[node]++ == 0) running.nodes.emplace_back(node, 0);
  }
  for (auto& [node, count] : running.nodes) {
    count = scratch_[node];
    if (count > free_slots_[node]) {
      fail(std::to_string(count) + " tasks on node " + std::to_string(node) + ", which has " +
           std::to_string(free_slots_[node]) + " free slots");
    }
  }
  for (const auto& [node, count] : running.nodes) {
    scratch_[node] = 0;
    free_slots_[node] -= count;
  }
  free_total_ -= job.tasks;
  const double requested = job.requested_time > 0 ? job.requested_time : job.runtime;
  running.expected_end = now + requested;

  ScheduledJob scheduled;
  scheduled.job = job;
  scheduled.start = now;
  scheduled.end = now + job.runtime;
  scheduled.wait = now - job.submit;
  scheduled.task_nodes = std::move(*chosen);
  scheduled.backfilled = backfilled;
  scheduled.reservation = reservation_[index];

  std::size_t slot;
  if (free_running_.empty()) {
    slot = running_.size();
    running_.push_back(std::move(running));
    result_index_.push_back(0);
  } else {
    slot = free_running_.back();
    free_running_.pop_back();
    running_[slot] = std::move(running);
  }
  result_index_[slot] = result_.jobs.size();
  ends_.emplace(scheduled.end, slot);
  expected_.emplace(running_[slot].expected_end, slot);
  if (options_.on_start) options_.on_start(scheduled);
  if (!options_.keep_task_nodes) {
    scheduled.task_nodes.clear();
    scheduled.task_nodes.shrink_to_fit();
  }
  result_.jobs.push_back(std::move(scheduled));
  report();
  return true;
}

void Simulation::finish(std::size_t slot) {
  Running& running = running_[slot];
  for (const auto& [node, count] : running.nodes) free_slots_[node] += count;
  free_total_ += jobs_[running.job].tasks;
  expected_.erase({running.expected_end, slot});
  running.nodes.clear();
  free_running_.push_back(slot);
}

void Simulation::reject(std::size_t job, std::string reason) {
  result_.rejected.push_back({jobs_[job], std::move(reason)});
  report();
}

void Simulation::schedule(double now) {
  while (!queue_.empty()) {
    const std::size_t head = queue_.front();
    if (jobs_[head].tasks > free_total_) break;
    if (try_start(head, now, false)) {
      queue_.pop_front();
      continue;
    }
    if (free_total_ == machine_.slots()) {
      reject(head, "the allocator could not place it on the idle machine");
      queue_.pop_front();
      continue;
    }
    break;
  }
  if (queue_.empty() || !options_.backfill) return;

  // Shadow time: walk the running jobs by expected end until enough slots
  // are free for the head. At least one end is taken: the head either needs
  // more slots than are free or the allocator could not use the free ones.
  const std::size_t head = queue_.front();
  const long long need = jobs_[head].tasks;
  long long available = free_total_;
  double shadow = now;
  bool found = false;
  for (const auto& [end, slot] : expected_) {
    available += jobs_[running_[slot].job].tasks;
    if (available >= need) {
      shadow = expected_end(running_[slot], now);
      found = true;
      break;
    }
  }
  if (!found) {
    // Unreachable: running jobs and free slots add up to the machine, which
    // holds the head (larger jobs were rejected on arrival).
    throw std::logic_error("EASY: no shadow time for job " + std::to_string(jobs_[head].id));
  }
  long long extra = available - need;
  if (reservation_[head] < 0) reservation_[head] = shadow;

  for (auto it = std::next(queue_.begin()); it != queue_.end() && free_total_ > 0;) {
    const StreamJob& job = jobs_[*it];
    const double requested = job.requested_time > 0 ? job.requested_time : job.runtime;
    bool started = false;
    if (job.tasks <= free_total_) {
      if (now + requested <= shadow) {
        started = try_start(*it, now, true);
      } else if (job.tasks <= extra) {
        started = try_start(*it, now, true);
        if (started) extra -= job.tasks;
      }
    }
    it = started ? queue_.erase(it) : std::next(it);
  }
}

StreamResult Simulation::run() {
  std::vector<std::size_t> order(jobs_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return jobs_[a].submit < jobs_[b].submit;
  });
  std::size_t next = 0;
  while (next < order.size() || !ends_.empty()) {
    double now = next < order.size() ? jobs_[order[next]].submit : ends_.top().first;
    if (!ends_.empty()) now = std::min(now, ends_.top().first);
    while (!ends_.empty() && ends_.top().first <= now) {
      finish(ends_.top().second);
      ends_.pop();
    }
    while (next < order.size() && jobs_[order[next]].submit <= now) {
      const std::size_t job = order[next++];
      if (jobs_[job].tasks > machine_.slots()) {
        reject(job, std::to_string(jobs_[job].tasks) + " tasks, more than the machine's " +
                        std::to_string(machine_.slots()) + " slots");
      } else {
        queue_.push_back(job);
      }
    }
    schedule(now);
    if (!queue_.empty() && ends_.empty() && next == order.size())
      throw std::logic_error("EASY: jobs left waiting on an idle machine");
  }

  StreamTotals& totals = result_.totals;
  if (!result_.jobs.empty()) {
    double first_submit = result_.jobs.front().job.submit;
    double last_end = 0;
    double busy = 0;
    double slowdown = 0;
    std::vector<double> waits;
    waits.reserve(result_.jobs.size());
    for (const ScheduledJob& job : result_.jobs) {
      first_submit = std::min(first_submit, job.job.submit);
      last_end = std::max(last_end, job.end);
      busy += job.job.runtime * job.job.tasks;
      waits.push_back(job.wait);
      slowdown += std::max(1.0, (job.wait + job.job.runtime) /
                                    std::max(job.job.runtime, options_.slowdown_threshold));
    }
    const double count = static_cast<double>(result_.jobs.size());
    totals.makespan = last_end - first_submit;
    totals.utilisation = totals.makespan > 0
                             ? busy / (static_cast<double>(machine_.slots()) * totals.makespan)
                             : 0;
    std::sort(waits.begin(), waits.end());
    double wait_sum = 0;
    for (double wait : waits) wait_sum += wait;
    totals.mean_wait = wait_sum / count;
    totals.p50_wait = percentile(waits, 0.50);
    totals.p95_wait = percentile(waits, 0.95);
    totals.mean_bounded_slowdown = slowdown / count;
  }
  return std::move(result_);
}

}  // namespace

StreamResult simulate_easy(const Machine& machine, const std::vector<StreamJob>& jobs,
                           const Allocate& allocate, const EasyOptions& options) {
  check_input(machine, jobs);
  if (!allocate) throw Error("EASY: no allocator");
  return Simulation(machine, jobs, allocate, options).run();
}

}  // namespace tofa::harness
