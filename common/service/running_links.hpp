// The load of every torus link from the running jobs' placements: what a new
// job's routes would meet (InterferenceWeight) and what `tofactl links`
// shows. slurmctld tells the service which jobs run (every few seconds);
// a job's links are counted from its recorded placement.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "faults/faults.hpp"
#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace tofa {

class RunningLinks {
 public:
  struct Job {
    unsigned job = 0;
    std::vector<int> placement;  ///< node id per task
    std::shared_ptr<const CommGraph> graph;
  };

  /// The jobs running now, each with its current placement: a job whose
  /// placement is unchanged keeps its counted links, the others are
  /// counted again, jobs not listed leave.
  void update(const Topology& topology, const std::vector<Job>& running);
  /// True once update() ran: slurmctld reports which jobs run.
  bool known() const;

  /// Bytes per directed link (Topology::link_id), summed over the running
  /// jobs in job order, `except` left out; empty before update() ran.
  std::vector<double> loads(std::optional<unsigned> except = std::nullopt) const;
  /// How many running jobs use each directed link; empty before update() ran.
  /// With `both_ways_in`, a job on either direction of a link counts on both
  /// (LinkSharing=shared).
  std::vector<int> jobs_per_link(const Topology* both_ways_in = nullptr) const;
  /// The job's own bytes per link (sparse, link id order); empty if not running.
  std::vector<std::pair<int, double>> job_links(unsigned job) const;
  /// add_interference of the running jobs' loads to `cost` at `weight`, and
  /// with cost.shared_links their link_criticality, made once per running set
  /// and shared (at 65,536 nodes two link-sized tables per placement
  /// otherwise). For `job` running (placed again while it runs) its own bytes
  /// are taken off its links: as `own_links` over the shared costs when given,
  /// else in a copy; the costs stay scaled by the whole running set's mean
  /// loaded link. On links shared both ways a running job's costs are made
  /// without it (its flows are not the others' critical ones). Nothing before
  /// update() ran.
  void add_interference_to(FaultCost& cost, const Topology& topology, double weight,
                           std::optional<unsigned> job, LinkCostPatch* own_links = nullptr) const;

 private:
  struct Counted {
    std::vector<int> placement;
    std::vector<std::pair<int, double>> links;
    std::shared_ptr<const CommGraph> graph;
  };
  std::vector<double> loads_locked(std::optional<unsigned> except) const;
  std::vector<int> jobs_per_link_locked(const Topology* both_ways_in) const;
  /// add_interference, and on links shared both ways add_link_criticality, of
  /// the running jobs but `except`.
  void interference_locked(FaultCost& cost, const Topology& topology, double weight,
                           std::optional<unsigned> except) const;

  mutable std::mutex mutex_;
  int link_slots_ = 0;
  bool known_ = false;
  std::map<unsigned, Counted> jobs_;
  /// add_interference for a job not running, of the jobs_ it was made from
  /// (reset by an update() that changes them).
  struct Interference {
    double weight = 0;
    bool shared_links = false;
    std::shared_ptr<const std::vector<double>> link_extra;
    double link_extra_bytes = 0;
    std::shared_ptr<const std::vector<double>> link_criticality;
    std::vector<double> loads;        ///< bytes per link, every running job
    std::vector<int> jobs_per_link;  ///< running jobs on each link
    int loaded_links = 0;
  };
  /// The running job's links with the others' costs on them (interference_
  /// made without shared links); nullopt when no other job loads a link.
  std::optional<LinkCostPatch> own_links_freed(const Counted& job) const;
  mutable std::optional<Interference> interference_;
};

}  // namespace tofa
