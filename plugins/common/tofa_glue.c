/* Shared helpers of the tofa Slurm plugins; see tofa_glue.h. */
#include "slurm_config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h"

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "capi/tofa_service.h"
#include "tofa_glue.h"

extern char *tofa_glue_conf_path(void)
{
	char *xpath = get_extra_conf_path("tofa.conf");
	char *path = strdup(xpath ? xpath : "tofa.conf");

	xfree(xpath);
	return path;
}

extern unsigned tofa_glue_slurm_user(void)
{
	return slurm_conf.slurm_user_id;
}

extern void tofa_glue_munge_socket(char *buf, size_t size)
{
	const char *info = slurm_conf.authinfo;
	const char *at;
	size_t len;

	if (!buf || !size)
		return;
	buf[0] = '\0';
	if (!info || !(at = strstr(info, "socket=")))
		return;
	at += strlen("socket=");
	len = strcspn(at, ",");
	if (len >= size)
		len = size - 1;
	memcpy(buf, at, len);
	buf[len] = '\0';
}

extern void tofa_glue_service_host(const char *conf_path, char *buf, size_t size)
{
	char err[256];

	if (!buf || !size)
		return;
	buf[0] = '\0';
	if (conf_path &&
	    tofa_conf_get(conf_path, "ServiceHost", buf, size, err,
			  sizeof(err)) != TOFA_OK)
		buf[0] = '\0';
	if (buf[0])
		return;
	if (slurm_conf.control_cnt && slurm_conf.control_addr &&
	    slurm_conf.control_addr[0])
		snprintf(buf, size, "%s", slurm_conf.control_addr[0]);
	else if (slurm_conf.control_cnt && slurm_conf.control_machine &&
		 slurm_conf.control_machine[0])
		snprintf(buf, size, "%s", slurm_conf.control_machine[0]);
}

extern unsigned tofa_glue_node_port(const char *name)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
	node_record_t *node_ptr = name ? find_node_record((char *) name) : NULL;

	return node_ptr ? node_ptr->port : 0;
#else
	return name ? slurm_conf_get_port(name) : 0;
#endif
}

extern void tofa_glue_log(int level, const char *message)
{
	if (!message)
		return;
	if (level == TOFA_LOG_ERROR)
		error("tofa: %s", message);
	else if (level == TOFA_LOG_INFO)
		info("tofa: %s", message);
	else
		debug("tofa: %s", message);
}

extern const char *tofa_glue_env_find(char **env, unsigned count, const char *name)
{
	size_t len = strlen(name);

	for (unsigned i = 0; env && i < count; i++) {
		const char *entry = env[i];
		if (!entry)
			continue;
		if (!strncmp(entry, "SPANK_", 6))
			entry += 6;
		if (!strncmp(entry, name, len) && entry[len] == '=')
			return entry + len + 1;
	}
	return NULL;
}

extern bool tofa_glue_command_line_has(const char *prefix, bool whole, bool unreadable)
{
	char buf[16384];
	ssize_t len = 0, got;
	size_t prefix_len = strlen(prefix) + (whole ? 1 : 0);
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return unreadable;
	while (len < (ssize_t) sizeof(buf) - 1 &&
	       (got = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += got;
	close(fd);
	buf[len] = '\0';
	for (char *arg = buf; arg < buf + len; arg += strlen(arg) + 1)
		if (!strncmp(arg, prefix, prefix_len))
			return true;
	return false;
}
