// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-integrity-check: keystream faults that start after the key check
 * (docs/contract.md "Integrity"), in the test guest with the
 * simulated driver's fault knobs.
 *
 *   eip93-integrity-check MODE [MESSAGES] [--expect KALG] [--tag-check N]
 *     MODE: first | last | middle | random | nowrite | edge | tail |
 *           tagmask | tagmask-open
 *     --expect KALG  the composition the provider must have enabled
 *                    (eip93-status "enabled: KALG"), e.g. ctr(aes-eip93) or
 *                    gcm_base(ctr(aes-eip93),ghash-generic); the provider's
 *                    configuration (OPENSSL_CONF's [eip93_sect]) chooses it
 *     --tag-check N  the sampled software tag check the configuration sets
 *                    for a kernel (gcm_base) composition: every message when
 *                    1, else the first messages of each key and 1 in N
 *                    (default 64, the provider's)
 *     --warm W       W more healthy messages per key before the faults start
 *                    (default 0: they start at each key's second message)
 *
 * Six keys are verified on the engine with the driver healthy; then the
 * driver gets the fault (fault_after = 0) and MESSAGES messages (4-32 KiB,
 * encrypt and decrypt, in place and not, TLS 1.3's shape) run round robin
 * over the six contexts, each compared with the default provider (output
 * bytes, and the tag of an encryption).  Printed: messages, engine results
 * the driver faulted, faults the provider caught, wrong outputs released,
 * wrong bytes (payload and tag) released, wrong tags released, and a
 * "table:" line for the suite's table.  Checked for every mode: every wrong
 * output is an uncaught fault (nothing else goes wrong), every caught fault
 * is redone in software, and once a key's fault was caught no later message
 * of that key reaches the driver (the key went to software, or the engine
 * off).  For first, last, nowrite, edge and tail (one bit of the first of
 * the last 16 bytes: with the partial last block most of these lengths
 * have, in the block before it) every faulted result is caught and no wrong
 * byte reaches the caller; random and middle (a single middle block) are
 * caught by sampling: the rate is printed.
 *
 * tagmask (the driver's fault=5: a bit of the request's first block) runs
 * encryptions only, tagmask-open decryptions only.  Under gcm_base the first
 * block is the tag mask E_K(J0): the ciphertext is right and the tag wrong,
 * so only the provider's software tag check can catch an encryption's (a
 * decryption's valid tag is refused by the kernel and must be redone, not
 * refused to the caller); under CTR-only (E_K(J0) is computed in software)
 * the first block is the first payload block.  Checked: CTR-only, or
 * --tag-check 1: everything caught, nothing wrong released; gcm_base with
 * --tag-check N > 1: fewer than MESSAGES / N + 2 wrong tags released and at
 * least one fault caught.  The tag check recomputes the first 4 tags of
 * each key (EIP93_TAG_CHECK_FIRST), so with faults from each key's second
 * message every key's first faulted encryption is checked: that bound is the
 * sampling's only when --warm took the keys past those 4; then (1 in N at
 * random per message) a key releases N - 1 wrong tags on average before its
 * fault is caught, and what is checked is: fewer than 4 * 6 * N wrong tags,
 * at least one fault caught.
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
/* The provider's tag-check when the configuration sets none. */
#define TAG_CHECK_DEFAULT 64

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

/* What one message released that differs from the default provider. */
struct outcome {
	int refused;	    /* a valid message refused (wrong too) */
	size_t wrong_bytes; /* payload and tag bytes that differ */
	int wrong_tag;	    /* an encryption's tag differs */
};

static size_t ndiff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t d = 0;

	for (size_t i = 0; i < n; i++)
		d += a[i] != b[i];
	return d;
}

/*
 * One TLS 1.3-shaped message on @c (eip93: key already set) and on a fresh
 * default context; 1 if output, tag and result are the same, 0 if not (@o
 * says how), -1 on a harness failure.
 */
static int message(struct key *k, int enc, int inplace, size_t len, struct outcome *o)
{
	static unsigned char in[MAXLEN], ref[MAXLEN], out[MAXLEN], buf[MAXLEN];
	unsigned char iv[12], aad[AADLEN], tag[16], rtag[16];
	EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
	int n = 0, f = 0, okr, oke;

	memset(o, 0, sizeof(*o));
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
	if (!oke) {
		o->refused = 1; /* a valid message refused: wrong too */
		return 0;
	}
	o->wrong_bytes = ndiff(inplace ? out : buf, ref, len);
	if (enc) {
		size_t t = ndiff(tag, rtag, 16);

		o->wrong_bytes += t;
		o->wrong_tag = t != 0;
	}
	return o->wrong_bytes == 0;
}

/* dir: -1 both directions at random, 1 encryptions only, 0 decryptions only */
struct mode {
	const char *name;
	int fault, block, systematic, dir;
};

static const struct mode modes[] = {
	{ "first", 1, 0, 1, -1 },   { "last", 1, -1, 1, -1 },	{ "middle", 1, 100, 0, -1 },
	{ "random", 1, -2, 0, -1 }, { "nowrite", 2, 0, 1, -1 }, { "edge", 3, 0, 1, -1 },
	{ "tail", 4, 0, 1, -1 },    { "tagmask", 5, 0, 1, 1 },	{ "tagmask-open", 5, 0, 1, 0 },
};

/*
 * Messages the provider redid in software after the engine's result: failed
 * its integrity check, or (decrypting) a tag the engine refused and software
 * accepted.
 */
static uint64_t redone(void)
{
	return counter("eip93-software-messages-fault") +
	       counter("eip93-software-messages-tag-refused");
}

/* The provider's eip93-status ("enabled: KALG..." when the gate chose KALG). */
static const char *status(void)
{
	const char *s = NULL;
	OSSL_PARAM q[2] = { OSSL_PARAM_utf8_ptr("eip93-status", &s, 0), OSSL_PARAM_END };

	return OSSL_PROVIDER_get_params(prov, q) && s != NULL ? s : "";
}

/* Does @st say the gate enabled exactly @kalg? */
static int enabled_with(const char *st, const char *kalg)
{
	size_t n = strlen(kalg);

	/* strchr() finds the terminator too: the name may end the text. */
	return strncmp(st, "enabled: ", 9) == 0 && strncmp(st + 9, kalg, n) == 0 &&
	       strchr("; ", st[9 + n]) != NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: eip93-integrity-check first|last|middle|random|nowrite|edge|"
			"tail|tagmask|tagmask-open [MESSAGES] [--expect KALG] [--tag-check N]\n");
}

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	const char *expect = NULL;
	struct key keys[KEYS];
	int after_fault[KEYS] = { 0 }, bad = 0, ctr_only, systematic, sampled_tag, argi = 2;
	long nmsg = 400, warm = 0, tag_check = TAG_CHECK_DEFAULT, f0, f1, wrong = 0, refused = 0,
	     wtags = 0, late = 0;
	uint64_t e0, e1, d0, d1, sf0, sf1;
	unsigned long long wbytes = 0;
	char st[256], kalg[128], tc[96], tcn[24];

	for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(argv[1], modes[i].name) == 0)
			m = &modes[i];
	if (argc > 2 && argv[2][0] != '-') {
		nmsg = strtol(argv[2], NULL, 10);
		argi = 3;
	}
	/* Options come in pairs; a lone or unknown one is a usage error. */
	for (; m != NULL && argi < argc; argi += 2) {
		const char *opt = argv[argi], *val = argi + 1 < argc ? argv[argi + 1] : NULL;

		if (val != NULL && strcmp(opt, "--expect") == 0)
			expect = val;
		else if (val != NULL && strcmp(opt, "--tag-check") == 0)
			tag_check = strtol(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--warm") == 0)
			warm = strtol(val, NULL, 10);
		else
			m = NULL;
	}
	if (m == NULL || nmsg <= 0 || tag_check <= 0 || warm < 0 || warm > 1000) {
		usage();
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
	snprintf(st, sizeof(st), "%s", status());
	if (expect != NULL && !enabled_with(st, expect)) {
		printf("not ok - %s: the provider enabled %s (status \"%s\")\n", m->name, expect,
		       st);
		return 1;
	}
	if (strncmp(st, "enabled: ", 9) != 0) {
		printf("not ok - %s: the engine is not enabled (status \"%s\")\n", m->name, st);
		return 1;
	}
	snprintf(kalg, sizeof(kalg), "%.*s", (int)strcspn(st + 9, "; "), st + 9);
	ctr_only = strncmp(kalg, "ctr(", 4) == 0;
	snprintf(tcn, sizeof(tcn), "%ld", tag_check);
	snprintf(tc, sizeof(tc), ", tag-check %s%s", tcn,
		 warm ? ", faults past each key's first tags" : "");
	/*
	 * An encryption's wrong tag mask under a kernel composition is caught
	 * only by the sampled tag check: systematic when every message is
	 * checked.  (A decryption's is refused by the kernel: always caught.)
	 */
	sampled_tag = m->fault == 5 && m->dir == 1 && !ctr_only && tag_check != 1;
	systematic = m->systematic && !sampled_tag;
	/* Healthy driver: six keys pass their check and run 1 + warm messages each. */
	e0 = counter("eip93-engine-messages");
	for (int i = 0; i < KEYS; i++) {
		keys[i].c = EVP_CIPHER_CTX_new();
		fill(keys[i].key, sizeof(keys[i].key));
		if (keys[i].c == NULL ||
		    !EVP_CipherInit_ex2(keys[i].c, c_eip93, keys[i].key, NULL, 1, NULL)) {
			printf("not ok - key %d on the healthy engine\n", i);
			return 1;
		}
		for (long j = 0; j <= warm; j++) {
			struct outcome o;

			if (message(&keys[i], 1, 0, 16384, &o) != 1) {
				printf("not ok - key %d on the healthy engine\n", i);
				return 1;
			}
		}
	}
	if (counter("eip93-engine-messages") - e0 != (uint64_t)(KEYS * (warm + 1))) {
		printf("not ok - the six keys did not run on the engine\n");
		return 1;
	}
	f0 = knob_get("faults");
	e0 = counter("eip93-engine-messages");
	d0 = counter("eip93-engine-faults");
	sf0 = redone();
	if (!knob_set("fault_block", m->block) || !knob_set("fault_after", 0) ||
	    !knob_set("fault", m->fault)) {
		printf("not ok - arming the fault\n");
		return 1;
	}
	for (long i = 0; i < nmsg; i++) {
		size_t len = 4096 + (size_t)(rnd() % (MAXLEN - 4096 + 1));
		int enc = (int)(rnd() & 1), inplace = (int)((rnd() >> 8) & 1), k = (int)(i % KEYS),
		    r;
		long ops0 = knob_get("ops");
		uint64_t c0 = counter("eip93-engine-faults");
		struct outcome o;

		if (m->dir >= 0)
			enc = m->dir;
		r = message(&keys[k], enc, inplace, len, &o);
		if (r < 0) {
			printf("not ok - harness failure at message %ld\n", i);
			return 1;
		}
		/* Once its fault was caught, a key never reaches the driver again. */
		if (after_fault[k] && knob_get("ops") != ops0)
			late++;
		if (counter("eip93-engine-faults") != c0)
			after_fault[k] = 1;
		wrong += r == 0;
		refused += o.refused;
		wbytes += o.wrong_bytes;
		wtags += o.wrong_tag;
	}
	knob_set("fault", 0);
	f1 = knob_get("faults");
	e1 = counter("eip93-engine-messages");
	d1 = counter("eip93-engine-faults");
	sf1 = redone();
	printf("# integrity %s (%s%s): messages %ld, engine results faulted by the driver %ld, "
	       "caught %" PRIu64 " (redone in software %" PRIu64 "), clean engine messages %" PRIu64
	       ", wrong outputs released %ld (valid messages refused %ld), wrong bytes released "
	       "%llu, wrong tags released %ld, driver requests after a key's caught fault %ld\n",
	       m->name, kalg, ctr_only ? "" : tc, nmsg, f1 - f0, d1 - d0, sf1 - sf0, e1 - e0, wrong,
	       refused, wbytes, wtags, late);
	printf("table: %s%s %s %s %ld %" PRIu64 " %llu %ld %ld\n", m->name, warm ? "-late" : "",
	       kalg, ctr_only ? "-" : tcn, f1 - f0, d1 - d0, wbytes, wtags, wrong);
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
	if (late != 0) {
		printf("not ok - %s: %ld messages of a key whose fault was caught reached the "
		       "driver\n",
		       m->name, late);
		bad = 1;
	}
	if (systematic && (wrong != 0 || wbytes != 0 || d1 - d0 != (uint64_t)(f1 - f0))) {
		printf("not ok - %s: every faulted result caught, no wrong byte released\n",
		       m->name);
		bad = 1;
	}
	if (sampled_tag) {
		/*
		 * The sampled tag check: 1 in tag_check messages, each key's first
		 * ones always (faults from its second message: all caught but for
		 * the sampling's share); past those, N - 1 per key on average.
		 */
		long bound = warm ? 4L * KEYS * tag_check : nmsg / tag_check + 2;

		if (wtags >= bound || d1 - d0 == 0) {
			printf("not ok - %s: tag check 1 in %ld: %ld wrong tags released (want "
			       "fewer "
			       "than %ld), %" PRIu64 " caught (want at least 1)\n",
			       m->name, tag_check, wtags, bound, d1 - d0);
			bad = 1;
		}
	}
	if (!bad)
		printf("ok - integrity %s (%s%s): %s\n", m->name, kalg, ctr_only ? "" : tc,
		       systematic    ? "every faulted result caught, 0 wrong bytes released"
		       : sampled_tag ? "wrong tags bounded by the sampled tag check"
				     : "every wrong output is an uncaught single-block fault");
	for (int i = 0; i < KEYS; i++)
		EVP_CIPHER_CTX_free(keys[i].c);
	EVP_CIPHER_free(c_eip93);
	EVP_CIPHER_free(c_dflt);
	return bad;
}
