// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-counters.so: preloaded (LD_PRELOAD) into a TLS program that cannot
 * be asked for its provider's counters (openssl s_server/s_client, nginx's
 * workers), it writes them when the process exits: one line to
 * $EIP93_COUNTERS_DIR/<pid> (the variable as it was when the program
 * started: a process without it writes nothing),
 *   <comm> engine-messages N engine-bytes N software-messages N
 *   software-tls N software-size N key-checks-passed N key-checks-failed N
 *   engine-errors N engine-faults N keystream-ahead-used N
 *   keystream-ahead-dropped N
 * or "<comm> no-eip93" when no provider named eip93 is active in the default
 * library context.  The handler is registered after libcrypto's own
 * OPENSSL_cleanup() (OPENSSL_init_crypto() first), so it runs before it:
 * atexit handlers run in reverse order (registered before it, it would run
 * after the cleanup and crash).  A process killed by a signal
 * without exit() (SIGKILL, s_server's default SIGTERM) writes nothing.
 * Linked against whichever libcrypto.so.3 the build has; it calls only
 * functions of 3.0's API, so it runs under OpenSSL 3.5's library as well.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/provider.h>

static const char *const names[] = {
	"eip93-engine-messages",	 "eip93-engine-bytes",
	"eip93-software-messages",	 "eip93-software-messages-tls",
	"eip93-software-messages-size",	 "eip93-key-checks-passed",
	"eip93-key-checks-failed",	 "eip93-engine-errors",
	"eip93-engine-faults",		 "eip93-keystream-ahead-used",
	"eip93-keystream-ahead-dropped",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

struct found {
	char line[512];
	int seen;
};

static int each(OSSL_PROVIDER *prov, void *arg)
{
	struct found *f = arg;
	uint64_t v[NNAMES] = { 0 };
	OSSL_PARAM q[NNAMES + 1];
	size_t n = strlen(f->line);

	if (strcmp(OSSL_PROVIDER_get0_name(prov), "eip93") != 0)
		return 1;
	for (size_t i = 0; i < NNAMES; i++)
		q[i] = OSSL_PARAM_construct_uint64(names[i], &v[i]);
	q[NNAMES] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov, q))
		return 1;
	f->seen = 1;
	for (size_t i = 0; i < NNAMES && n < sizeof(f->line); i++)
		n += (size_t)snprintf(f->line + n, sizeof(f->line) - n, " %s %llu",
				      names[i] + strlen("eip93-"), (unsigned long long)v[i]);
	return 0;
}

/* Read at load: nginx replaces its workers' environment before they exit. */
static char dir[200];

static void report(void)
{
	char comm[64] = "?", path[512];
	struct found f = { .seen = 0 };
	FILE *c;
	int fd;

	/* 0 once libcrypto has been cleaned up: nothing to ask then (never expected). */
	if (!OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL))
		return;
	c = fopen("/proc/self/comm", "r");
	if (c != NULL) {
		if (fgets(comm, sizeof(comm), c) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(c);
	}
	snprintf(f.line, sizeof(f.line), "%s", comm);
	OSSL_PROVIDER_do_all(NULL, each, &f);
	if (!f.seen)
		snprintf(f.line, sizeof(f.line), "%s no-eip93", comm);
	snprintf(path, sizeof(path), "%s/%ld", dir, (long)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)dprintf(fd, "%s\n", f.line);
	close(fd);
}

__attribute__((constructor)) static void counters_init(void)
{
	const char *d = getenv("EIP93_COUNTERS_DIR");

	if (d == NULL || d[0] == '\0' || strlen(d) >= sizeof(dir))
		return;
	memcpy(dir, d, strlen(d) + 1);
	/*
	 * libcrypto registers OPENSSL_cleanup() with atexit() here (any option
	 * not yet done: with none at all it returns at once); report() then
	 * runs before it.
	 */
	(void)OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
	(void)atexit(report);
}
