#include "graph/patterns/collectives.hpp"

namespace tofa::patterns {
namespace {

void send(const Collective& c, int from, int to, double bytes, double messages = 1) {
  if (from == to) return;
  c.out.push_back({c.group[from], c.group[to], bytes * c.times, messages * c.times});
}

int size(const Collective& c) { return static_cast<int>(c.group.size()); }

int lowbit(int v) { return v & -v; }

}  // namespace

void ring_allreduce(const Collective& c) {
  const int p = size(c);
  for (int r = 0; p > 1 && r < p; ++r) send(c, r, (r + 1) % p, 2.0 * (p - 1) * c.bytes / p, 2.0 * (p - 1));
}

void recursive_doubling_allreduce(const Collective& c) {
  const int p = size(c);
  int q = 1;
  while (q * 2 <= p) q *= 2;
  const int e = p - q;
  const auto real = [e](int t) { return t < e ? 2 * t + 1 : t + e; };
  for (int r = 0; r < 2 * e; r += 2) send(c, r, r + 1, c.bytes);
  for (int r = 0; r < p; ++r) {
    if (r < 2 * e && r % 2 == 0) continue;
    const int s = r < 2 * e ? r / 2 : r - e;
    for (int m = 1; m < q; m *= 2) send(c, r, real(s ^ m), c.bytes);
  }
  for (int r = 1; r < 2 * e; r += 2) send(c, r, r - 1, c.bytes);
}

void binomial_bcast(const Collective& c, int root) {
  const int p = size(c);
  for (int v = 0; v < p; ++v) {
    const int limit = v == 0 ? p : lowbit(v);
    for (int m = 1; m < limit && v + m < p; m *= 2) send(c, (v + root) % p, (v + m + root) % p, c.bytes);
  }
}

void binomial_allreduce(const Collective& c) {
  for (int v = 1; v < size(c); ++v) send(c, v, v - lowbit(v), c.bytes);
  binomial_bcast(c, 0);
}

void linear_bcast(const Collective& c, int root) {
  for (int r = 0; r < size(c); ++r) send(c, root, r, c.bytes);
}

void pipeline_bcast(const Collective& c, int root) {
  const int p = size(c);
  for (int v = 0; v + 1 < p; ++v) send(c, (v + root) % p, (v + 1 + root) % p, c.bytes);
}

void pairwise_alltoall(const Collective& c) {
  for (int r = 0; r < size(c); ++r)
    for (int j = 0; j < size(c); ++j) send(c, r, j, c.bytes);
}

void allreduce(const std::string& algorithm, const Collective& c) {
  if (algorithm == "ring") return ring_allreduce(c);
  if (algorithm == "recursive-doubling") return recursive_doubling_allreduce(c);
  binomial_allreduce(c);
}

}  // namespace tofa::patterns
