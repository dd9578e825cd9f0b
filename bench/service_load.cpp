// The service under load and under attack at once, over 127.0.0.1 only:
// REQUESTS uploads (of at most 48 distinct graphs) and placement queries,
// all released together from
// PROCESSES forked client processes (one thread per request), while IDLE
// connections send nothing and SLOW connections drip a header one byte at a
// time. A client whose own munged refuses a connection (its listen queue
// overflows when all clients seal at once) retries; the retries are counted
// and their time is in the latency. Starts the real service in a child process unless --port names a
// running one. Prints JSON: counts, unexpected errors (expected 0), p50/p99
// latency and the service's RSS before, after and at its peak.
//
//   service_load --munge-socket PATH [--port P [--service-pid PID]]
//                [--requests 1000] [--processes 20] [--idle 100] [--slow 10]
//                [--time-limit 120] [--max-connections 512]
//                [--max-connections-per-peer 256] [--map-worker PATH]
//                [--candidates HOSTLIST]
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "net/munge_codec.hpp"
#include "net/socket_io.hpp"
#include "service/client.hpp"
#include "service/service.hpp"

namespace {

constexpr int kDistinctUploads = 48;

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

struct Options {
  std::string munge_socket;
  int port = 0;  // 0: start a service
  pid_t service_pid = 0;
  int requests = 1000;
  int processes = 20;
  int idle = 100;
  int slow = 10;
  int time_limit = 120;  // seconds for the whole load
  int max_connections = 512;           // tofa.conf MaxConnections of the started service
  int max_connections_per_peer = 256;  // and MaxConnectionsPerPeer
  std::string map_worker;              // its MapWorker (absolute)
  std::string candidates = "n[1-16]";  // nodes of PLACE requests (4 tasks, 1 slot each)
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--munge-socket") o.munge_socket = value;
    else if (key == "--port") o.port = std::stoi(value);
    else if (key == "--service-pid") o.service_pid = std::stoi(value);
    else if (key == "--requests") o.requests = std::stoi(value);
    else if (key == "--processes") o.processes = std::stoi(value);
    else if (key == "--idle") o.idle = std::stoi(value);
    else if (key == "--slow") o.slow = std::stoi(value);
    else if (key == "--time-limit") o.time_limit = std::stoi(value);
    else if (key == "--max-connections") o.max_connections = std::stoi(value);
    else if (key == "--max-connections-per-peer") o.max_connections_per_peer = std::stoi(value);
    else if (key == "--map-worker") o.map_worker = value;
    else if (key == "--candidates") o.candidates = value;
    else throw std::runtime_error("unknown option " + key);
  }
  o.processes = std::max(1, std::min(o.processes, o.requests));
  return o;
}

void raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

/// VmRSS and VmHWM of `pid` in KiB (0 when unknown).
std::pair<long, long> rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  long rss = 0, peak = 0;
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) rss = std::stol(line.substr(6));
    if (line.rfind("VmHWM:", 0) == 0) peak = std::stol(line.substr(6));
  }
  return {rss, peak};
}

/// The service in a child process; its port arrives through a pipe and it
/// stops when `stop_fd` reaches end of file.
pid_t start_service(const Options& o, const std::string& dir, int* port, int* stop_fd) {
  const std::string conf = dir + "/tofa.conf";
  std::ofstream(conf) << "Dims=4x4\nNodeName=n[1-16]\n"
                         "ServicePort=0 ServiceBindAddress=127.0.0.1\n"
                         "HeartbeatInterval=3600 MaxGraphsPerUser=100000\n"
                      << "MaxConnections=" << o.max_connections
                      << " MaxConnectionsPerPeer=" << o.max_connections_per_peer << "\n"
                      << "MapWorker=" << (o.map_worker.empty() ? "none" : o.map_worker) << "\n";
  int port_pipe[2], stop_pipe[2];
  if (pipe(port_pipe) < 0 || pipe(stop_pipe) < 0) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    close(port_pipe[0]);
    close(stop_pipe[1]);
    raise_descriptor_limit();
    int status = 0;
    try {
      tofa::service::ServiceOptions options;
      options.conf_path = conf;
      options.state_dir = dir;
      options.admin_uid = geteuid();
      options.munge_socket = o.munge_socket;
      // Evictions and timeouts are expected here; TOFA_LOAD_LOG=FILE keeps them.
      static std::mutex log_mutex;
      static std::ofstream log_file;
      if (const char* path = std::getenv("TOFA_LOAD_LOG")) log_file.open(path);
      options.log = [](int, const std::string& line) {
        std::lock_guard<std::mutex> lock(log_mutex);
        if (log_file) log_file << line << "\n";
      };
      tofa::service::Service service(options);
      const int bound = service.port();
      if (write(port_pipe[1], &bound, sizeof bound) != sizeof bound) status = 1;
      char byte;
      while (read(stop_pipe[0], &byte, 1) > 0) {
      }
      service.stop();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "service: %s\n", e.what());
      status = 1;
    }
    _exit(status);
  }
  close(port_pipe[1]);
  close(stop_pipe[0]);
  if (read(port_pipe[0], port, sizeof *port) != sizeof *port)
    throw std::runtime_error("the service did not start");
  close(port_pipe[0]);
  *stop_fd = stop_pipe[1];
  return pid;
}

/// One client process: `count` requests, each on its own thread, all
/// released when `start_fd` reaches end of file. Writes "ok MICROSECONDS" or
/// "error TEXT" per request to `out_fd`.
[[noreturn]] void client_process(const Options& o, int port, const std::string& graph, int first,
                                 int count, int start_fd, int out_fd) {
  std::vector<std::string> results(static_cast<std::size_t>(count));
  std::vector<std::thread> threads;
  std::atomic<bool> go{false};
  for (int i = 0; i < count; ++i) {
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::sleep_for(1ms);
      const int n = first + i;
      const auto started = Clock::now();
      int retries = 0;
      try {
        auto context = tofa::service::client_context("", "127.0.0.1:" + std::to_string(port),
                                                     o.munge_socket);
        context.settings.request_timeout = o.time_limit;
        for (;;) {
          try {
            if (n % 2 == 0) {
              // At most kDistinctUploads different graphs: a user may keep
              // MaxGraphsPerUser (64), and in slurmctld none used in the
              // last 30 s is evicted; the rest are answered from the store.
              tofa::service::call(context, "UPLOAD_GRAPH name=load" + std::to_string(n) +
                                               ".mat\n0 1 " +
                                               std::to_string(n % kDistinctUploads + 1) +
                                               "\n1 2 7\n");
            } else {
              tofa::service::PlaceRequest place;
              place.graph_id = graph;
              place.tasks = 4;
              place.candidates = o.candidates;
              place.slots_per_node = 1;
              tofa::service::request_placement(context, place);
            }
            break;
          } catch (const tofa::net::MungeError& e) {
            // Our own munged's listen queue overflowing under 1000 simultaneous
            // seals: a client-side limit of this benchmark, not the service's.
            if (e.credential_refused() || ++retries > 50) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(5 + (n * 7 + retries) % 40));
          }
        }
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() -
                                                                              started);
        results[static_cast<std::size_t>(i)] =
            "ok " + std::to_string(us.count()) + " " + std::to_string(retries);
      } catch (const std::exception& e) {
        std::string text = e.what();
        std::replace(text.begin(), text.end(), '\n', ' ');
        results[static_cast<std::size_t>(i)] = "error " + text;
      }
    });
  }
  char byte;
  while (read(start_fd, &byte, 1) > 0) {
  }
  go = true;
  for (std::thread& t : threads) t.join();
  std::string all;
  for (const std::string& line : results) all += line + "\n";
  for (std::size_t done = 0; done < all.size();) {
    const ssize_t n = write(out_fd, all.data() + done, all.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  _exit(0);
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t at = std::min(values.size() - 1, static_cast<std::size_t>(p * values.size()));
  return values[at];
}

}  // namespace

// long: the load generator's setup, its client threads and the report in one driver.
int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "service_load: %s\n", e.what());
    return 2;
  }
  raise_descriptor_limit();
  char dir_template[] = "/tmp/tofa-service-load-XXXXXX";
  if (!mkdtemp(dir_template)) return 1;
  const std::string dir = dir_template;
  int port = o.port, stop_fd = -1;
  pid_t service_pid = o.service_pid;
  try {
    if (port == 0) service_pid = start_service(o, dir, &port, &stop_fd);
    const auto context =
        tofa::service::client_context("", "127.0.0.1:" + std::to_string(port), o.munge_socket);
    const std::string graph =
        tofa::service::call(context, "UPLOAD_GRAPH name=ring.mat\n0 1 5\n1 2 5\n2 3 5\n3 0 5\n")
            .field("id");
    const auto before = rss_kib(service_pid);

    // Clients first, while this process has no threads (fork copies only the caller).
    int start_pipe[2];
    if (pipe(start_pipe) < 0) throw std::runtime_error("pipe");
    std::vector<std::pair<pid_t, int>> clients;  // pid, read end of its results
    const int per = o.requests / o.processes, extra = o.requests % o.processes;
    for (int p = 0, first = 0; p < o.processes; ++p) {
      const int count = per + (p < extra ? 1 : 0);
      int out[2];
      if (pipe(out) < 0) throw std::runtime_error("pipe");
      const pid_t pid = fork();
      if (pid == 0) {
        close(start_pipe[1]);
        close(out[0]);
        client_process(o, port, graph, first, count, start_pipe[0], out[1]);
      }
      close(out[1]);
      clients.emplace_back(pid, out[0]);
      first += count;
    }
    close(start_pipe[0]);

    // The attackers: idle connections and slow drips, kept open during the load.
    std::vector<tofa::net::Fd> idle, slow;
    for (int i = 0; i < o.idle; ++i)
      idle.push_back(tofa::net::connect_tcp("127.0.0.1", port, tofa::net::Deadline(5s)));
    for (int i = 0; i < o.slow; ++i)
      slow.push_back(tofa::net::connect_tcp("127.0.0.1", port, tofa::net::Deadline(5s)));
    std::atomic<bool> attacking{true};
    long peak_rss = before.first;
    std::thread attacker([&] {
      const std::string header = std::string("\0\0\0\xc8", 4) + "MUNGE:" + std::string(194, 'A');
      for (std::size_t at = 0; attacking; at = (at + 1) % header.size()) {
        for (const tofa::net::Fd& fd : slow)
          (void)::send(fd.get(), &header[at], 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        peak_rss = std::max(peak_rss, rss_kib(service_pid).first);
        std::this_thread::sleep_for(100ms);
      }
    });

    const auto started = Clock::now();
    close(start_pipe[1]);  // go
    std::map<std::string, int> errors;
    std::vector<double> latencies_ms;
    int ok = 0, lost = 0;
    long client_munge_retries = 0;
    const auto deadline = started + std::chrono::seconds(o.time_limit);
    for (auto& [pid, fd] : clients) {
      std::string text;
      char buf[4096];
      fcntl(fd, F_SETFL, O_NONBLOCK);
      for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
          text.append(buf, static_cast<std::size_t>(n));
        } else if (n == 0) {
          break;
        } else if (Clock::now() > deadline) {
          kill(pid, SIGKILL);  // over the time limit: its requests count as lost
          break;
        } else {
          std::this_thread::sleep_for(5ms);
        }
      }
      close(fd);
      waitpid(pid, nullptr, 0);
      std::istringstream lines(text);
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind("ok ", 0) == 0) {
          ++ok;
          std::istringstream fields(line.substr(3));
          double us = 0;
          int retries = 0;
          fields >> us >> retries;
          latencies_ms.push_back(us / 1000);
          client_munge_retries += retries;
        } else {
          ++errors[line.substr(6, 120)];
        }
      }
    }
    lost = o.requests - ok;
    for (const auto& [text, count] : errors) lost -= count;
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    attacking = false;
    attacker.join();
    idle.clear();
    slow.clear();
    std::this_thread::sleep_for(200ms);
    const auto after = rss_kib(service_pid);

    nlohmann::json error_list = nlohmann::json::object();
    int unexpected = lost;
    for (const auto& [text, count] : errors) {
      error_list[text] = count;
      unexpected += count;
    }
    nlohmann::json out = {
        {"requests", o.requests},
        {"processes", o.processes},
        {"idle_connections", o.idle},
        {"slow_connections", o.slow},
        {"max_connections", o.port == 0 ? nlohmann::json(o.max_connections) : nlohmann::json()},
        {"max_connections_per_peer",
         o.port == 0 ? nlohmann::json(o.max_connections_per_peer) : nlohmann::json()},
        {"succeeded", ok},
        {"unexpected_errors", unexpected},
        {"errors", error_list},
        {"lost_at_time_limit", lost},
        {"client_munge_encode_retries", client_munge_retries},
        {"seconds", seconds},
        {"latency_ms", {{"p50", percentile(latencies_ms, 0.5)},
                        {"p99", percentile(latencies_ms, 0.99)},
                        {"max", percentile(latencies_ms, 1.0)}}},
        {"service_rss_kib",
         {{"before", before.first}, {"after", after.first},
          {"max", std::max({peak_rss, after.second, before.second})}}},
    };
    std::cout << out.dump(2) << "\n";
    if (stop_fd >= 0) {
      close(stop_fd);
      waitpid(service_pid, nullptr, 0);
    }
    std::system(("rm -rf " + dir).c_str());
    return unexpected == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "service_load: %s\n", e.what());
    if (stop_fd >= 0) close(stop_fd);
    if (o.port == 0 && service_pid > 0) waitpid(service_pid, nullptr, 0);
    std::system(("rm -rf " + dir).c_str());
    return 1;
  }
}
