// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-cdev-proc: the /dev/crypto backend seen from an application's
 * process, run in the guest (hooks build, EIP93_TEST_ENGINE=cryptodev,
 * OPENSSL_CONF activating eip93 and default).  Every AES-GCM result is
 * compared with the default provider's; "/dev/crypto descriptors" are the
 * links in /proc/self/fd that name /dev/crypto (or EIP93_TEST_CDEV_LINK:
 * on the host, the user-space stand-in's descriptors, cdev_shim.c).
 *
 *   fork         a parent with an open key forks: the child's messages are
 *                right, through the engine, on a descriptor it opened
 *                itself (none inherited); the parent's key works after
 *   fds N        N keys, a message each: one descriptor while they hold
 *                sessions; none after they are freed, none after the
 *                provider is unloaded
 *   threads T M  T threads, each on a copy of one context (one key),
 *                M messages each with its own IV: all exact
 *   gate TEXT    the gate stays closed and its text contains TEXT; messages
 *                are right (software); no descriptor left open
 *   --uid N      (first) drop to uid/gid N before anything else
 *
 * Prints "ok - ..." / "not ok - ..." lines on stdout only (stderr is the
 * provider's: the script checks it); exit status 0 when all passed.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define MSG 16384 /* eligible for the engine with the default min-size and max-size */
#define MAXT 16

static int failures;
static OSSL_LIB_CTX *lib;
static EVP_CIPHER *hw, *sw;
static unsigned char key[16];

static void result(int ok, const char *what)
{
	printf("%s - [%d] %s\n", ok ? "ok" : "not ok", (int)getpid(), what);
	fflush(stdout);
	if (!ok)
		failures++;
}

static int cdev_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	const char *link = getenv("EIP93_TEST_CDEV_LINK"); /* the host's stand-in names its own */
	char path[300], target[64];
	int n = 0;

	if (link == NULL)
		link = "/dev/crypto";
	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		n += strcmp(target, link) == 0;
	}
	closedir(d);
	return n;
}

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	if (hw == NULL || !OSSL_PROVIDER_get_params(EVP_CIPHER_get0_provider(hw), q))
		return 0;
	return v;
}

static void gate_text(char *out, size_t n)
{
	char *g = NULL;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_utf8_ptr("eip93-gate", &g, 0),
			    OSSL_PARAM_construct_end() };
	OSSL_PROVIDER *p = OSSL_PROVIDER_load(lib, "eip93");

	snprintf(out, n, "(no gate)");
	if (p != NULL && OSSL_PROVIDER_get_params(p, q) && g != NULL)
		snprintf(out, n, "%s", g);
	OSSL_PROVIDER_unload(p);
}

/* One AES-128-GCM seal of MSG bytes on @ctx (initialised with the key) with IV @ivno; 1 if exact. */
static int seal_one(EVP_CIPHER_CTX *ctx, unsigned int ivno)
{
	static unsigned char in[MSG];
	unsigned char iv[12] = { 0 }, out[MSG], ref[MSG], tag[16], rtag[16];
	EVP_CIPHER_CTX *r = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	memcpy(iv, &ivno, sizeof(ivno));
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 7 + 3);
	ok = r != NULL && EVP_EncryptInit_ex2(ctx, NULL, NULL, iv, NULL) &&
	     EVP_EncryptUpdate(ctx, out, &n, in, MSG) && n == MSG &&
	     EVP_EncryptFinal_ex(ctx, out + n, &n) &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) > 0;
	ok = ok && EVP_EncryptInit_ex2(r, sw, key, iv, NULL) &&
	     EVP_EncryptUpdate(r, ref, &n, in, MSG) && EVP_EncryptFinal_ex(r, ref + n, &n) &&
	     EVP_CIPHER_CTX_ctrl(r, EVP_CTRL_GCM_GET_TAG, 16, rtag) > 0;
	EVP_CIPHER_CTX_free(r);
	return ok && memcmp(out, ref, MSG) == 0 && memcmp(tag, rtag, 16) == 0;
}

static EVP_CIPHER_CTX *keyed(unsigned char seed)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	memset(key, seed, sizeof(key));
	if (c != NULL && !EVP_EncryptInit_ex2(c, hw, key, NULL, NULL)) {
		EVP_CIPHER_CTX_free(c);
		c = NULL;
	}
	return c;
}

static void do_fork(void)
{
	EVP_CIPHER_CTX *c = keyed(0x11);
	uint64_t e0 = counter("eip93-engine-messages");
	int st = -1;
	pid_t pid;

	result(c != NULL && seal_one(c, 1), "parent: a message on its key is exact");
	result(counter("eip93-engine-messages") > e0, "parent: it went through the engine");
	result(cdev_fds() == 1, "parent: one /dev/crypto descriptor while its key holds a session");
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		uint64_t c0 = counter("eip93-engine-messages");

		failures = 0;
		result(cdev_fds() == 0, "child: no /dev/crypto descriptor inherited");
		result(seal_one(c, 2) && seal_one(c, 3),
		       "child: messages on the parent's key are exact");
		result(counter("eip93-engine-messages") >= c0 + 2, "child: through the engine");
		result(cdev_fds() == 1, "child: on a /dev/crypto descriptor it opened itself");
		EVP_CIPHER_CTX_free(c);
		result(cdev_fds() == 0, "child: none left once its key is freed");
		fflush(NULL);
		_exit(failures == 0 ? 0 : 1);
	}
	result(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "the child passed");
	e0 = counter("eip93-engine-messages");
	result(seal_one(c, 4), "parent: its key still right after the child");
	result(counter("eip93-engine-messages") > e0, "parent: still through the engine");
	EVP_CIPHER_CTX_free(c);
	result(cdev_fds() == 0, "parent: no descriptor once its key is freed");
}

static void do_fds(int n)
{
	EVP_CIPHER_CTX *c[64];
	uint64_t e0 = counter("eip93-engine-messages");
	int ok = 1;

	if (n < 1 || n > 64)
		n = 64;
	for (int i = 0; i < n; i++) {
		c[i] = keyed((unsigned char)(0x20 + i));
		ok &= c[i] != NULL && seal_one(c[i], (unsigned int)i);
	}
	result(ok, "keys: every message exact");
	result(counter("eip93-engine-messages") >= e0 + (uint64_t)n,
	       "keys: all through the engine");
	result(cdev_fds() == 1, "keys: one /dev/crypto descriptor while they hold sessions");
	for (int i = 0; i < n; i++)
		EVP_CIPHER_CTX_free(c[i]);
	result(cdev_fds() == 0, "keys: none after they are freed");
	c[0] = keyed(0x77);
	result(c[0] != NULL && seal_one(c[0], 9) && cdev_fds() == 1,
	       "one more key: one descriptor");
	EVP_CIPHER_CTX_free(c[0]);
}

struct job {
	EVP_CIPHER_CTX *c;
	unsigned int base, m;
	int ok;
};

static void *worker(void *arg)
{
	struct job *j = arg;

	j->ok = 1;
	for (unsigned int i = 0; i < j->m; i++)
		j->ok &= seal_one(j->c, j->base + i);
	return NULL;
}

static void do_threads(int t, int m)
{
	EVP_CIPHER_CTX *base = keyed(0x5a);
	pthread_t th[MAXT];
	struct job jobs[MAXT];
	uint64_t e0 = counter("eip93-engine-messages");
	int ok = base != NULL, started = 0;

	if (t < 1 || t > MAXT)
		t = MAXT;
	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < t && ok; i++) {
		jobs[i].c = EVP_CIPHER_CTX_new();
		jobs[i].base = (unsigned int)(i * 100000);
		jobs[i].m = (unsigned int)m;
		ok = jobs[i].c != NULL && EVP_CIPHER_CTX_copy(jobs[i].c, base);
	}
	result(ok, "threads: copies of one keyed context");
	while (ok && started < t && pthread_create(&th[started], NULL, worker, &jobs[started]) == 0)
		started++;
	ok = ok && started == t;
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < t; i++) {
		ok &= jobs[i].ok;
		EVP_CIPHER_CTX_free(jobs[i].c);
	}
	result(ok, "threads: every message of every thread exact");
	result(counter("eip93-engine-messages") >= e0 + (uint64_t)(t * m) / 2,
	       "threads: through the engine");
	EVP_CIPHER_CTX_free(base);
	result(cdev_fds() == 0, "threads: no descriptor once the contexts are freed");
}

static void do_gate(const char *want)
{
	char g[1024];
	EVP_CIPHER_CTX *c;

	gate_text(g, sizeof(g));
	printf("# gate: %s\n", g);
	result(strncmp(g, "disabled", 8) == 0, "gate: closed");
	result(strstr(g, want) != NULL, want);
	/* A closed gate offers no cipher: an application gets the default provider's. */
	EVP_CIPHER_free(hw);
	hw = EVP_CIPHER_fetch(lib, "AES-128-GCM", NULL);
	result(hw != NULL && strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(hw)),
				    "default") == 0,
	       "gate: AES-128-GCM comes from the default provider");
	c = hw != NULL ? keyed(0x33) : NULL;
	result(c != NULL && seal_one(c, 5), "gate: messages right (software)");
	EVP_CIPHER_CTX_free(c);
	result(cdev_fds() == 0, "gate: no /dev/crypto descriptor open");
}

int main(int argc, char **argv)
{
	const char *cnf = getenv("OPENSSL_CONF");
	int a = 1;

	if (argc > 2 && strcmp(argv[1], "--uid") == 0) {
		unsigned int id = (unsigned int)strtoul(argv[2], NULL, 10);

		if (setgid(id) != 0 || setuid(id) != 0) {
			printf("not ok - setuid %u\n", id);
			return 1;
		}
		a = 3;
	}
	if (argc <= a) {
		fprintf(stderr,
			"usage: eip93-cdev-proc [--uid N] fork|fds N|threads T M|gate TEXT\n");
		return 2;
	}
	lib = OSSL_LIB_CTX_new();
	if (lib == NULL || cnf == NULL || !OSSL_LIB_CTX_load_config(lib, cnf)) {
		printf("not ok - load %s\n", cnf != NULL ? cnf : "(OPENSSL_CONF unset)");
		ERR_print_errors_fp(stdout);
		return 1;
	}
	sw = EVP_CIPHER_fetch(lib, "AES-128-GCM", "provider=default");
	if (strcmp(argv[a], "gate") != 0)
		hw = EVP_CIPHER_fetch(lib, "AES-128-GCM", "provider=eip93");
	if (sw == NULL || (hw == NULL && strcmp(argv[a], "gate") != 0)) {
		printf("not ok - fetch AES-128-GCM (eip93 offers none: gate closed?)\n");
		return 1;
	}
	if (strcmp(argv[a], "fork") == 0)
		do_fork();
	else if (strcmp(argv[a], "fds") == 0 && argc > a + 1)
		do_fds(atoi(argv[a + 1]));
	else if (strcmp(argv[a], "threads") == 0 && argc > a + 2)
		do_threads(atoi(argv[a + 1]), atoi(argv[a + 2]));
	else if (strcmp(argv[a], "gate") == 0 && argc > a + 1)
		do_gate(argv[a + 1]);
	else
		return 2;
	EVP_CIPHER_free(hw);
	EVP_CIPHER_free(sw);
	OSSL_LIB_CTX_free(lib); /* unloads the providers */
	result(cdev_fds() == 0, "no /dev/crypto descriptor after the provider is unloaded");
	return failures == 0 ? 0 : 1;
}
