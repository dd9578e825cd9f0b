#include "service/graph_store.hpp"

#include <algorithm>
#include <set>

#include "base/error.hpp"
#include "service/protocol.hpp"
#include "service/state_text.hpp"

namespace tofa::service {

bool graph_id_less(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size();  // "g2" < "g10"
  return a < b;
}

void GraphStore::insert(GraphRecord record) {
  const std::string id = record.id;
  records_[id] = std::move(record);
}

bool GraphStore::erase(const std::string& id) { return records_.erase(id) > 0; }

void GraphStore::touch(const std::string& id, double now) {
  const auto found = records_.find(id);
  if (found != records_.end()) found->second.last_used = now;
}

const GraphRecord* GraphStore::find(const std::string& id) const {
  const auto found = records_.find(id);
  return found == records_.end() ? nullptr : &found->second;
}

const GraphRecord& GraphStore::usable(const std::string& id, uid_t uid, bool admin) const {
  const GraphRecord* record = find(id);
  if (record == nullptr || (!admin && record->uid != uid))
    throw Error("unknown graph id " + id);
  return *record;
}

const GraphRecord* GraphStore::find_by_digest(uid_t uid, const std::string& sha256) const {
  for (const auto& [id, record] : records_)
    if (record.uid == uid && record.sha256 == sha256) return &record;
  return nullptr;
}

int GraphStore::count_of(uid_t uid) const {
  return static_cast<int>(std::count_if(records_.begin(), records_.end(),
                                        [&](const auto& entry) { return entry.second.uid == uid; }));
}

void GraphStore::set_graph(const std::string& id, std::shared_ptr<const CommGraph> graph) {
  auto found = records_.find(id);
  if (found != records_.end()) found->second.graph = std::move(graph);
}

std::optional<std::string> GraphStore::least_recently_used(uid_t uid,
                                                           const std::set<std::string>& keep,
                                                           double used_before) const {
  const GraphRecord* oldest = nullptr;
  for (const auto& [id, record] : records_)
    if (record.uid == uid && keep.count(id) == 0 && record.last_used < used_before &&
        (oldest == nullptr || record.last_used < oldest->last_used))
      oldest = &record;
  if (oldest == nullptr) return std::nullopt;
  return oldest->id;
}

std::vector<const GraphRecord*> GraphStore::visible(uid_t uid, bool admin) const {
  std::vector<const GraphRecord*> out;
  for (const auto& [id, record] : records_)
    if (admin || record.uid == uid) out.push_back(&record);
  std::sort(out.begin(), out.end(),
            [](const GraphRecord* a, const GraphRecord* b) { return graph_id_less(a->id, b->id); });
  return out;
}

std::string GraphStore::index_text() const {
  std::string text = state_header("graphs") + "next n=" + std::to_string(next_) + "\n";
  for (const GraphRecord* r : visible(0, true))
    text += format_message("graph", {{"id", r->id},
                                     {"uid", std::to_string(r->uid)},
                                     {"name", r->name},
                                     {"tasks", std::to_string(r->task_count)},
                                     {"bytes", std::to_string(r->bytes)},
                                     {"sha256", r->sha256},
                                     {"uploaded", state_number(r->uploaded)},
                                     {"used", state_number(r->last_used)}}) +
            "\n";
  return text;
}

std::vector<GraphRecord> GraphStore::parse_index(const std::string& text,
                                                 const std::string& source, long long& next,
                                                 LoadNotes* notes) {
  std::vector<GraphRecord> records;
  std::set<std::string> seen;
  next = 1;
  parse_state_records(text, source, "graphs", "tofa-graphs 1", notes, [&](const StateLine& fields) {
    if (fields.kind() == "next") {
      next = std::max(next, fields.integer("n", 1, 1LL << 62));
      return;
    }
    if (fields.kind() != "graph")
      fields.fail("expected 'graph' or 'next', found '" + fields.kind() + "'");
    GraphRecord record;
    record.id = fields.text("id");
    if (record.id.size() < 2 || record.id.size() > 18 || record.id[0] != 'g' ||
        record.id.find_first_not_of("0123456789", 1) != std::string::npos)
      fields.fail("bad id '" + record.id + "': expected g<number>");
    // An id is never reused, even when its record is bad.
    next = std::max(next, std::stoll(record.id.substr(1)) + 1);
    if (seen.count(record.id)) fields.fail("graph " + record.id + " is listed twice");
    record.uid = static_cast<uid_t>(fields.integer("uid", 0, 4294967295LL));
    record.name = fields.text("name");
    record.task_count = static_cast<int>(fields.integer("tasks", 1, 1 << 30));
    record.bytes = fields.integer("bytes", 0, 1LL << 50);
    record.sha256 = fields.text("sha256");
    if (record.sha256.size() != 64 || record.sha256.find_first_not_of("0123456789abcdef") !=
                                          std::string::npos)
      fields.fail("bad sha256 '" + record.sha256 + "': expected 64 hex digits");
    record.uploaded = fields.number("uploaded");
    record.last_used = fields.number("used");
    seen.insert(record.id);
    records.push_back(std::move(record));
  });
  return records;
}

}  // namespace tofa::service
