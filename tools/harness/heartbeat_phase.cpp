#include "harness/heartbeat_phase.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "base/error.hpp"
#include "capi/tofa_service.h"
#include "sim/progress.hpp"

namespace tofa::harness {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

double seconds_of(clockid_t clock) {
  timespec t{};
  ::clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// CPU of the service's threads: the process's minus this (the observing)
/// thread's, which reads estimates and would otherwise count as service work.
double process_cpu() {
  return seconds_of(CLOCK_PROCESS_CPUTIME_ID) - seconds_of(CLOCK_THREAD_CPUTIME_ID);
}

struct Stats {
  long rounds = 0;
  double last_round = 0;
  long sessions = 0;
};

Stats heartbeat_stats() {
  Stats s;
  char err[512];
  if (tofa_service_heartbeat_stats(&s.rounds, &s.last_round, &s.sessions, err, sizeof err) != TOFA_OK)
    throw Error(std::string("the TOFA service: ") + err);
  return s;
}

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t at = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size()))) ;
  return values[std::min(values.size() - 1, at == 0 ? 0 : at - 1)];
}

Json accuracy(const std::vector<double>& estimate, const FailureModel& model, double round,
              double freeze_round) {
  double sum = 0, sum_failing = 0, worst = 0;
  long failing = 0;
  for (std::size_t node = 0; node < estimate.size(); ++node) {
    double truth = model.truth(static_cast<int>(node));
    if (model.frozen(static_cast<int>(node)) && round < freeze_round) truth = 0;
    const double error = std::fabs(estimate[node] - truth);
    sum += error;
    worst = std::max(worst, error);
    if (truth > 0) {
      sum_failing += error;
      ++failing;
    }
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, estimate.size()));
  return Json{{"round", round},
              {"mae", sum / n},
              {"mae_failing", failing ? sum_failing / static_cast<double>(failing) : 0.0},
              {"max_error", worst}};
}

}  // namespace

std::vector<double> service_estimates(const std::vector<std::string>& names) {
  std::vector<double> out(names.size(), 0);
  char err[512];
  for (std::size_t i = 0; i < names.size(); ++i)
    if (tofa_service_node_outage(names[i].c_str(), &out[i], err, sizeof err) != TOFA_OK)
      throw Error(std::string("the TOFA service: ") + err);
  return out;
}

Json run_heartbeat_phase(const HeartbeatPhaseOptions& options,
                         const std::vector<std::string>& names, const FailureModel& model,
                         const Munged& munged, std::vector<double>* final_estimates) {
  const long node_count = static_cast<long>(names.size());
  const auto started = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  // Every node on session heartbeats first (the one TCP + munge exchange each).
  sim::Progress keying("heartbeat sessions", node_count);
  Stats s = heartbeat_stats();
  const double keying_cpu = process_cpu(), keying_munged = munged.cpu_seconds();
  // Done when every node holds a key, or 3 rounds passed without a new one
  // (nodes down or frozen get theirs later, over TCP, as in a real cluster).
  long stalled_since = s.rounds, keyed_count = s.sessions;
  while (s.sessions < node_count && s.rounds - stalled_since < 3 && elapsed() < options.limit_seconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s = heartbeat_stats();
    if (s.sessions != keyed_count || s.rounds == 0) {
      keyed_count = s.sessions;
      stalled_since = s.rounds;
    }
    keying.update(s.sessions);
  }
  keying.finish();
  const double keying_seconds = elapsed();
  Json keyed{{"seconds", keying_seconds},
             {"sessions", s.sessions},
             {"service_cpu_seconds", process_cpu() - keying_cpu},
             {"munged_cpu_seconds", munged.cpu_seconds() - keying_munged}};

  // Then `rounds` rounds, sampled.
  const long first_round = s.rounds;
  const double cpu0 = process_cpu(), munged0 = munged.cpu_seconds();
  const auto observe_start = Clock::now();
  std::vector<double> round_seconds;
  Json samples = Json::array();
  long last_seen = s.rounds, next_sample = 0;
  const long every = std::max<long>(1, options.rounds / std::max(1, options.samples));
  sim::Progress progress("heartbeat rounds", options.rounds);
  std::vector<double> estimate;
  while (elapsed() < options.limit_seconds) {
    s = heartbeat_stats();
    if (s.rounds != last_seen) {
      round_seconds.push_back(s.last_round);
      last_seen = s.rounds;
    }
    const long done = s.rounds - first_round;
    progress.update(std::min(done, options.rounds));
    if (done >= next_sample || done >= options.rounds) {
      estimate = service_estimates(names);
      samples.push_back(accuracy(estimate, model, static_cast<double>(s.rounds),
                                 options.freeze_round));
      next_sample += every;
    }
    if (done >= options.rounds) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  progress.finish();
  const double seconds = std::chrono::duration<double>(Clock::now() - observe_start).count();
  const long observed = std::max<long>(1, s.rounds - first_round);
  if (final_estimates) *final_estimates = estimate;
  return Json{
      {"nodes", node_count},
      {"keying", keyed},
      {"rounds_observed", s.rounds - first_round},
      {"observe_seconds", seconds},
      {"round_seconds",
       {{"p50", percentile(round_seconds, 0.5)},
        {"p95", percentile(round_seconds, 0.95)},
        {"max", percentile(round_seconds, 1.0)}}},
      {"service_cpu_per_round", (process_cpu() - cpu0) / static_cast<double>(observed)},
      {"service_cpu_share", (process_cpu() - cpu0) / std::max(1e-9, seconds)},
      {"munged_cpu_per_round", (munged.cpu_seconds() - munged0) / static_cast<double>(observed)},
      {"sessions", s.sessions},
      {"accuracy", samples},
      {"complete", s.rounds - first_round >= options.rounds}};
}

}  // namespace tofa::harness
