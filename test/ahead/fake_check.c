// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-fake-ahead-check: the fake engine's keystream ahead (engine/fake_ahead.c)
 * at its interface, linked with the fake directly: asynchronous (a start
 * computes nothing, -EBUSY while one is outstanding), the keystream right
 * (against the default provider's AES-CTR of zeros), a wait returns the
 * buffer once (then -ENOENT), a forked child's wait -ENOENT and its copy of
 * the buffer zero, the plan at site=ahead (keystream, skip: the block stays
 * zero, errno at the wait) and at site=seal, the page phases, eager mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "engine/engine.h"
#include "engine/fake.h"

extern const struct eip93_engine_ops eip93_engine_fake;

static int fails;

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                        \
			fails++;                                                                   \
		}                                                                                  \
	} while (0)

static const unsigned char key[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* The AES-128-CTR of @len zeros from @cb, by the default provider. */
static void expect(const unsigned char *cb, unsigned char *out, size_t len)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	unsigned char *z = calloc(1, len);
	int n = 0;

	if (c == NULL || z == NULL || !EVP_EncryptInit_ex2(c, EVP_aes_128_ctr(), key, cb, NULL) ||
	    !EVP_EncryptUpdate(c, out, &n, z, (int)len))
		memset(out, 0xee, len);
	EVP_CIPHER_CTX_free(c);
	free(z);
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

static void plan(const char *s)
{
	struct eip93_fake_plan p;

	if (s == NULL) {
		eip93_fake_set_plan(NULL);
		return;
	}
	CHECK(eip93_fake_parse(s, &p) == 0);
	eip93_fake_set_plan(&p);
}

int main(void)
{
	const struct eip93_engine_ops *o = &eip93_engine_fake;
	struct eip93_engine_cfg cfg = { "ctr(aes-eip93)", 64, 1000, NULL };
	struct eip93_engine_key k, g;
	struct eip93_engine_pages pg = { 0 };
	struct eip93_fake_stats st;
	unsigned char cb[16] = { 0xca, 0xfe, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 2 };
	unsigned char *ks = NULL, want[4096];
	const size_t len = sizeof(want);
	char spec[96];
	pid_t pid;
	int status = 0;

	eip93_engine_key_init(&k);
	eip93_engine_key_init(&g);
	plan(NULL);
	expect(cb, want, len);
	if (o->ahead_start == NULL || o->ahead_wait == NULL || o->ahead_drop == NULL) {
		printf("FAIL: the fake has no keystream ahead\n");
		return 1;
	}
	CHECK(o->ahead_start(&k, cb, len, 1) == -EBADF);
	CHECK(o->key_open(&k, &cfg, key, sizeof(key)) == 0);
	cfg.kalg = "gcm_base(ctr(aes-eip93),ghash-generic)";
	CHECK(o->key_open(&g, &cfg, key, sizeof(key)) == 0);
	CHECK(o->ahead_start(&g, cb, len, 1) == -EINVAL); /* an AEAD key */
	o->key_close(&g);
	CHECK(o->ahead_wait(&k, &ks, &pg) == -ENOENT && ks == NULL);
	CHECK(o->ahead_start(&k, cb, 17, 1) == -EINVAL);
	CHECK(o->ahead_start(&k, cb, EIP93_AHEAD_MAX + 16, 1) == -EINVAL);

	/* Asynchronous: the start computes nothing; one outstanding. */
	CHECK(o->ahead_start(&k, cb, len, 1) == 0);
	eip93_fake_get_stats(&st);
	CHECK(st.aheads == 1 && st.ctrs == 0);
	CHECK(o->ahead_start(&k, cb, len, 1) == -EBUSY);
	CHECK(o->ahead_wait(&k, &ks, &pg) == 0 && ks != NULL);
	CHECK(ks != NULL && memcmp(ks, want, len) == 0);
	CHECK(pg.n == 1 && pg.q[0] == 0); /* a kernel buffer from 0; the buffer, page aligned */
	eip93_fake_get_stats(&st);
	CHECK(st.ctrs == 1);
	CHECK(o->ahead_wait(&k, &ks, NULL) == -ENOENT); /* returned once */

	/* The next start cleanses; a dropped request is never computed. */
	CHECK(o->ahead_start(&k, cb, 64, 0) == 0);
	o->ahead_drop(&k);
	o->ahead_drop(&k);
	CHECK(o->ahead_wait(&k, &ks, NULL) == -ENOENT);
	eip93_fake_get_stats(&st);
	CHECK(st.ctrs == 1 && st.aheads == 2);

	/* A forked child: -ENOENT, and its copy of the buffer holds nothing. */
	CHECK(o->ahead_start(&k, cb, len, 1) == 0);
	CHECK(o->ahead_wait(&k, &ks, NULL) == 0);
	CHECK(o->ahead_start(&k, cb, len, 1) == 0);
	pid = fork();
	if (pid == 0) {
		unsigned char *cks = NULL;
		int bad = o->ahead_wait(&k, &cks, NULL) != -ENOENT || !all_zero(ks, len);

		bad |= o->ahead_start(&k, cb, len, 1) != 0; /* the child's own */
		bad |= o->ahead_wait(&k, &cks, NULL) != 0 || cks == NULL ||
		       memcmp(cks, want, len) != 0;
		o->key_close(&k);
		_exit(bad);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	CHECK(o->ahead_wait(&k, &ks, NULL) == 0 && memcmp(ks, want, len) == 0);

	/* The plan at site=ahead: a wrong block; a skipped one stays zero; errno at the wait. */
	plan("site=ahead,kind=keystream,nth=1,block=1,count=1,mask=0x80");
	CHECK(o->ahead_start(&k, cb, len, 1) == 0 && o->ahead_wait(&k, &ks, NULL) == 0);
	CHECK(ks != NULL && ks[16] == (want[16] ^ 0x80) &&
	      memcmp(ks + 17, want + 17, len - 17) == 0 && memcmp(ks, want, 16) == 0);
	plan("site=ahead,kind=skip,nth=1,block=-1,count=1");
	CHECK(o->ahead_start(&k, cb, len, 0) == 0 && o->ahead_wait(&k, &ks, NULL) == 0);
	CHECK(ks != NULL && all_zero(ks + len - 16, 16) && memcmp(ks, want, len - 16) == 0);
	plan("site=ahead,kind=nowrite,nth=1,block=0,count=2");
	CHECK(o->ahead_start(&k, cb, len, 0) == 0 && o->ahead_wait(&k, &ks, NULL) == 0);
	CHECK(ks != NULL && all_zero(ks, 32) && memcmp(ks + 32, want + 32, len - 32) == 0);
	snprintf(spec, sizeof(spec), "site=ahead,kind=errno,err=%d,nth=2",
		 ETIMEDOUT); /* 145 on MIPS */
	plan(spec);
	CHECK(o->ahead_start(&k, cb, len, 1) == 0 && o->ahead_wait(&k, &ks, NULL) == 0);
	CHECK(o->ahead_start(&k, cb, len, 1) == 0);
	CHECK(o->ahead_wait(&k, &ks, NULL) == -ETIMEDOUT && ks == NULL);
	eip93_fake_get_stats(&st);
	CHECK(st.faults == 1);
	/* site=seal counts ahead requests by their direction, site=unseal skips sealing ones. */
	plan("site=unseal,kind=keystream,nth=1,every=1,block=0");
	CHECK(o->ahead_start(&k, cb, len, 1) == 0 && o->ahead_wait(&k, &ks, NULL) == 0);
	CHECK(ks != NULL && memcmp(ks, want, len) == 0);
	plan("site=seal,kind=tagmask,nth=1");
	CHECK(o->ahead_start(&k, cb, len, 1) == 0 && o->ahead_wait(&k, &ks, NULL) == 0);
	CHECK(ks != NULL && ks[0] != want[0] && memcmp(ks + 1, want + 1, len - 1) == 0);

	/* Eager: computed at the start (the plan counts it then), the result at the wait. */
	plan("site=ahead,kind=errno,err=5,nth=1");
	setenv("EIP93_TEST_FAKE_AHEAD", "eager", 1);
	CHECK(o->ahead_start(&k, cb, len, 1) == 0);
	eip93_fake_get_stats(&st);
	CHECK(st.ctrs == 1 && st.faults == 1);
	CHECK(o->ahead_start(&k, cb, len, 1) == -EBUSY);
	CHECK(o->ahead_wait(&k, &ks, NULL) == -EIO);
	CHECK(o->ahead_start(&k, cb, len, 1) == 0);
	CHECK(o->ahead_wait(&k, &ks, NULL) == 0 && memcmp(ks, want, len) == 0);
	unsetenv("EIP93_TEST_FAKE_AHEAD");
	plan(NULL);

	/* Key close drops: a key opened again has nothing outstanding. */
	CHECK(o->ahead_start(&k, cb, len, 1) == 0);
	o->key_close(&k);
	cfg.kalg = "ctr(aes-eip93)";
	CHECK(o->key_open(&k, &cfg, key, sizeof(key)) == 0);
	CHECK(o->ahead_wait(&k, &ks, NULL) == -ENOENT);
	o->key_close(&k);
	eip93_fake_get_stats(&st);
	CHECK(st.open_keys == 0);
	printf("%s: %d failure(s)\n", fails == 0 ? "ok" : "FAIL", fails);
	return fails == 0 ? 0 : 1;
}
