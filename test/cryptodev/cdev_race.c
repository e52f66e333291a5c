// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-cdev-race: provider instances (one library context each) sharing
 * the process's /dev/crypto descriptor, on the user-space stand-in
 * (cdev_shim.c, LD_PRELOAD; hooks build, EIP93_TEST_ENGINE=cryptodev).
 * Every new instance's gate probes /dev/crypto; alone, each binds
 * "enabled: ctr(aes-eip93) via /dev/crypto".
 *
 *   eip93-cdev-race PAIRS CLOSES
 *
 *   pairs   two threads, each a new instance per round, evaluate their
 *           gates at once (after a barrier), PAIRS rounds: 2 * PAIRS probes
 *   closes  one thread opens and frees keys of a long-lived instance in a
 *           loop (each free is that instance's last key close), while the
 *           main thread probes with CLOSES new instances
 *
 * Checks: every gate bound ctr(aes-eip93) via /dev/crypto (none closed,
 * none on another composition), the key loop's messages equal the default
 * provider's, and no /dev/crypto descriptor is left once the instances are
 * gone.  The stand-in reports each unload on stdout: stdout goes to
 * /dev/null, the results to stderr.  Exit status 0 when all passed.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define WANT "enabled: ctr(aes-eip93) via /dev/crypto"
#define MSG 8192

static pthread_barrier_t bar;
static atomic_int stop;
static atomic_long probes, closed, other, keys, wrong_msgs;
static char last_bad[512];
static pthread_mutex_t bad_lock = PTHREAD_MUTEX_INITIALIZER;

/* A new instance's gate, then the instance freed; counts what it bound. */
static void probe_once(int sync)
{
	OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();
	OSSL_PROVIDER *d = OSSL_PROVIDER_load(lc, "default");
	OSSL_PROVIDER *e = OSSL_PROVIDER_load(lc, "eip93");
	char *gate = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_ptr("eip93-gate", &gate, 0),
			    OSSL_PARAM_construct_end() };

	if (sync)
		pthread_barrier_wait(&bar);
	if (e != NULL && !OSSL_PROVIDER_get_params(e, p))
		gate = NULL;
	atomic_fetch_add(&probes, 1);
	if (gate == NULL || strcmp(gate, WANT) != 0) {
		atomic_fetch_add(
			gate == NULL || strncmp(gate, "enabled", 7) != 0 ? &closed : &other, 1);
		pthread_mutex_lock(&bad_lock);
		snprintf(last_bad, sizeof(last_bad), "%s", gate != NULL ? gate : "(no gate)");
		pthread_mutex_unlock(&bad_lock);
	}
	OSSL_PROVIDER_unload(e);
	OSSL_PROVIDER_unload(d);
	OSSL_LIB_CTX_free(lc);
	ERR_clear_error();
}

static void *pair_thread(void *arg)
{
	long rounds = *(const long *)arg;

	for (long i = 0; i < rounds; i++)
		probe_once(1);
	return NULL;
}

/* AES-128-GCM of one message with @c; 1 when it ran. */
static int seal(EVP_CIPHER *c, const unsigned char *in, unsigned char *out, unsigned char *tag)
{
	static const unsigned char key[16] = { 1 }, iv[12] = { 2 };
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n, ok;

	ok = x != NULL && EVP_EncryptInit_ex2(x, c, key, iv, NULL) &&
	     EVP_EncryptUpdate(x, out, &n, in, MSG) && EVP_EncryptFinal_ex(x, out + n, &n) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
	EVP_CIPHER_CTX_free(x); /* the instance's last key closes */
	return ok;
}

/* Keys of one instance opened and freed until told to stop; each message checked. */
static void *key_thread(void *arg)
{
	EVP_CIPHER *hw = arg, *sw = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=default");
	static unsigned char in[MSG], out[MSG], ref[MSG];
	unsigned char tag[16], rtag[16];

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 7);
	if (sw == NULL || !seal(sw, in, ref, rtag)) {
		atomic_fetch_add(&wrong_msgs, 1);
		return NULL;
	}
	while (!atomic_load(&stop)) {
		if (!seal(hw, in, out, tag) || memcmp(out, ref, MSG) != 0 ||
		    memcmp(tag, rtag, 16) != 0)
			atomic_fetch_add(&wrong_msgs, 1);
		atomic_fetch_add(&keys, 1);
	}
	EVP_CIPHER_free(sw);
	return NULL;
}

/* The stand-in's /dev/crypto descriptors open in this process. */
static int cdev_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], target[64];
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		n += strcmp(target, "/memfd:cdev-shim (deleted)") == 0 ||
		     strcmp(target, "/dev/crypto") == 0;
	}
	closedir(d);
	return n;
}

static int result(int ok, const char *what, long a, long b)
{
	fprintf(stderr, "%s - %s (%ld, %ld)\n", ok ? "ok" : "not ok", what, a, b);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? atol(argv[1]) : 2000, closes = argc > 2 ? atol(argv[2]) : 2000;
	OSSL_LIB_CTX *l1;
	OSSL_PROVIDER *d1, *e1;
	EVP_CIPHER *c;
	pthread_t t[2];
	int fail = 0;

	if (freopen("/dev/null", "w", stdout) == NULL)
		return 2;
	/* Two instances probing at once. */
	pthread_barrier_init(&bar, NULL, 2);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, pair_thread, &pairs);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	fail |= result(closed == 0 && other == 0 && probes == 2 * pairs,
		       "pairs: every gate bound " WANT " (closed, other)", (long)closed,
		       (long)other);

	/* Probes while another instance's last key closes, again and again. */
	atomic_store(&probes, 0);
	atomic_store(&closed, 0);
	atomic_store(&other, 0);
	l1 = OSSL_LIB_CTX_new();
	d1 = OSSL_PROVIDER_load(l1, "default");
	e1 = OSSL_PROVIDER_load(l1, "eip93");
	c = EVP_CIPHER_fetch(l1, "AES-128-GCM", "provider=eip93");
	if (d1 == NULL || e1 == NULL || c == NULL) {
		fprintf(stderr, "not ok - instance 1: no eip93 AES-128-GCM\n");
		return 1;
	}
	pthread_create(&t[0], NULL, key_thread, c);
	for (long i = 0; i < closes; i++)
		probe_once(0);
	atomic_store(&stop, 1);
	pthread_join(t[0], NULL);
	fail |= result(closed == 0 && other == 0 && probes == closes,
		       "closes: every gate bound " WANT " (closed, other)", (long)closed,
		       (long)other);
	fail |= result(keys > 0 && wrong_msgs == 0,
		       "closes: the key loop ran, its messages exact (keys, wrong)", (long)keys,
		       (long)wrong_msgs);
	if (closed != 0 || other != 0)
		fprintf(stderr, "  last wrong gate: %s\n", last_bad);
	EVP_CIPHER_free(c);
	OSSL_PROVIDER_unload(e1);
	OSSL_PROVIDER_unload(d1);
	OSSL_LIB_CTX_free(l1);
	fail |= result(cdev_fds() == 0, "no /dev/crypto descriptor left (descriptors, -)",
		       (long)cdev_fds(), 0);
	fprintf(stderr, "%ld probe rounds in all\n", 2 * pairs + closes);
	return fail;
}
