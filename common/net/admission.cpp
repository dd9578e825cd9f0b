#include "net/admission.hpp"

#include <algorithm>

namespace tofa::net {

Admission::Admission(ConnectionLimits limits) : limits_(limits) {
  limits_.total = std::max<std::size_t>(1, limits_.total);
  limits_.per_peer = std::max<std::size_t>(1, limits_.per_peer);
}

Admission::Decision Admission::on_arrival(const std::string& address) const {
  Decision decision;
  const auto found = per_address_.find(address);
  const std::size_t from_peer = found == per_address_.end() ? 0 : found->second;
  if (from_peer >= limits_.per_peer) {
    decision.evict = oldest_without_credential(&address);
    decision.admit = decision.evict.has_value();
  } else if (entries_.size() >= limits_.total) {
    decision.evict = oldest_without_credential(nullptr);
    decision.admit = decision.evict.has_value();
  } else {
    decision.admit = true;
  }
  return decision;
}

std::optional<std::uint64_t> Admission::oldest_without_credential(
    const std::string* address) const {
  for (const auto& [id, entry] : entries_)
    if (!entry.delivered && (!address || entry.address == *address)) return id;
  return std::nullopt;
}

void Admission::add(std::uint64_t id, const std::string& address) {
  entries_[id] = Entry{address, false};
  ++per_address_[address];
}

void Admission::credential_delivered(std::uint64_t id) {
  const auto found = entries_.find(id);
  if (found != entries_.end()) found->second.delivered = true;
}

void Admission::remove(std::uint64_t id) {
  const auto found = entries_.find(id);
  if (found == entries_.end()) return;
  const auto count = per_address_.find(found->second.address);
  if (count != per_address_.end() && --count->second == 0) per_address_.erase(count);
  entries_.erase(found);
}

}  // namespace tofa::net
