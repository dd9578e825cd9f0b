/*
 * plugin_host_driver - the proof of plugins/harness/tofa_harness_host.so
 * (run by tests/harness/test_plugin_host.sh, as root): the REAL built plugin
 * objects under the host, with a private munged and no Slurm daemon.
 *
 *   plugin_host_driver --host MODULE --plugins DIR --munged SCRIPT --dir WORKDIR
 *                      [--map-worker PATH]   (MapWorker= of tofa.conf)
 *
 * Like the future tool, it knows no Slurm type: it dlopen()s the host module
 * RTLD_NOW|RTLD_GLOBAL first, then drives the plugins through it, and talks
 * to the TOFA service through libtofa (linked, the same instance the plugins
 * use). Steps:
 *   0. WORKDIR: slurm.conf (4 nodes on 127.0.0.1, distinct Port=), tofa.conf
 *      (2x2 torus, free ServicePort, HeartbeatInterval=0.2), matrices; a
 *      private munged (SCRIPT WORKDIR/munge).
 *   1. two children, re-executions of this program with "-D -N node1" and
 *      "-D -N node2" on their command line, run tofa_nodestate.so (slurmd
 *      context): each answers heartbeats;
 *   2. slurmctld_tofa.so: init() starts the service (tofa_service_running()
 *      becomes 1) and its thread pushes the node table;
 *   3. after both nodes answered, node2's child stops its responder
 *      (slurm_spank_slurmd_exit): node2's outage probability climbs above 0,
 *      node1's stays 0 (node3, never answered, stays 0 by design);
 *   4. tofa_loadmatrix.so uploads a 4-task matrix; TOFA_GRAPH_ID names a
 *      graph of 4 tasks (tofa_service_graph_info), for which the service
 *      chooses nodes (tofa_service_choose_nodes, called directly as the tool
 *      and the select shim do);
 *   5. a malformed matrix: an error naming the file and line; a wrong plugin
 *      path and a plugin of the wrong type: clear errors; the service still
 *      runs;
 *   6. fini(): the service stops; the remaining child stops.
 * Prints "ok - ..." / "not ok - ..." lines; exit 0 when all passed, 1 else.
 * Children get SIGTERM when the driver dies (PR_SET_PDEATHSIG); their pids
 * are in WORKDIR/children.pid for the test's trap.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capi/tofa.h"
#include "capi/tofa_service.h"
#include "harness/tofa_harness_host.h"

#define PORT_OFFSET 1000
#define NODES 4

/* The host's API, resolved with dlsym (the tool does the same). */
static struct {
	__typeof__(tofa_host_abi_version) *abi_version;
	__typeof__(tofa_host_slurm_version) *slurm_version;
	__typeof__(tofa_host_init) *init;
	__typeof__(tofa_host_upload_matrix) *upload_matrix;
	__typeof__(tofa_host_start_nodestate) *start_nodestate;
	__typeof__(tofa_host_stop_nodestate) *stop_nodestate;
	__typeof__(tofa_host_start_ctld) *start_ctld;
	__typeof__(tofa_host_stop_ctld) *stop_ctld;
} host;

static const char *host_path, *plugin_dir, *munged_script, *work_dir, *map_worker;
static int failures = 0;

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		failures++;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	printf("not ok - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double seconds)
{
	struct timespec ts = { (time_t) seconds,
			       (long) ((seconds - (time_t) seconds) * 1e9) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		die("out of memory");
	return p;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		die("cannot write %s: %s", path, strerror(errno));
}

static void load_host(void)
{
	void *dl = dlopen(host_path, RTLD_NOW | RTLD_GLOBAL);

	if (!dl)
		die("dlopen(%s): %s", host_path, dlerror());
#define SYM(field, name)                                                       \
	do {                                                                   \
		*(void **) (&host.field) = dlsym(dl, name);                    \
		if (!host.field)                                               \
			die("%s: no symbol %s", host_path, name);              \
	} while (0)
	SYM(abi_version, "tofa_host_abi_version");
	SYM(slurm_version, "tofa_host_slurm_version");
	SYM(init, "tofa_host_init");
	SYM(upload_matrix, "tofa_host_upload_matrix");
	SYM(start_nodestate, "tofa_host_start_nodestate");
	SYM(stop_nodestate, "tofa_host_stop_nodestate");
	SYM(start_ctld, "tofa_host_start_ctld");
	SYM(stop_ctld, "tofa_host_stop_ctld");
#undef SYM
	if (host.abi_version() != TOFA_HOST_ABI_VERSION)
		die("%s: ABI %d, expected %d", host_path, host.abi_version(),
		    TOFA_HOST_ABI_VERSION);
}

/* A port p such that p and p + PORT_OFFSET are free (TCP, 0.0.0.0). */
static bool port_free(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok;

	if (fd < 0)
		return false;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	ok = bind(fd, (struct sockaddr *) &a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

static int pick_port(const int *taken, int count)
{
	for (int tries = 0; tries < 200; tries++) {
		int port = 20000 + (int) (random() % 30000);
		bool clash = false;
		for (int i = 0; i < count; i++)
			if (abs(taken[i] - port) <= 1 ||
			    abs(taken[i] - port - PORT_OFFSET) <= 1 ||
			    abs(taken[i] + PORT_OFFSET - port) <= 1)
				clash = true;
		if (!clash && port_free(port) && port_free(port + PORT_OFFSET))
			return port;
	}
	die("no free port pair found");
}

/* Runs SCRIPT DIR/munge, returns the socket path it printed. */
static char *start_munged(void)
{
	char *munge_dir = path_in(work_dir, "munge"), line[4096] = "";
	int fds[2], status;
	ssize_t got, len = 0;
	pid_t pid;

	if (pipe(fds) != 0)
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execl(munged_script, munged_script, munge_dir, (char *) NULL);
		fprintf(stderr, "exec %s: %s\n", munged_script, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while (len < (ssize_t) sizeof(line) - 1 &&
	       (got = read(fds[0], line + len, sizeof(line) - 1 - len)) > 0)
		len += got;
	close(fds[0]);
	line[len] = '\0';
	line[strcspn(line, "\n")] = '\0';
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !line[0])
		die("%s %s failed (status %d)", munged_script, munge_dir, status);
	free(munge_dir);
	return strdup(line);
}

/* ---- the slurmd children ------------------------------------------------- */

/* Child: "-D -N NAME --nodestate-child FD" (the host reads -D -N NAME from
 * /proc/self/cmdline as slurmd's does). Reports "READY" or "FAIL reason" on
 * FD, then runs until FD reaches EOF (the parent closed it or died). */
static int nodestate_child(const char *name, int fd)
{
	char err[4096], *conf = path_in(work_dir, "etc/slurm.conf");
	char *log, *plugin = path_in(plugin_dir, "tofa_nodestate.so");
	char buf[64];
	FILE *report = fdopen(dup(fd), "w");

	if (asprintf(&log, "%s/log/%s.log", work_dir, name) < 0 || !report)
		return 1;
	load_host();
	if (host.init(conf, log, 1, err, sizeof(err)) != 0 ||
	    host.start_nodestate(plugin, err, sizeof(err)) != 0) {
		fprintf(report, "FAIL %s\n", err);
		fclose(report);
		return 1;
	}
	fprintf(report, "READY responder=%d\n", tofa_responder_running());
	fclose(report);
	while (read(fd, buf, sizeof(buf)) > 0)
		; /* "STOP" or EOF */
	host.stop_nodestate();
	return tofa_responder_running() ? 1 : 0;
}

struct child {
	const char *name;
	pid_t pid;
	int fd;
};

static void spawn_nodestate(struct child *c, const char *self)
{
	int sv[2];
	char fd_text[16];
	char *reply = NULL;
	size_t cap = 0;
	FILE *in;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		die("socketpair: %s", strerror(errno));
	c->pid = fork();
	if (c->pid < 0)
		die("fork: %s", strerror(errno));
	if (c->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		close(sv[0]);
		snprintf(fd_text, sizeof(fd_text), "%d", sv[1]);
		execl(self, self, "-D", "-N", c->name, "--nodestate-child", fd_text,
		      "--host", host_path, "--plugins", plugin_dir, "--dir", work_dir,
		      (char *) NULL);
		_exit(127);
	}
	close(sv[1]);
	c->fd = sv[0];
	/* The reply, within 30 s. */
	struct pollfd p = { c->fd, POLLIN, 0 };
	if (poll(&p, 1, 30000) != 1)
		die("%s: the nodestate child sent nothing within 30 s", c->name);
	in = fdopen(dup(c->fd), "r");
	if (!in || getline(&reply, &cap, in) < 0)
		die("%s: the nodestate child died before reporting (see %s/log/%s.log)",
		    c->name, work_dir, c->name);
	fclose(in);
	reply[strcspn(reply, "\n")] = '\0';
	check(!strcmp(reply, "READY responder=1"),
	      "%s: tofa_nodestate.so started in a process with \"-D -N %s\" (%s)",
	      c->name, c->name, reply);
	free(reply);
}

static bool stop_child(struct child *c)
{
	int status = -1;

	if (c->pid <= 0)
		return true;
	close(c->fd);
	for (int i = 0; i < 100; i++) {
		if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
			c->pid = 0;
			return WIFEXITED(status) && WEXITSTATUS(status) == 0;
		}
		sleep_s(0.1);
	}
	kill(c->pid, SIGKILL);
	waitpid(c->pid, &status, 0);
	c->pid = 0;
	return false;
}

static double outage(const char *node)
{
	char err[1024];
	double p = -1;

	if (tofa_service_node_outage(node, &p, err, sizeof(err)) != TOFA_OK) {
		printf("# tofa_service_node_outage(%s): %s\n", node, err);
		return -1;
	}
	return p;
}

static int run(const char *self)
{
	char err[4096], text[8192];
	char *etc = path_in(work_dir, "etc"), *conf = path_in(work_dir, "etc/slurm.conf");
	char *tofa_conf = path_in(work_dir, "etc/tofa.conf");
	char *good = path_in(work_dir, "good.mat"), *bad = path_in(work_dir, "bad.mat");
	char *log = path_in(work_dir, "log/host.log");
	char *ctld_so = path_in(plugin_dir, "slurmctld_tofa.so");
	char *loadmatrix_so = path_in(plugin_dir, "tofa_loadmatrix.so");
	char *nodestate_so = path_in(plugin_dir, "tofa_nodestate.so");
	char *munge_socket, *graph_id = NULL, *pids;
	int ports[NODES + 1], service_port, tasks = 0, rc;
	struct child children[2] = { { "node1", 0, -1 }, { "node2", 0, -1 } };
	FILE *f;
	size_t n;

	srandom((unsigned) getpid() ^ (unsigned) time(NULL));
	umask(022);
	for (const char *sub = ""; sub; sub = !*sub ? "etc" : !strcmp(sub, "etc") ? "state" :
	     !strcmp(sub, "state") ? "log" : !strcmp(sub, "log") ? "spool" : NULL) {
		char *d = path_in(work_dir, sub);
		if (mkdir(d, 0755) != 0 && errno != EEXIST)
			die("mkdir %s: %s", d, strerror(errno));
		chmod(d, 0755);
		free(d);
	}
	munge_socket = start_munged();
	check(true, "private munged answers on %s", munge_socket);

	for (int i = 0; i < NODES; i++)
		ports[i] = pick_port(ports, i);
	service_port = pick_port(ports, NODES);
	ports[NODES] = service_port;

	n = (size_t) snprintf(text, sizeof(text),
		"# Written by plugin_host_driver (tests/harness).\n"
		"ClusterName=harness\n"
		"SlurmctldHost=localhost\n"
		"SlurmUser=root\n"
		"SlurmdUser=root\n"
		"AuthType=auth/munge\n"
		"CredType=cred/munge\n"
		"AuthInfo=socket=%s\n"
		"StateSaveLocation=%s/state\n"
		"SlurmdSpoolDir=%s/spool/%%n\n"
		"ProctrackType=proctrack/linuxproc\n"
		"TaskPlugin=task/none\n"
		"SelectType=select/cons_tres\n",
		munge_socket, work_dir, work_dir);
	for (int i = 0; i < NODES; i++)
		n += (size_t) snprintf(text + n, sizeof(text) - n,
			"NodeName=node%d NodeAddr=127.0.0.1 Port=%d CPUs=1 State=UNKNOWN\n",
			i + 1, ports[i]);
	snprintf(text + n, sizeof(text) - n,
		 "PartitionName=main Nodes=node[1-%d] Default=YES State=UP\n", NODES);
	write_file(conf, text);
	snprintf(text, sizeof(text),
		 "# Written by plugin_host_driver (tests/harness).\n"
		 "Dims=2x2 Wrap=yes CoresPerNode=1\n"
		 "NodeName=node[1-4]\n"
		 "ServiceHost=127.0.0.1\n"
		 "ServicePort=%d\n"
		 "HeartbeatInterval=0.2\n"
		 "HeartbeatTimeout=0.5\n"
		 "HeartbeatPortOffset=%d\n"
		 "OutageModel=window:20\n"
		 "%s%s%s",
		 service_port, PORT_OFFSET, map_worker ? "MapWorker=" : "",
		 map_worker ? map_worker : "", map_worker ? "\n" : "");
	write_file(tofa_conf, text);
	write_file(good, "# 4 tasks, a ring\n4\n0 5 0 5\n5 0 5 0\n0 5 0 5\n5 0 5 0\n");
	write_file(bad, "4\n0 5 0 5\n5 0 x 0\n0 5 0 5\n5 0 5 0\n");
	printf("# work dir %s: slurm.conf node ports %d %d %d %d, service port %d\n", work_dir,
	       ports[0], ports[1], ports[2], ports[3], service_port);

	/* The parent: host first (RTLD_GLOBAL), then Slurm's conf and log. */
	load_host();
	printf("# host module %s, Slurm %s\n", host_path, host.slurm_version());
	rc = host.init(conf, log, 1, err, sizeof(err));
	check(rc == 0, "tofa_host_init(%s)%s%s", conf, rc ? ": " : "", rc ? err : "");

	/* 1. the slurmd side, before the service, so that the first round of
	 * heartbeats finds both responders. */
	for (int i = 0; i < 2; i++)
		spawn_nodestate(&children[i], self);
	if (asprintf(&pids, "%s/children.pid", work_dir) >= 0 && (f = fopen(pids, "w"))) {
		fprintf(f, "%d\n%d\n", children[0].pid, children[1].pid);
		fclose(f);
	}

	/* 2. the slurmctld side */
	rc = host.start_ctld(ctld_so, err, sizeof(err));
	check(rc == 0, "start slurmctld_tofa.so%s%s", rc ? ": " : "", rc ? err : "");
	double until = now() + 15;
	while (!tofa_service_running() && now() < until)
		sleep_s(0.1);
	check(tofa_service_running() == 1, "tofa_service_running() == 1 after init() (port %d)",
	      tofa_service_port());

	/* 3. heartbeats: let both nodes answer a few rounds */
	sleep_s(2.0);
	double p1 = outage("node1"), p2 = outage("node2"), p3 = outage("node3");
	check(p1 == 0 && p2 == 0, "both responders answer: node1 %.3f, node2 %.3f", p1, p2);
	check(stop_child(&children[1]), "node2: slurm_spank_slurmd_exit stopped its responder");
	until = now() + 10;
	bool node1_zero = true;
	while (now() < until) {
		p1 = outage("node1");
		p2 = outage("node2");
		if (p1 != 0)
			node1_zero = false;
		if (p2 > 0 && now() > until - 8)
			break; /* at least 2 s (10 rounds) of node1 watched */
		sleep_s(0.2);
	}
	p3 = outage("node3");
	check(p2 > 0, "node2 without responder: outage probability climbs above 0 (%.3f)", p2);
	check(node1_zero && p1 == 0, "node1 with responder: outage probability stays 0 (%.3f)",
	      p1);
	printf("# node3 never answered: %.3f (misses before a first answer are not counted)\n",
	       p3);

	/* 4. srun --tofa-matrix through tofa_loadmatrix.so */
	rc = host.upload_matrix(loadmatrix_so, good, &graph_id, err, sizeof(err));
	check(rc == 0 && graph_id, "tofa_loadmatrix.so --tofa-matrix=%s -> TOFA_GRAPH_ID %s%s%s",
	      good, graph_id ? graph_id : "(none)", rc ? ": " : "", rc ? err : "");
	if (graph_id) {
		err[0] = '\0';
		rc = tofa_service_graph_info(graph_id, 0, &tasks, err, sizeof(err));
		check(rc == TOFA_OK && tasks == 4,
		      "tofa_service_graph_info(%s): %d tasks (want 4)%s%s", graph_id, tasks,
		      err[0] ? ": " : "", err);
		check(getenv("TOFA_TASKS") && !strcmp(getenv("TOFA_TASKS"), "4"),
		      "the plugin exported TOFA_TASKS=%s", getenv("TOFA_TASKS") ?
		      getenv("TOFA_TASKS") : "(unset)");
		/* The caller drives the service directly from here on. */
		char *placement = NULL;
		err[0] = '\0';
		rc = tofa_service_choose_nodes(1, 0, graph_id, "node1:2,node3:2,node4:2", 0, 0,
					       &placement, err, sizeof(err));
		int commas = 0;
		for (const char *c = placement ? placement : ""; *c; c++)
			commas += *c == ',';
		check(rc == TOFA_OK && placement && commas == 3 && !strstr(placement, "node2"),
		      "tofa_service_choose_nodes(job 1, %s, candidates node1:2,node3:2,node4:2): %s%s",
		      graph_id, placement ? placement : "(none)", err);
		free(placement);
	}
	free(graph_id);
	graph_id = NULL;

	/* 5. errors */
	err[0] = '\0';
	rc = host.upload_matrix(loadmatrix_so, bad, &graph_id, err, sizeof(err));
	check(rc != 0 && !graph_id && strstr(err, "bad.mat:3:"),
	      "malformed matrix refused, naming file and line: %s", err);
	err[0] = '\0';
	rc = host.upload_matrix("/nonexistent/tofa_loadmatrix.so", good, &graph_id, err,
				sizeof(err));
	check(rc != 0 && strstr(err, "/nonexistent/tofa_loadmatrix.so"),
	      "missing plugin object named: %s", err);
	err[0] = '\0';
	rc = host.upload_matrix(ctld_so, good, &graph_id, err, sizeof(err));
	check(rc != 0 && strstr(err, "plugin_type"), "plugin of the wrong type refused: %s", err);
	err[0] = '\0';
	rc = host.start_nodestate(nodestate_so, err, sizeof(err));
	check(rc != 0 && err[0],
	      "tofa_nodestate.so in a process without -N: refused: %s", err);
	check(tofa_service_running() == 1, "the service still runs after the errors");

	/* 6. stop */
	host.stop_ctld();
	check(tofa_service_running() == 0, "fini(): the service stopped");
	check(stop_child(&children[0]), "node1: responder stopped, child exited 0");
	(void) etc;
	(void) p3;
	printf("# %d failure(s); logs in %s/log\n", failures, work_dir);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *child_name = NULL;
	int child_fd = -1;

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "-D"))
			continue;
		else if (!strcmp(argv[i], "-N") && v)
			child_name = argv[++i];
		else if (!strcmp(argv[i], "--nodestate-child") && v)
			child_fd = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--host") && v)
			host_path = argv[++i];
		else if (!strcmp(argv[i], "--plugins") && v)
			plugin_dir = argv[++i];
		else if (!strcmp(argv[i], "--munged") && v)
			munged_script = argv[++i];
		else if (!strcmp(argv[i], "--dir") && v)
			work_dir = argv[++i];
		else if (!strcmp(argv[i], "--map-worker") && v)
			map_worker = argv[++i];
		else {
			fprintf(stderr, "usage: %s --host MODULE --plugins DIR --munged SCRIPT --dir WORKDIR\n",
				argv[0]);
			return 2;
		}
	}
	if (!host_path || !plugin_dir || !work_dir || (child_fd < 0 && !munged_script)) {
		fprintf(stderr, "usage: %s --host MODULE --plugins DIR --munged SCRIPT --dir WORKDIR\n",
			argv[0]);
		return 2;
	}
	if (child_fd >= 0)
		return nodestate_child(child_name ? child_name : "", child_fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
	return run("/proc/self/exe");
}
