#include "trace_resolve.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "base/error.hpp"

namespace tofa::sim {
namespace {

constexpr double kComputeQuantum = 2e-6;  // seconds

struct Message {
  int round;
  int src;
  int dst;
  std::uint64_t bytes;
};

// A collective instance: communicator key and its call number there.
using CollectiveId = std::pair<std::string, std::uint64_t>;

class Reader {
 public:
  Reader(const std::string& path, int rank) : path_(path), in_(path) {
    if (!in_) throw Error("cannot read the trace " + path + " (is it a tofa-profile --trace directory?)");
    std::string magic, rank_word, size_word;
    int version = 0, file_rank = -1;
    next();
    std::istringstream head(line_);
    if (!(head >> magic >> version >> rank_word >> file_rank >> size_word >> size_) ||
        magic != "tofaprof-trace" || version != 1 || file_rank != rank || size_ < 1)
      fail("expected the header 'tofaprof-trace 1 rank " + std::to_string(rank) + " size P'");
  }

  bool next() {
    if (!std::getline(in_, line_)) return false;
    ++line_no_;
    return true;
  }
  const std::string& line() const { return line_; }
  int size() const { return size_; }
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(path_, line_no_, 0, what); }

  // Fields of the current line after its letter, checked for count.
  std::istringstream fields(std::size_t expected, const char* form) const {
    std::istringstream words(line_.substr(1));
    std::istringstream count(line_);
    std::size_t n = 0;
    for (std::string w; count >> w;) ++n;
    if (n != expected + 1) fail(std::string("expected '") + form + "'");
    return words;
  }

  int rank_field(std::istringstream& in, bool any_ok, const char* form) const {
    long long v;
    if (!(in >> v) || v < (any_ok ? -1 : 0) || v >= size_)
      fail(std::string("expected '") + form + "' with ranks below " + std::to_string(size_));
    return static_cast<int>(v);
  }

 private:
  std::string path_;
  std::ifstream in_;
  std::string line_;
  int line_no_ = 0;
  int size_ = 0;
};

template <typename T>
T number(Reader& r, std::istringstream& in, const char* form) {
  T v;
  if (!(in >> v)) r.fail(std::string("expected '") + form + "'");
  return v;
}

struct Collective {
  CollectiveId id;
  bool world_barrier;  // a barrier of all ranks: the window's bounds
};

Collective parse_collective(Reader& r) {
  auto in = r.fields(4, "k KEY SEQ CLASS SIZE");
  std::string key, cls;
  in >> key;
  auto seq = number<std::uint64_t>(r, in, "k KEY SEQ CLASS SIZE");
  in >> cls;
  int size = number<int>(r, in, "k KEY SEQ CLASS SIZE");
  return {{key, seq}, cls == "barrier" && size == r.size()};
}

std::string trace_path(const std::string& dir, int rank) {
  return dir + "/" + std::to_string(rank) + ".trace";
}

// Pass 1: every collective's messages from every rank.
std::map<CollectiveId, std::vector<Message>> collect_collectives(const std::string& dir, int ranks,
                                                                 ResolvedTrace& totals) {
  std::map<CollectiveId, std::vector<Message>> all;
  totals.barrier_gaps.assign(1, 0);
  for (int rank = 0; rank < ranks; ++rank) {
    Reader r(trace_path(dir, rank), rank);
    if (r.size() != ranks) r.fail("the trace has " + std::to_string(ranks) + " ranks (0.trace says so)");
    std::vector<Message>* current = nullptr;
    bool ended = false;
    while (r.next()) {
      const std::string& l = r.line();
      if (l.empty()) continue;
      if (ended) r.fail("a line after the end ('e')");
      ended = l == "e";
      if (rank == 0) ++totals.barrier_gaps.back();
      if (l[0] == 'k') {
        Collective c = parse_collective(r);
        current = &all[c.id];
        if (rank == 0) {
          ++totals.collectives;
          if (c.world_barrier) totals.barrier_gaps.push_back(0);
        }
      } else if (l[0] == 'm') {
        if (!current) r.fail("an 'm' line outside a collective (no 'k' line before it)");
        auto in = r.fields(3, "m ROUND DST BYTES");
        int round = number<int>(r, in, "m ROUND DST BYTES");
        int dst = r.rank_field(in, false, "m ROUND DST BYTES");
        auto bytes = number<std::uint64_t>(r, in, "m ROUND DST BYTES");
        if (round < 0) r.fail("expected a round >= 0");
        current->push_back({round, rank, dst, bytes});
      } else if (l[0] == 'u') {
        r.fail("'" + l.substr(2) + "' cannot be replayed (the trace replays point-to-point and collectives only)");
      } else {
        current = nullptr;
      }
    }
    if (!ended) r.fail("the trace ends before the rank's MPI_Finalize (no 'e' line): was the run cut short?");
  }
  return all;
}

// Point-to-point messages inside a window, per ordered pair [src * ranks +
// dst]: what each rank sends there and what each receives. A receive inside
// whose send lies before the window (or a send inside received after it)
// would never match in the replay.
struct WindowBalance {
  std::vector<long> sends, recvs;
  bool active = false;
};

bool world_barrier_line(Reader& r) { return r.line()[0] == 'k' && parse_collective(r).world_barrier; }

WindowBalance balance_window(const std::string& dir, int ranks, TraceWindow window) {
  WindowBalance b;
  if (window.after == 0 && window.before == 0) return b;
  b.active = true;
  const std::size_t n = static_cast<std::size_t>(ranks);
  b.sends.assign(n * n, 0);
  b.recvs.assign(n * n, 0);
  for (int rank = 0; rank < ranks; ++rank) {
    Reader r(trace_path(dir, rank), rank);
    int barriers = 0;
    std::unordered_map<std::uint64_t, bool> recv_inside;  // a receive's id: posted inside
    while (r.next()) {
      const std::string& l = r.line();
      if (l.empty()) continue;
      if (world_barrier_line(r)) ++barriers;
      const bool inside = barriers >= window.after && (window.before == 0 || barriers < window.before);
      std::istringstream in(l.substr(1));
      long long a = 0, b2 = 0;
      switch (l[0]) {
        case 's':
          if (inside && in >> a) ++b.sends[static_cast<std::size_t>(rank) * n + static_cast<std::size_t>(a)];
          break;
        case 'S':
          if (inside && in >> a >> b2)
            ++b.sends[static_cast<std::size_t>(rank) * n + static_cast<std::size_t>(b2)];
          break;
        case 'r':
          if (inside && in >> a) ++b.recvs[static_cast<std::size_t>(a) * n + static_cast<std::size_t>(rank)];
          break;
        case 'R':
          if (in >> a) recv_inside[static_cast<std::uint64_t>(a)] = inside;
          break;
        case 'w':
          if (in >> a >> b2) {
            auto it = recv_inside.find(static_cast<std::uint64_t>(a));
            if (it != recv_inside.end() && it->second && b2 >= 0 && b2 < ranks)
              ++b.recvs[static_cast<std::size_t>(b2) * n + static_cast<std::size_t>(rank)];
            if (it != recv_inside.end()) recv_inside.erase(it);
          }
          break;
      }
    }
  }
  return b;
}

class RankWriter {
 public:
  RankWriter(int rank, int ranks, ResolvedTrace& totals) : rank_(rank), totals_(totals) {
    lines_.push_back("tofa-replay 1 rank " + std::to_string(rank) + " size " + std::to_string(ranks));
  }

  // Computation shorter than kComputeQuantum is carried to the next one
  // (as SMPI's smpi/cpu-threshold does): most gaps between two MPI calls are
  // below a microsecond, and each would cost the replay a simulated action.
  void compute(double seconds) {
    totals_.cpu_seconds += seconds;
    carried_ += seconds;
    if (carried_ >= kComputeQuantum) flush_compute();
  }
  void flush_compute() {
    if (carried_ <= 0) return;
    std::ostringstream l;
    l.precision(9);
    l << "c " << carried_;
    lines_.push_back(l.str());
    carried_ = 0;
  }
  void send(int dst, int tag, std::uint64_t bytes) {
    count(dst, bytes);
    lines_.push_back("s " + std::to_string(dst) + " " + std::to_string(tag) + " " + std::to_string(bytes));
  }
  std::uint64_t isend(int dst, int tag, std::uint64_t bytes) {
    count(dst, bytes);
    std::uint64_t id = ++next_id_;
    lines_.push_back("S " + std::to_string(id) + " " + std::to_string(dst) + " " + std::to_string(tag) + " " +
                     std::to_string(bytes));
    return id;
  }
  void recv(int src, int tag, std::uint64_t bytes) {
    lines_.push_back("r " + std::to_string(src) + " " + std::to_string(tag) + " " + std::to_string(bytes));
  }
  // A receive whose source, tag and size are known only at its completion:
  // its line is written then, in the place it was posted.
  std::uint64_t irecv_posted() {
    std::uint64_t id = ++next_id_;
    lines_.emplace_back();
    return id;
  }
  void irecv_matched(std::uint64_t id, std::size_t line, int src, int tag, std::uint64_t bytes) {
    lines_[line] = "R " + std::to_string(id) + " " + std::to_string(src) + " " + std::to_string(tag) + " " +
                   std::to_string(bytes);
  }
  std::uint64_t irecv(int src, int tag, std::uint64_t bytes) {
    std::uint64_t id = irecv_posted();
    irecv_matched(id, lines_.size() - 1, src, tag, bytes);
    return id;
  }
  void wait(std::uint64_t id) { lines_.push_back("w " + std::to_string(id)); }
  std::size_t last_line() const { return lines_.size() - 1; }

  void collective(const std::vector<Message>& messages) {
    std::vector<const Message*> mine;
    for (const Message& m : messages)
      if (m.src == rank_ || m.dst == rank_) mine.push_back(&m);
    std::stable_sort(mine.begin(), mine.end(), [](auto* a, auto* b) { return a->round < b->round; });
    for (std::size_t i = 0; i < mine.size();) {
      std::size_t end = i;
      while (end < mine.size() && mine[end]->round == mine[i]->round) ++end;
      std::vector<std::uint64_t> ids;
      for (std::size_t k = i; k < end; ++k)
        if (mine[k]->dst == rank_) ids.push_back(irecv(mine[k]->src, kCollectiveTag, mine[k]->bytes));
      for (std::size_t k = i; k < end; ++k)
        if (mine[k]->src == rank_) ids.push_back(isend(mine[k]->dst, kCollectiveTag, mine[k]->bytes));
      for (std::uint64_t id : ids) wait(id);
      i = end;
    }
  }

  void write(const std::string& path) {
    flush_compute();
    std::ofstream out(path);
    if (!out) throw Error("cannot write " + path);
    for (const std::string& l : lines_)
      if (!l.empty()) out << l << '\n';
    if (!out.flush()) throw Error("cannot write " + path);
    totals_.events += lines_.size();
  }

 private:
  void count(int dst, std::uint64_t bytes) {
    totals_.bytes[static_cast<std::size_t>(rank_) * static_cast<std::size_t>(totals_.ranks) +
                  static_cast<std::size_t>(dst)] += bytes;
  }

  int rank_;
  ResolvedTrace& totals_;
  std::vector<std::string> lines_;
  std::uint64_t next_id_ = 0;
  double carried_ = 0;
};

void check_tag(Reader& r, int tag) {
  if (tag >= kCollectiveTag) r.fail("tag " + std::to_string(tag) + " collides with the replay's collective tag");
}

// Pass 2: one rank's replay file.
// long: one pass over a rank's trace, a case per line kind.
void resolve_rank(const std::string& dir, const std::string& out_dir, int rank, int ranks,
                  const std::map<CollectiveId, std::vector<Message>>& collectives, TraceWindow window,
                  const WindowBalance& balance, ResolvedTrace& totals) {
  Reader r(trace_path(dir, rank), rank);
  RankWriter w(rank, ranks, totals);
  // Crossing messages: this rank's first receives from a peer beyond what the
  // peer sends it inside the window matched earlier sends; its sends beyond
  // what the peer receives inside are received later. Both are left out.
  const std::size_t n = static_cast<std::size_t>(ranks), me = static_cast<std::size_t>(rank);
  std::vector<long> recv_seen(n, 0), send_seen(n, 0);
  auto keep_recv = [&](int src) {
    if (!balance.active) return true;
    const std::size_t pair = static_cast<std::size_t>(src) * n + me;
    const long surplus = balance.recvs[pair] - balance.sends[pair];
    const bool keep = recv_seen[static_cast<std::size_t>(src)]++ >= surplus;
    totals.cut_messages += keep ? 0 : 1;
    return keep;
  };
  auto keep_send = [&](int dst) {
    if (!balance.active) return true;
    const std::size_t pair = me * n + static_cast<std::size_t>(dst);
    const bool keep = send_seen[static_cast<std::size_t>(dst)]++ < std::min(balance.sends[pair], balance.recvs[pair]);
    totals.cut_messages += keep ? 0 : 1;
    return keep;
  };
  int barriers = 0;
  auto inside = [&] { return barriers >= window.after && (window.before == 0 || barriers < window.before); };
  struct Pending {
    std::uint64_t id;
    bool recv;
    std::size_t line;
  };
  std::unordered_map<std::uint64_t, Pending> pending;  // the trace's ids
  while (r.next()) {
    const std::string& l = r.line();
    if (l.empty()) continue;
    if (l[0] == 'k' && parse_collective(r).world_barrier) {
      const bool was_inside = inside();
      ++barriers;
      if (was_inside != inside() && !pending.empty())
        r.fail("request " + std::to_string(pending.begin()->first) +
               " is open across the window's barrier " + std::to_string(barriers));
    }
    if (!inside()) continue;
    switch (l[0]) {
      case 'c': {
        auto in = r.fields(1, "c SECONDS");
        double s = number<double>(r, in, "c SECONDS");
        if (!(s >= 0)) r.fail("expected 'c SECONDS' with SECONDS >= 0");
        w.compute(s);
        break;
      }
      case 's': {
        auto in = r.fields(3, "s DST TAG BYTES");
        int dst = r.rank_field(in, false, "s DST TAG BYTES");
        int tag = number<int>(r, in, "s DST TAG BYTES");
        check_tag(r, tag);
        auto bytes = number<std::uint64_t>(r, in, "s DST TAG BYTES");
        if (keep_send(dst)) w.send(dst, tag, bytes);
        break;
      }
      case 'S': {
        auto in = r.fields(4, "S ID DST TAG BYTES");
        auto id = number<std::uint64_t>(r, in, "S ID DST TAG BYTES");
        int dst = r.rank_field(in, false, "S ID DST TAG BYTES");
        int tag = number<int>(r, in, "S ID DST TAG BYTES");
        check_tag(r, tag);
        auto bytes = number<std::uint64_t>(r, in, "S ID DST TAG BYTES");
        pending[id] = {keep_send(dst) ? w.isend(dst, tag, bytes) : 0, false, 0};
        break;
      }
      case 'r': {
        auto in = r.fields(3, "r SRC TAG BYTES");
        int src = r.rank_field(in, false, "r SRC TAG BYTES");
        int tag = number<int>(r, in, "r SRC TAG BYTES");
        auto bytes = number<std::uint64_t>(r, in, "r SRC TAG BYTES");
        if (keep_recv(src)) w.recv(src, tag, bytes);
        break;
      }
      case 'R': {
        auto in = r.fields(3, "R ID SRC TAG");
        auto id = number<std::uint64_t>(r, in, "R ID SRC TAG");
        std::uint64_t own = w.irecv_posted();
        pending[id] = {own, true, w.last_line()};
        break;
      }
      case 'w': {
        auto in = r.fields(4, "w ID SRC TAG BYTES");
        auto id = number<std::uint64_t>(r, in, "w ID SRC TAG BYTES");
        auto it = pending.find(id);
        if (it == pending.end()) r.fail("request " + std::to_string(id) + " completes but was never posted");
        bool kept = it->second.id != 0;  // 0: a send left out
        if (it->second.recv) {
          int src = r.rank_field(in, false, "w ID SRC TAG BYTES");
          int tag = number<int>(r, in, "w ID SRC TAG BYTES");
          auto bytes = number<std::uint64_t>(r, in, "w ID SRC TAG BYTES");
          kept = keep_recv(src);
          if (kept) w.irecv_matched(it->second.id, it->second.line, src, tag, bytes);
        }
        if (kept) w.wait(it->second.id);
        pending.erase(it);
        break;
      }
      case 'k':
        w.collective(collectives.at(parse_collective(r).id));
        break;
      case 'm':
      case 'e':
        break;  // pass 1 took them
      default:
        r.fail("unknown event '" + l.substr(0, 1) + "' (expected c s S r R w k m)");
    }
  }
  if (window.before > 0 && barriers < window.before)
    r.fail("the window ends at barrier " + std::to_string(window.before) + ", the trace has " +
           std::to_string(barriers));
  w.write(out_dir + "/" + std::to_string(rank) + ".replay");
}

}  // namespace

TraceWindow parse_trace_window(const std::string& text) {
  TraceWindow w;
  if (text.empty()) return w;
  char colon = 0;
  std::istringstream in(text);
  if (!(in >> w.after >> colon >> w.before) || colon != ':' || !in.eof() || w.after < 0 ||
      w.before <= w.after)
    throw Error("trace window '" + text + "': expected A:B, barrier numbers with 0 <= A < B");
  return w;
}

ResolvedTrace resolve_trace(const std::string& trace_dir, const std::string& out_dir, TraceWindow window) {
  int ranks = Reader(trace_path(trace_dir, 0), 0).size();
  ResolvedTrace totals;
  totals.ranks = ranks;
  totals.bytes.assign(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(ranks), 0);
  auto collectives = collect_collectives(trace_dir, ranks, totals);
  const WindowBalance balance = balance_window(trace_dir, ranks, window);
  std::filesystem::create_directories(out_dir);
  for (int rank = 0; rank < ranks; ++rank)
    resolve_rank(trace_dir, out_dir, rank, ranks, collectives, window, balance, totals);
  return totals;
}

}  // namespace tofa::sim
