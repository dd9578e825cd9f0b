// The service's half of the scheduler path (issue 38): slurmctld's
// scheduling pass only chooses the nodes (choose_nodes, linear time) and
// queues the job's strategy (map_later); the strategy orders the tasks on
// those nodes on the MappingQueue's threads, and srun waits for it up to
// PlacementWait seconds (take_placement settles what it runs).
#include <algorithm>
#include <map>

#include "base/error.hpp"
#include "map/compact/compact_choice.hpp"
#include "service/placement.hpp"
#include "service/service_state.hpp"

namespace tofa::service {

PlacementRecord ServiceState::choose_nodes(const PlaceRequest& request) {
  TaskLimits limits = parse_candidates(topology_, request.candidates);
  if (request.candidates.empty())
    for (int node = 0; node < topology_.node_count(); ++node) limits.nodes.push_back(node);
  if (limits.max_tasks.empty()) {
    const int slots = request.slots_per_node > 0 ? request.slots_per_node
                                                 : topology_.cores_per_node();
    limits.max_tasks.assign(limits.nodes.size(), slots);
  }
  return choose_nodes(request, limits);
}

PlacementRecord ServiceState::choose_nodes(const PlaceRequest& request, const TaskLimits& limits,
                                           Placement* ids) {
  if (!request.job) throw Error("choosing nodes needs a job");
  int tasks = 0;
  std::shared_ptr<const std::vector<double>> outage;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks = requested_graph(request).task_count;
    outage = health_.outage_snapshot(topology_, settings_.outage_model);
  }
  Placement placement = compact_choice(topology_, limits, *outage, tasks, request.min_nodes,
                                       request.max_nodes);
  PlacementRecord record;
  record.job = *request.job;
  record.uid = request.uid;
  record.graph_id = request.graph_id;
  record.strategy = "compact";
  record.time = now_seconds();
  record.nodes.reserve(placement.size());
  for (int node : placement) record.nodes.push_back(topology_.node_name(node));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    placements_.put(record);
  }
  placements_writer_.request();
  if (ids) *ids = std::move(placement);
  return record;
}

void ServiceState::map_later(unsigned job, TaskLimits allocation, const std::string& strategy,
                             const std::string& parameters) {
  PlacementRecord record;
  if (allocation.nodes.empty()) {
    // Each node of the record keeps 1 to the tasks it has, in the snake
    // order that topology/tofa gives Slurm's node table: the order a
    // strategy's preferences follow on an allocation.
    record = job_placement(job, std::nullopt);
    std::map<int, std::pair<int, int>> by_rank;  // snake rank -> node, tasks
    for (const std::string& name : record.nodes) {
      const int node = topology_.node_by_name(name);
      auto& [id, tasks] = by_rank[snake_rank_[node]];
      id = node;
      ++tasks;
    }
    for (const auto& [rank, node] : by_rank) {
      allocation.nodes.push_back(node.first);
      allocation.min_tasks.push_back(1);
      allocation.max_tasks.push_back(node.second);
    }
  } else {
    record = fitted(job, allocation);
  }
  record.pending = true;
  PlaceRequest request;
  request.uid = record.uid;
  request.graph_id = record.graph_id;
  request.job = job;
  request.strategy = strategy.empty() ? settings_.default_strategy : strategy;
  request.parameters = parameters;
  request.from_slurmctld = true;
  long long sequence = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    placements_.put(record);
    sequence = placements_.find(job)->sequence;
  }
  placements_writer_.request();
  // The allocation becomes the strategy's candidate text on the mapping
  // thread, not in the scheduling pass.
  mapping_queue_.push(record.uid, [this, request, allocation = std::move(allocation),
                                   sequence]() mutable {
    request.candidates = candidates_text(topology_, allocation);
    finish_mapping(request, sequence);
  });
}

void ServiceState::finish_mapping(const PlaceRequest& request, long long sequence) noexcept {
  const unsigned job = *request.job;
  const std::string name = "job " + std::to_string(job);
  bool ordered = false;  // the steps' order is settled; only its metrics remain
  try {
    std::shared_ptr<const CommGraph> graph;
    std::vector<std::string> runs;  // the nodes a step already runs on
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const PlacementRecord* record = queued_record(job, sequence);
      if (record == nullptr) return;
      if (!record->pending) runs = record->nodes;
      const GraphRecord* graph_record = graphs_.find(request.graph_id);
      if (graph_record == nullptr) throw Error("unknown graph id " + request.graph_id);
      graph = graph_record->graph;
    }
    graph = restored(request.graph_id, std::move(graph));
    std::shared_ptr<const std::vector<double>> outage;
    if (runs.empty()) {  // settled by take_placement otherwise
      std::optional<std::vector<std::string>> published =
          publish_order(request, sequence, *graph, outage);
      if (!published) return;
      runs = std::move(*published);
    } else {
      std::lock_guard<std::mutex> lock(mutex_);
      outage = health_.outage_snapshot(topology_, settings_.outage_model);
    }
    ordered = true;
    record_metrics(job, sequence, *graph, runs, *outage);
  } catch (const std::exception& e) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (queued_record(job, sequence))
        placements_.update(job, [](PlacementRecord& r) { r.pending = false; });
    }
    if (ordered)
      log(0, name + ": evaluating its order's metrics failed: " + e.what());
    else
      log(0, name + ": " + request.strategy + " on its allocation failed: " + e.what() +
                 "; its steps run the node choice's order");
  } catch (...) {
  }
}

const PlacementRecord* ServiceState::queued_record(unsigned job, long long sequence) const {
  const PlacementRecord* record = placements_.find(job);
  return record != nullptr && record->sequence == sequence ? record : nullptr;
}

std::optional<std::vector<std::string>> ServiceState::publish_order(const PlaceRequest& request,
                                                                    long long sequence,
                                                                    const CommGraph& graph,
                                                                    std::shared_ptr<const std::vector<double>>& outage) {
  const unsigned job = *request.job;
  const double budget_share = backlog_budget_share(mapping_queue_.waiting(), kMappingThreads);
  PlacementInput input;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    input = placement_input(request, request.strategy, graph, false, budget_share);
  }
  // The order first, its metrics after: srun waits for the order, and at
  // 4096 tasks on 65,536 nodes the metrics took most of the time.
  input.metrics = false;
  ComputedPlacement computed = compute_placement(input);
  outage = input.outage;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const PlacementRecord* record = queued_record(job, sequence);
    if (record == nullptr) return std::nullopt;
    if (!record->pending) return record->nodes;  // a step took the node choice's order
    placements_.update(job, [&](PlacementRecord& r) {
      r.nodes = computed.nodes;
      r.strategy = request.strategy;
      r.pending = false;
      r.time = now_seconds();
    });
  }
  placements_writer_.request();
  log(1, "job " + std::to_string(job) + ": " + request.strategy +
             " ordered its tasks on the scheduler's node choice");
  return std::move(computed.nodes);
}

void ServiceState::record_metrics(unsigned job, long long sequence, const CommGraph& graph,
                                  const std::vector<std::string>& runs,
                                  const std::vector<double>& outage) {
  Placement placement;
  placement.reserve(runs.size());
  for (const std::string& node : runs) placement.push_back(topology_.node_by_name(node));
  const PlacementMetrics metrics = evaluate_placement(graph, topology_, placement, outage);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const PlacementRecord* record = queued_record(job, sequence);
    if (record == nullptr || record->nodes != runs) return;
    placements_.update(job, [&](PlacementRecord& r) {
      r.metrics = metrics;
      r.pending = false;
    });
  }
  placements_writer_.request();
}

PlacementRecord ServiceState::take_placement(unsigned job, std::optional<uid_t> uid) {
  PlacementRecord taken;
  bool was_pending = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const PlacementRecord* record = placements_.find(job);
    if (record == nullptr || (uid && record->uid != *uid && !is_admin(*uid)))
      throw Error("no placement recorded for job " + std::to_string(job));
    was_pending = record->pending;
    taken = *record;
    taken.pending = false;
    if (was_pending) placements_.update(job, [](PlacementRecord& r) { r.pending = false; });
  }
  if (was_pending)
    log(1, "job " + std::to_string(job) + ": a step stopped waiting for its strategy "
           "(PlacementWait) and runs the node choice's order");
  return taken;
}

}  // namespace tofa::service
