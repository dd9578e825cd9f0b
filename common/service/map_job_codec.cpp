#include "service/map_job_codec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>

#include "base/error.hpp"
#include "base/size_limit.hpp"

namespace tofa::service {
namespace {

const char kJobMagic[8] = {'T', 'O', 'F', 'A', 'M', 'A', 'P', '1'};
constexpr std::size_t kMaxText = 4096;     // strategy names, parameter keys and values
constexpr std::size_t kMaxParameters = 64;
constexpr std::int32_t kMaxTasks = size_limit(1 << 24, 1 << 14);  // the graph parsers' limit

class Writer {
 public:
  template <typename T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <typename T>
  void put_array(const std::vector<T>& values) {
    put<std::uint64_t>(values.size());
    if (!values.empty())
      out_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }
  void put_text(const std::string& text) {
    put<std::uint64_t>(text.size());
    out_ += text;
  }
  void put_raw(const char* data, std::size_t size) { out_.append(data, size); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}

  template <typename T>
  T get(const char* what) {
    T value;
    take(reinterpret_cast<char*>(&value), sizeof value, what);
    return value;
  }
  /// An array of at most `max` elements; the size is checked before allocating.
  template <typename T>
  std::vector<T> get_array(std::uint64_t max, const char* what) {
    const auto count = get<std::uint64_t>(what);
    if (count > max || count > (in_.size() - pos_) / sizeof(T))
      fail(std::string(what) + ": " + std::to_string(count) + " entries is more than allowed");
    std::vector<T> values(count);
    if (count > 0) take(reinterpret_cast<char*>(values.data()), count * sizeof(T), what);
    return values;
  }
  std::string get_text(const char* what) {
    const auto size = get<std::uint64_t>(what);
    if (size > kMaxText || size > in_.size() - pos_) fail(std::string(what) + ": bad length");
    std::string text = in_.substr(pos_, size);
    pos_ += size;
    return text;
  }
  void expect_end() const {
    if (pos_ != in_.size()) fail(std::to_string(in_.size() - pos_) + " bytes after the end");
  }
  [[noreturn]] void fail(const std::string& what) const { throw Error("mapping job: " + what); }

 private:
  void take(char* out, std::size_t size, const char* what) {
    if (size > in_.size() - pos_) fail(std::string("truncated in ") + what);
    std::memcpy(out, in_.data() + pos_, size);
    pos_ += size;
  }

  const std::string& in_;
  std::size_t pos_ = 0;
};

/// How the interference costs travel: a worker keeps the last table it
/// was sent, the running set's, which many jobs in a row share.
enum class LinkCosts : std::uint8_t { None = 0, Sent = 1, Kept = 2 };

/// Sparse (link, cost) pairs, each link inside `slots`, each cost >= 0.
LinkCostPatch get_link_costs(Reader& in, std::uint64_t slots, const std::string& what) {
  const auto links = in.get_array<std::int32_t>(slots, (what + " ids").c_str());
  const auto costs = in.get_array<double>(links.size(), (what + "s").c_str());
  if (costs.size() != links.size()) in.fail(what + " arrays differ in length");
  LinkCostPatch pairs;
  pairs.reserve(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (links[i] < 0 || static_cast<std::uint64_t>(links[i]) >= slots || !(costs[i] >= 0) ||
        !std::isfinite(costs[i]))
      in.fail(what + " " + std::to_string(i));
    pairs.emplace_back(links[i], costs[i]);
  }
  return pairs;
}

}  // namespace

std::string encode_map_job(const MappingRequest& request, const std::string& strategy,
                           const LinkCostPatch& patch, bool worker_kept_link_costs) {
  Writer out;
  out.put_raw(kJobMagic, sizeof kJobMagic);
  const Topology& topology = *request.topology;
  out.put_array(topology.dims());
  out.put_array(std::vector<std::uint8_t>(topology.wrap().begin(), topology.wrap().end()));
  out.put<std::int32_t>(topology.cores_per_node());

  const CommGraph& graph = *request.graph;
  out.put<std::int32_t>(graph.task_count());
  std::vector<std::int32_t> from, to;
  std::vector<double> bytes, messages, sent;  // sent: from -> to, with kept directions
  for (int u = 0; u < graph.task_count(); ++u)
    for (std::int64_t k = graph.offsets()[u]; k < graph.offsets()[u + 1]; ++k) {
      if (graph.adjacency()[k] < u) continue;
      from.push_back(u);
      to.push_back(graph.adjacency()[k]);
      bytes.push_back(graph.bytes()[k]);
      messages.push_back(graph.messages()[k]);
      if (graph.has_directions()) sent.push_back(graph.sent(k));
    }
  out.put_array(from);
  out.put_array(to);
  out.put_array(bytes);
  out.put_array(messages);
  out.put_array(sent);

  out.put_array(request.candidate_nodes);
  out.put_array(request.outage.values());
  out.put<std::int32_t>(request.slots_per_node);
  out.put<std::uint64_t>(request.seed);
  out.put<double>(request.fault_cost.link_cost);
  out.put<double>(request.fault_cost.penalty);
  const auto& link_extra = request.fault_cost.link_extra;
  const LinkCosts how = !link_extra ? LinkCosts::None
                         : worker_kept_link_costs ? LinkCosts::Kept
                                                  : LinkCosts::Sent;
  std::vector<std::int32_t> extra_links;  // the interference costs, sparse
  std::vector<double> extra_costs;
  if (how == LinkCosts::Sent) {
    const auto loaded = static_cast<std::size_t>(
        std::count_if(link_extra->begin(), link_extra->end(), [](double c) { return c != 0; }));
    extra_links.reserve(loaded);
    extra_costs.reserve(loaded);
    for (std::size_t l = 0; l < link_extra->size(); ++l)
      if ((*link_extra)[l] != 0) {
        extra_links.push_back(static_cast<std::int32_t>(l));
        extra_costs.push_back((*link_extra)[l]);
      }
  }
  out.put<std::uint8_t>(static_cast<std::uint8_t>(how));
  out.put_array(extra_links);
  out.put_array(extra_costs);
  std::vector<std::int32_t> patch_links;
  std::vector<double> patch_costs;
  for (const auto& [link, cost] : patch) {
    patch_links.push_back(link);
    patch_costs.push_back(cost);
  }
  out.put_array(patch_links);
  out.put_array(patch_costs);
  out.put<double>(request.fault_cost.link_extra_bytes);
  out.put<std::uint8_t>(request.fault_cost.shared_links ? 1 : 0);
  out.put_text(strategy);
  out.put<std::uint64_t>(request.parameters.size());
  for (const auto& [key, value] : request.parameters) {
    out.put_text(key);
    out.put_text(value);
  }
  return out.take();
}

namespace {

/// The topology of that shape, the last one built when it has it.
std::shared_ptr<const Topology> shared_topology(const std::vector<int>& dims,
                                                const std::vector<bool>& wrap, int cores) {
  static std::mutex mutex;
  static std::shared_ptr<const Topology> last;
  std::lock_guard<std::mutex> lock(mutex);
  if (!last || last->dims() != dims || last->wrap() != wrap || last->cores_per_node() != cores)
    last = std::make_shared<const Topology>(dims, wrap, cores);
  return last;
}

/// The job's extra cost per link: the table sent with it, or the one kept from
/// an earlier job, with the job's own patch over it.
std::shared_ptr<const std::vector<double>> get_link_extra(Reader& in, std::uint64_t slots,
                                                          KeptLinkCosts* kept) {
  const auto how = in.get<std::uint8_t>("link costs flag");
  if (how > static_cast<std::uint8_t>(LinkCosts::Kept)) in.fail("link costs flag");
  const LinkCostPatch extra = get_link_costs(in, slots, "link cost");
  const LinkCostPatch patch = get_link_costs(in, slots, "own link cost");
  std::shared_ptr<const std::vector<double>> table;
  if (how == static_cast<std::uint8_t>(LinkCosts::Sent)) {
    auto dense = std::make_shared<std::vector<double>>(slots, 0.0);
    for (const auto& [link, cost] : extra) (*dense)[static_cast<std::size_t>(link)] = cost;
    table = std::move(dense);
    if (kept) kept->table = table;
  } else if (how == static_cast<std::uint8_t>(LinkCosts::Kept)) {
    if (!kept || !kept->table || kept->table->size() != slots)
      in.fail("link costs of an earlier job, but none kept for this machine");
    table = kept->table;
  }
  if (!table && !patch.empty()) in.fail("own link costs without link costs");
  return patched_link_costs(table, patch);
}

}  // namespace

std::unique_ptr<MapJob> decode_map_job(const std::string& bytes, KeptLinkCosts* kept) {
  Reader in(bytes);
  char magic[sizeof kJobMagic];
  for (char& c : magic) c = in.get<char>("magic");
  if (std::memcmp(magic, kJobMagic, sizeof magic) != 0) in.fail("not a tofa mapping job");

  const auto dims = in.get_array<int>(kMaxTopologyDimensions, "dims");
  const auto wrap_bytes = in.get_array<std::uint8_t>(kMaxTopologyDimensions, "wrap");
  const auto cores = in.get<std::int32_t>("cores");
  std::shared_ptr<const Topology> topology =
      shared_topology(dims, std::vector<bool>(wrap_bytes.begin(), wrap_bytes.end()), cores);

  const auto tasks = in.get<std::int32_t>("task count");
  if (tasks < 0 || tasks > kMaxTasks) in.fail("task count " + std::to_string(tasks));
  const std::uint64_t max_edges = bytes.size();  // bounded by the input anyway
  const auto from = in.get_array<std::int32_t>(max_edges, "edge sources");
  const auto to = in.get_array<std::int32_t>(from.size(), "edge targets");
  const auto weights = in.get_array<double>(from.size(), "edge bytes");
  const auto messages = in.get_array<double>(from.size(), "edge messages");
  const auto sent = in.get_array<double>(from.size(), "edge bytes sent");
  if (to.size() != from.size() || weights.size() != from.size() ||
      messages.size() != from.size() || (!sent.empty() && sent.size() != from.size()))
    in.fail("edge arrays differ in length");
  std::vector<CommEdge> edges;
  edges.reserve(2 * from.size());
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (sent.empty()) {
      edges.push_back({from[i], to[i], weights[i], messages[i]});
      continue;
    }
    if (!(sent[i] >= 0 && sent[i] <= weights[i])) in.fail("edge bytes sent");
    edges.push_back({from[i], to[i], sent[i], messages[i]});
    edges.push_back({to[i], from[i], weights[i] - sent[i], 0});
  }
  auto job = std::make_unique<MapJob>(
      std::move(topology),
      CommGraph::from_directed_edges(tasks, edges,
                                     sent.empty() ? Directions::Halved : Directions::Kept));

  MappingRequest& request = job->request;
  request.topology = job->topology.get();
  request.graph = &job->graph;
  const auto nodes = static_cast<std::uint64_t>(job->topology->node_count());
  request.candidate_nodes = in.get_array<int>(nodes, "candidates");
  request.outage = in.get_array<double>(nodes, "outage");
  request.slots_per_node = in.get<std::int32_t>("slots");
  request.seed = in.get<std::uint64_t>("seed");
  request.fault_cost.link_cost = in.get<double>("link cost");
  request.fault_cost.penalty = in.get<double>("fault penalty");
  const auto slots = static_cast<std::uint64_t>(job->topology->link_slot_count());
  request.fault_cost.link_extra = get_link_extra(in, slots, kept);
  request.fault_cost.link_extra_bytes = in.get<double>("link cost bytes");
  if (!(request.fault_cost.link_extra_bytes >= 0) || !std::isfinite(request.fault_cost.link_extra_bytes))
    in.fail("link cost bytes");
  const auto shared_links = in.get<std::uint8_t>("link sharing");
  if (shared_links > 1) in.fail("link sharing");
  request.fault_cost.shared_links = shared_links == 1;
  job->strategy = in.get_text("strategy");
  const auto parameter_count = in.get<std::uint64_t>("parameter count");
  if (parameter_count > kMaxParameters) in.fail("too many parameters");
  for (std::uint64_t i = 0; i < parameter_count; ++i) {
    std::string key = in.get_text("parameter key");
    request.parameters[key] = in.get_text("parameter value");
  }
  in.expect_end();
  return job;
}

std::string encode_map_result(const Placement& placement) {
  Writer out;
  out.put_raw("OK", 2);
  out.put_array(placement);
  return out.take();
}

std::string encode_map_error(const std::string& message) {
  return "ER" + message.substr(0, kMaxText);
}

std::string encode_map_out_of_memory() { return "OM"; }

bool is_out_of_memory(const std::string& answer) { return answer == "OM"; }

Placement decode_map_result(const std::string& bytes, int tasks) {
  if (bytes.compare(0, 2, "ER") == 0)
    throw Error(escape_control_characters(bytes.substr(2, kMaxText)));
  if (bytes.compare(0, 2, "OK") != 0)
    throw MapWorkerFailure("mapping worker: " +
                           std::string(bytes.empty() ? "no answer" : "garbled answer"));
  const std::string body = bytes.substr(2);
  try {
    Reader in(body);
    Placement placement = in.get_array<int>(static_cast<std::uint64_t>(tasks), "placement");
    in.expect_end();
    if (placement.size() != static_cast<std::size_t>(tasks))
      throw Error("placement of " + std::to_string(placement.size()) + " tasks, expected " +
                  std::to_string(tasks));
    return placement;
  } catch (const Error& e) {
    throw MapWorkerFailure(std::string("mapping worker: ") + e.what());
  }
}

}  // namespace tofa::service
