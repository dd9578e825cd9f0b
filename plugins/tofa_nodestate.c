/*
 * tofa_nodestate (SPANK) - the heartbeat responder of the TOFA service,
 * inside slurmd (the seed's NodeState plugin).
 *
 * plugstack.conf:  optional tofa_nodestate.so [port=SLURMD_PORT] [bind=ADDR]
 *
 * In slurmd (S_CTX_SLURMD) slurm_spank_init finds the node's name (-N NAME on
 * slurmd's command line, else the short host name) and its slurmd port (port=
 * or slurm.conf), and the responder listens on bind:(port +
 * HeartbeatPortOffset of tofa.conf), within tofa.conf's MaxConnections,
 * MaxConnectionsPerPeer and HeaderTimeout. It answers only heartbeats sealed by
 * SlurmUser. slurm_spank_slurmd_exit stops it.
 *
 * slurm_spank_init runs before slurmd daemonizes (two fork()s, threads do not
 * survive them): with -D the responder starts at once, otherwise fork
 * handlers start it in the daemon process itself (see _after_fork_in_child).
 * Every failure is logged and ignored: slurmd always starts.
 */
#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

#include "capi/tofa_service.h"
#include "common/tofa_glue.h"

SPANK_PLUGIN(tofa_nodestate, 1);

static const char log_prefix[] = "spank/tofa_nodestate";

/* From libslurmfull (slurmd links it): the port of a slurm.conf node. */
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0)
extern uint16_t slurm_conf_get_port(const char *node_name);
#endif

/* What the responder needs, computed in slurm_spank_init. */
static char node_name[256];
static char conf_file[4096]; /* tofa.conf: the responder's connection limits */
static char bind_address[256];
static char munge_socket[1024];
static int listen_port = -1;
static unsigned service_uid;
static bool pending_start = false;
static bool atfork_registered = false;

static void _log(int level, const char *message)
{
	if (level == TOFA_LOG_ERROR)
		slurm_error("%s: %s", log_prefix, message);
	else if (level == TOFA_LOG_INFO)
		slurm_info("%s: %s", log_prefix, message);
	else
		slurm_debug("%s: %s", log_prefix, message);
}

/*
 * slurmd's -N NAME and -D from /proc/self/cmdline (short options as slurmd's
 * getopt string "bcCd:Df:F::GhL:Mn:N:svVZ" reads them, e.g. -DNt3, -N t3).
 */
static void _read_cmdline(char *name, size_t name_size, bool *foreground)
{
	static const char with_value[] = "dfLnN";
	char buf[8192];
	ssize_t len = 0, got;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	name[0] = '\0';
	*foreground = false;
	if (fd < 0)
		return;
	while (len < (ssize_t) sizeof(buf) - 1 &&
	       (got = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += got;
	close(fd);
	buf[len] = '\0';

	char *arg = buf + strlen(buf) + 1; /* skip argv[0] */
	while (arg < buf + len) {
		char *next = arg + strlen(arg) + 1;
		if (!strcmp(arg, "--"))
			break;
		if (arg[0] == '-' && arg[1] && arg[1] != '-') {
			for (char *c = arg + 1; *c; c++) {
				if (*c == 'D')
					*foreground = true;
				if (*c == 'F')
					break; /* optional value glued to it */
				if (!strchr(with_value, *c))
					continue;
				const char *value = c[1] ? c + 1 :
					(next < buf + len ? next : "");
				if (*c == 'N')
					snprintf(name, name_size, "%s", value);
				if (!c[1] && next < buf + len)
					next += strlen(next) + 1;
				break;
			}
		} else if (!strncmp(arg, "--conf", 6) && !strchr(arg, '=') &&
			   next < buf + len) {
			next += strlen(next) + 1; /* --conf X, --conf-server X */
		}
		arg = next;
	}
}

static void _short_hostname(char *name, size_t size)
{
	if (gethostname(name, size) != 0) {
		name[0] = '\0';
		return;
	}
	name[size - 1] = '\0';
	name[strcspn(name, ".")] = '\0';
}

static void _start_responder(void)
{
	char err[1024];

	pending_start = false;
	if (tofa_responder_start(conf_file, node_name, bind_address, listen_port,
				 munge_socket, service_uid, _log, err,
				 sizeof(err)) != TOFA_OK) {
		slurm_error("%s: %s: node %s: %s (heartbeats will go unanswered)",
			    log_prefix, __func__, node_name, err);
		return;
	}
	slurm_info("%s: %s: node %s answers heartbeats on port %d",
		   log_prefix, __func__, node_name, listen_port);
}

/*
 * Daemonizing is fork (A -> B), setsid in B, fork (B -> C), B and A exit.
 * The fork handlers recognise C as the child of a child of the process that
 * ran slurm_spank_init, forked by a session leader; any other child (slurmd
 * forks for job launches, which may also setsid) never starts a responder.
 * A parent may exit before its child's handler runs, so the forking pid is
 * taken in the prepare handler, not from getppid().
 */
static pid_t init_pid = -1;
static pid_t fork_parent = -1;
static int generation = 0;

static void _before_fork(void)
{
	fork_parent = getpid();
}

static void _after_fork_in_child(void)
{
	if (!pending_start)
		return;
	if (generation == 0 && fork_parent == init_pid) {
		generation = 1; /* B (or another child of the initial slurmd) */
		return;
	}
	if (generation == 1 && getsid(0) == fork_parent &&
	    getsid(0) != getpid()) {
		generation = 2; /* C: the daemon */
		_start_responder();
		return;
	}
	pending_start = false; /* some other descendant */
}

static int _parse_args(int ac, char **av, int *port)
{
	for (int i = 0; i < ac; i++) {
		if (!strncmp(av[i], "port=", 5)) {
			char *end;
			long value = strtol(av[i] + 5, &end, 10);
			if (*end || value <= 0 || value > 65535) {
				slurm_error("%s: bad argument '%s': expected port=1..65535",
					    log_prefix, av[i]);
				return -1;
			}
			*port = (int) value;
		} else if (!strncmp(av[i], "bind=", 5)) {
			snprintf(bind_address, sizeof(bind_address), "%s",
				 av[i] + 5);
		} else {
			slurm_error("%s: unknown argument '%s' (expected port= or bind=)",
				    log_prefix, av[i]);
			return -1;
		}
	}
	return 0;
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	char err[1024], offset_text[32];
	char *conf_path;
	bool foreground;
	int slurmd_port = 0;
	long offset;
	(void) sp;

	if (spank_context() != S_CTX_SLURMD)
		return 0;
	bind_address[0] = '\0';
	if (_parse_args(ac, av, &slurmd_port) < 0)
		return 0; /* logged; never keep slurmd from starting */

	_read_cmdline(node_name, sizeof(node_name), &foreground);
	if (!node_name[0])
		_short_hostname(node_name, sizeof(node_name));
	if (!slurmd_port)
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
		slurmd_port = (int) tofa_glue_node_port(node_name);
#else
		slurmd_port = slurm_conf_get_port(node_name);
#endif
	if (slurmd_port <= 0) {
		slurm_error("%s: %s: no slurmd port for node '%s'; set port= in plugstack.conf",
			    log_prefix, __func__, node_name);
		return 0;
	}

	conf_path = tofa_glue_conf_path();
	if (tofa_conf_get(conf_path, "HeartbeatPortOffset", offset_text,
			  sizeof(offset_text), err, sizeof(err)) != TOFA_OK) {
		slurm_error("%s: %s: %s", log_prefix, __func__, err);
		free(conf_path);
		return 0;
	}
	snprintf(conf_file, sizeof(conf_file), "%s", conf_path);
	free(conf_path);
	offset = strtol(offset_text, NULL, 10);
	listen_port = slurmd_port + (int) offset;
	if (listen_port <= 0 || listen_port > 65535) {
		slurm_error("%s: %s: slurmd port %d + HeartbeatPortOffset %ld is not a port",
			    log_prefix, __func__, slurmd_port, offset);
		return 0;
	}
	tofa_glue_munge_socket(munge_socket, sizeof(munge_socket));
	service_uid = tofa_glue_slurm_user();

	/* Slurm 24.11 and 26.05 daemonize slurmd (xdaemon) before they load
	 * SPANK plugins (slurmd.c: main -> xdaemon, then _slurmd_init ->
	 * spank_slurmd_init): this already is the daemon. 22.05 loads them
	 * before it daemonizes. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
	foreground = true;
#endif
	if (foreground) {
		_start_responder();
		return 0;
	}
	pending_start = true;
	init_pid = getpid();
	generation = 0;
	if (!atfork_registered) {
		if (pthread_atfork(_before_fork, NULL, _after_fork_in_child) != 0) {
			slurm_error("%s: %s: pthread_atfork failed; starting now",
				    log_prefix, __func__);
			_start_responder();
			return 0;
		}
		atfork_registered = true;
	}
	slurm_debug("%s: %s: node %s: responder starts once slurmd has daemonized",
		    log_prefix, __func__, node_name);
	return 0;
}

int slurm_spank_slurmd_exit(spank_t sp, int ac, char **av)
{
	(void) sp;
	(void) ac;
	(void) av;
	pending_start = false;
	tofa_responder_stop();
	return 0;
}
