// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-integrity-check: keystream faults that start after the key check
 * (SPEC "Integrity of every engine message"), in the test guest with the
 * simulated driver's fault knobs.
 *
 *   eip93-integrity-check MODE [MESSAGES]
 *     MODE: first | last | middle | random | nowrite | edge | tail
 *
 * Six keys are verified on the engine with the driver healthy; then the
 * driver gets the fault (fault_after = 0) and MESSAGES messages (4-32 KiB,
 * encrypt and decrypt, in place and not, TLS 1.3's shape) run round robin
 * over the six contexts, each compared with the default provider.  Printed:
 * messages, engine results the driver faulted, faults the provider caught,
 * wrong outputs released.  Checked: every wrong output is an uncaught fault
 * (nothing else goes wrong); for first, last, nowrite, edge and tail (one
 * bit of the first of the last 16 bytes: with the partial last block most
 * of these lengths have, in the block before it) every faulted
 * result is caught and no wrong byte reaches the caller; random and middle
 * (a single middle block) are caught by sampling: the rate is printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define KEYS 6
#define MAXLEN 32768
#define AADLEN 5
#define P "/sys/module/eip93_sim/parameters/"

static OSSL_PROVIDER *prov, *dflt;
static EVP_CIPHER *c_eip93, *c_dflt;

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_uint64(name, &v), OSSL_PARAM_END };

	return OSSL_PROVIDER_get_params(prov, q) ? v : 0;
}

static int knob_set(const char *k, long v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), P "%s", k);
	f = fopen(path, "w");
	if (f == NULL)
		return 0;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok;
}

static long knob_get(const char *k)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), P "%s", k);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static uint64_t rng = 0x1e9e3779b97f4a7cULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void fill(unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)rnd();
}

struct key {
	EVP_CIPHER_CTX *c;
	unsigned char key[32];
};

/*
 * One TLS 1.3-shaped message on @c (eip93: key already set) and on a fresh
 * default context; 1 if output, tag and result are the same, 0 if not, -1 on
 * a harness failure.
 */
static int message(struct key *k, int enc, int inplace, size_t len)
{
	static unsigned char in[MAXLEN], ref[MAXLEN], out[MAXLEN], buf[MAXLEN];
	unsigned char iv[12], aad[AADLEN], tag[16], rtag[16];
	EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
	int n = 0, f = 0, okr, oke;

	fill(iv, sizeof(iv));
	fill(aad, sizeof(aad));
	fill(in, len);
	if (d == NULL)
		return -1;
	if (!enc) {
		/* A valid ciphertext to decrypt: made by the default provider. */
		if (!EVP_EncryptInit_ex2(d, c_dflt, k->key, iv, NULL) ||
		    !EVP_EncryptUpdate(d, NULL, &n, aad, AADLEN) ||
		    !EVP_EncryptUpdate(d, buf, &n, in, (int)len) ||
		    !EVP_EncryptFinal_ex(d, buf, &f) ||
		    EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_GET_TAG, 16, tag) <= 0) {
			EVP_CIPHER_CTX_free(d);
			return -1;
		}
		memcpy(in, buf, len);
		EVP_CIPHER_CTX_reset(d);
	}
	okr = EVP_CipherInit_ex2(d, c_dflt, k->key, iv, enc, NULL) &&
	      (enc || EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0) &&
	      EVP_CipherUpdate(d, NULL, &n, aad, AADLEN) &&
	      EVP_CipherUpdate(d, ref, &n, in, (int)len) && EVP_CipherFinal_ex(d, ref, &f) &&
	      (!enc || EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_GET_TAG, 16, rtag) > 0);
	EVP_CIPHER_CTX_free(d);
	if (!okr)
		return -1;
	memcpy(out, in, len);
	oke = EVP_CipherInit_ex2(k->c, NULL, NULL, iv, enc, NULL) &&
	      (enc || EVP_CIPHER_CTX_ctrl(k->c, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0) &&
	      EVP_CipherUpdate(k->c, NULL, &n, aad, AADLEN) &&
	      EVP_CipherUpdate(k->c, inplace ? out : buf, &n, inplace ? out : in, (int)len) &&
	      EVP_CipherFinal_ex(k->c, buf, &f) &&
	      (!enc || EVP_CIPHER_CTX_ctrl(k->c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0);
	ERR_clear_error();
	if (!oke)
		return 0; /* a valid message refused: wrong too */
	return memcmp(inplace ? out : buf, ref, len) == 0 && (!enc || memcmp(tag, rtag, 16) == 0);
}

struct mode {
	const char *name;
	int fault, block, systematic;
};

static const struct mode modes[] = {
	{ "first", 1, 0, 1 },	{ "last", 1, -1, 1 },	{ "middle", 1, 100, 0 },
	{ "random", 1, -2, 0 }, { "nowrite", 2, 0, 1 }, { "edge", 3, 0, 1 },
	{ "tail", 4, 0, 1 },
};

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	struct key keys[KEYS];
	long nmsg = argc > 2 ? strtol(argv[2], NULL, 10) : 400, f0, f1, wrong = 0;
	uint64_t e0, e1, d0, d1, sf0, sf1;
	int bad = 0;

	for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(argv[1], modes[i].name) == 0)
			m = &modes[i];
	if (m == NULL || nmsg <= 0) {
		fprintf(stderr,
			"usage: eip93-integrity-check first|last|middle|random|nowrite|edge|tail "
			"[MESSAGES]\n");
		return 2;
	}
	dflt = OSSL_PROVIDER_load(NULL, "default");
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	c_eip93 = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=eip93");
	c_dflt = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=default");
	if (dflt == NULL || prov == NULL || c_eip93 == NULL || c_dflt == NULL ||
	    !knob_set("fault", 0)) {
		printf("not ok - setup (provider, ciphers, driver knobs)\n");
		return 1;
	}
	/* Healthy driver: six keys pass their check and run one message each. */
	e0 = counter("eip93-engine-messages");
	for (int i = 0; i < KEYS; i++) {
		keys[i].c = EVP_CIPHER_CTX_new();
		fill(keys[i].key, sizeof(keys[i].key));
		if (keys[i].c == NULL ||
		    !EVP_CipherInit_ex2(keys[i].c, c_eip93, keys[i].key, NULL, 1, NULL) ||
		    message(&keys[i], 1, 0, 16384) != 1) {
			printf("not ok - key %d on the healthy engine\n", i);
			return 1;
		}
	}
	if (counter("eip93-engine-messages") - e0 != KEYS) {
		printf("not ok - the six keys did not run on the engine\n");
		return 1;
	}
	f0 = knob_get("faults");
	e0 = counter("eip93-engine-messages");
	d0 = counter("eip93-engine-faults");
	sf0 = counter("eip93-software-messages-fault");
	if (!knob_set("fault_block", m->block) || !knob_set("fault_after", 0) ||
	    !knob_set("fault", m->fault)) {
		printf("not ok - arming the fault\n");
		return 1;
	}
	for (long i = 0; i < nmsg; i++) {
		size_t len = 4096 + (size_t)(rnd() % (MAXLEN - 4096 + 1));
		int r = message(&keys[i % KEYS], (int)(rnd() & 1), (int)((rnd() >> 8) & 1), len);

		if (r < 0) {
			printf("not ok - harness failure at message %ld\n", i);
			return 1;
		}
		wrong += r == 0;
	}
	knob_set("fault", 0);
	f1 = knob_get("faults");
	e1 = counter("eip93-engine-messages");
	d1 = counter("eip93-engine-faults");
	sf1 = counter("eip93-software-messages-fault");
	printf("# integrity %s: messages %ld, engine results faulted by the driver %ld, caught "
	       "%" PRIu64 " (redone in software %" PRIu64 "), clean engine messages %" PRIu64
	       ", wrong outputs released %ld\n",
	       m->name, nmsg, f1 - f0, d1 - d0, sf1 - sf0, e1 - e0, wrong);
	if (f1 - f0 > 0)
		printf("measure: integrity %s: detection rate %.1f%% (%" PRIu64 " of %ld faulted "
		       "results)\n",
		       m->name, 100.0 * (double)(d1 - d0) / (double)(f1 - f0), d1 - d0, f1 - f0);
	if (f1 - f0 <= 0) {
		printf("not ok - %s: the driver faulted nothing\n", m->name);
		bad = 1;
	}
	if (d1 - d0 != sf1 - sf0) {
		printf("not ok - %s: every caught fault is redone in software\n", m->name);
		bad = 1;
	}
	if ((uint64_t)wrong != (uint64_t)(f1 - f0) - (d1 - d0)) {
		printf("not ok - %s: wrong outputs %ld are exactly the uncaught faults %" PRIu64
		       "\n",
		       m->name, wrong, (uint64_t)(f1 - f0) - (d1 - d0));
		bad = 1;
	}
	if (m->systematic && (wrong != 0 || d1 - d0 != (uint64_t)(f1 - f0))) {
		printf("not ok - %s: every faulted result caught, no wrong byte released\n",
		       m->name);
		bad = 1;
	}
	if (!bad)
		printf("ok - integrity %s: %s\n", m->name,
		       m->systematic ? "every faulted result caught, 0 wrong bytes released"
				     : "every wrong output is an uncaught single-block fault");
	for (int i = 0; i < KEYS; i++)
		EVP_CIPHER_CTX_free(keys[i].c);
	EVP_CIPHER_free(c_eip93);
	EVP_CIPHER_free(c_dflt);
	return bad;
}
