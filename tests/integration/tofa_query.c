/*
 * tofa_query - sends one raw request to the TOFA service and prints the reply
 * (a test helper for tofa_cluster.sh; tofactl is the user-facing tool).
 *
 *   tofa_query TOFA_CONF HOST MUNGE_SOCKET 'VERB key=value ...'
 *
 * Exit status 0 on an "OK" reply, 1 otherwise (the reason on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi/tofa_service.h"

int main(int argc, char **argv)
{
	char err[1024];
	char *reply = NULL;

	if (argc != 5) {
		fprintf(stderr, "usage: %s TOFA_CONF HOST MUNGE_SOCKET REQUEST\n", argv[0]);
		return 2;
	}
	if (tofa_client_request(argv[1], argv[2], argv[3], argv[4], strlen(argv[4]), &reply,
				err, sizeof(err)) != TOFA_OK) {
		fprintf(stderr, "tofa_query: %s\n", err);
		return 1;
	}
	fputs(reply, stdout);
	if (reply[0] && reply[strlen(reply) - 1] != '\n')
		fputc('\n', stdout);
	free(reply);
	return 0;
}
