// SPDX-License-Identifier: Apache-2.0
/*
 * A process with many supplementary groups has a long
 * "Groups:" line in /proc/self/status, and its "Seccomp:" line lies past
 * the first 4 KiB.  A child takes NGROUPS groups (setgroups(): root only),
 * checks that its status shows the case, and runs one 16 KiB AES-256-GCM
 * message through eip93 (hooks build, fake engine, gate opened by the hook
 * variables): the message must go to the engine, none be counted as
 * seccomp.  Exit 77 (skipped) where setgroups() is not permitted.
 *
 * usage: seccomp_groups [NGROUPS]   (default 700)
 */
#include <errno.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "../unit/check.h"

static uint64_t counter(OSSL_PROVIDER *p, const char *name)
{
	uint64_t v = UINT64_MAX;
	OSSL_PARAM q[2] = { OSSL_PARAM_uint64(name, &v), OSSL_PARAM_END };

	return OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]) ? v : UINT64_MAX;
}

/* The offset of the "Seccomp:" line in this process's status, or -1. */
static long seccomp_offset(void)
{
	static char buf[1 << 16];
	FILE *f = fopen("/proc/self/status", "r");
	size_t n;
	const char *at;

	if (f == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	at = strstr(buf, "\nSeccomp:");
	return at != NULL ? (long)(at - buf) + 1 : -1;
}

static int child(unsigned int ngroups)
{
	static gid_t groups[4096];
	static unsigned char buf[16384];
	unsigned char key[32] = { 7 }, iv[12] = { 9 }, tag[16];
	OSSL_PROVIDER *prov, *def;
	EVP_CIPHER *c;
	EVP_CIPHER_CTX *x;
	uint64_t e0, s0, e1, s1;
	long off;
	int n = 0, f = 0;

	for (unsigned int i = 0; i < ngroups; i++)
		groups[i] = (gid_t)(100000 + i);
	if (setgroups(ngroups, groups) != 0) {
		fprintf(stderr, "seccomp_groups: setgroups(%u): %s\n", ngroups, strerror(errno));
		return errno == EPERM ? 77 : 1;
	}
	off = seccomp_offset();
	printf("%u supplementary groups: \"Seccomp:\" at offset %ld of /proc/self/status\n",
	       ngroups, off);
	CHECK(off > 4096); /* else this test does not show the case */
	def = OSSL_PROVIDER_load(NULL, "default");
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	c = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=eip93");
	CHECK(def != NULL && prov != NULL && c != NULL);
	if (prov == NULL || c == NULL)
		return check_done("seccomp_groups");
	e0 = counter(prov, "eip93-engine-messages");
	s0 = counter(prov, "eip93-software-messages-seccomp");
	x = EVP_CIPHER_CTX_new();
	CHECK(x != NULL && EVP_EncryptInit_ex2(x, c, key, iv, NULL) &&
	      EVP_EncryptUpdate(x, buf, &n, buf, (int)sizeof(buf)) &&
	      EVP_EncryptFinal_ex(x, buf + n, &f) &&
	      EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0);
	e1 = counter(prov, "eip93-engine-messages");
	s1 = counter(prov, "eip93-software-messages-seccomp");
	printf("engine messages +%llu, software-seccomp +%llu\n", (unsigned long long)(e1 - e0),
	       (unsigned long long)(s1 - s0));
	CHECK(e0 != UINT64_MAX && s0 != UINT64_MAX);
	CHECK_EQ_INT(e1 - e0, 1);
	CHECK_EQ_INT(s1 - s0, 0);
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	OSSL_PROVIDER_unload(prov);
	OSSL_PROVIDER_unload(def);
	return check_done("seccomp_groups");
}

int main(int argc, char **argv)
{
	unsigned long ngroups = argc > 1 ? strtoul(argv[1], NULL, 10) : 700;
	int status;
	pid_t pid;

	if (ngroups == 0 || ngroups > 4096) {
		fprintf(stderr, "usage: seccomp_groups [NGROUPS 1..4096]\n");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		status = child((unsigned int)ngroups);
		fflush(stdout);
		_exit(status);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		fprintf(stderr, "seccomp_groups: the child did not exit normally\n");
		return 1;
	}
	return WEXITSTATUS(status);
}
