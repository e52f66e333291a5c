// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-skc-integrity-check: the simulated driver's faults against AES-CTR
 * and AES-CBC messages through eip93 (alg/skc/, its integrity check
 * alg/skc/check.c), in the test guest.
 *
 *   eip93-skc-integrity-check MODE KIND [MESSAGES] [--backend ROAD]
 *                             [--keys N] [--in-off N] [--out-off N]
 *                             [--in-place 0|1] [--page K]
 *     MODE: ctr | cbc
 *     KIND: first | last | random | nowrite | edge | tail | head |
 *           src-after | src-before | dst-after | dst-before | skip |
 *           skip-after | skip-before
 *     --backend ROAD  af_alg or cryptodev: the backend the gate must have
 *                     bound (eip93-backend; the configuration chooses it)
 *     --keys N        keys (default 10: more than the 8 faults after which
 *                     the engine is off)
 *     --in-off N, --out-off N
 *                     page offsets (0-4095) of the caller's input and output
 *     --in-place 0|1  every message apart or in place (default: at random)
 *     --page K        the boundary the page kinds fault (default 1)
 *
 * The driver's faults with fault_layout = 1 (every ctr and cbc request, its
 * payload from byte 0): first, last, random (fault=1, fault_block 0, -1,
 * -2), nowrite (2), edge (3), tail (4), head (5: a bit of the request's
 * first block), src-after/-before (6: the byte read after/before source
 * boundary K), dst-after/-before (7: the byte written there), skip (8: a
 * random middle block never written), skip-after/-before (8: the 16 bytes
 * after/before destination boundary K).
 *
 * N keys (key sizes 128, 192, 256 in turn) are verified on the healthy
 * engine with one 16 KiB message each; then the fault is armed
 * (fault_after = 0) and MESSAGES messages (default 40; whole blocks, 4-32
 * KiB, encrypting and decrypting, CBC with and without padding, CTR
 * counters sometimes near a 32-bit wrap) run round robin over the keys,
 * each compared with the default provider's output.  A not-in-place output
 * holds a canary first.  A message is "faulted" when the driver's faults
 * counter moved during it (one message may be several requests: the
 * counter-wrap split, /dev/crypto's bounce pages), "caught" when the
 * provider's eip93-engine-faults did.  Checked: the driver faulted
 * something; every caught message redone in software
 * (eip93-software-messages-fault); every wrong output an uncaught faulted
 * message; no message of a key whose fault was caught reaches the driver;
 * after 8 caught faults the engine is off (eip93-gate adds "engine: 8 wrong
 * results ...; software only for this process") and no
 * message reaches the driver; for the kinds that flip a bit, no plaintext
 * or stale block.  For every kind but random every faulted message is
 * caught, nothing wrong is released, and the engine goes off after 8.
 * random (one middle block, caught by the sampled block or a page window)
 * prints its detection rate.  Prints a "table:" line for the suite.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "../guest/sim.h"

#define P "/sys/module/eip93_sim/parameters/"
#define MAXKEYS 32
#define MAXLEN 32768
#define PAGE 4096
#define BLK 16
#define FEW_BITS 4
#define MAX_FAULTS 8 /* the provider's default: wrong engine results before it is off */

struct kind {
	const char *name;
	int fault, block, page, systematic, flips;
};

static const struct kind kinds[] = {
	{ "first", 1, 0, 0, 1, 1 },	  { "last", 1, -1, 0, 1, 1 },
	{ "random", 1, -2, 0, 0, 1 },	  { "nowrite", 2, 0, 0, 1, 0 },
	{ "edge", 3, 0, 0, 1, 0 },	  { "tail", 4, 0, 0, 1, 1 },
	{ "head", 5, 0, 0, 1, 1 },	  { "src-after", 6, 0, 1, 1, 1 },
	{ "src-before", 6, 0, -1, 1, 1 }, { "dst-after", 7, 0, 1, 1, 1 },
	{ "dst-before", 7, 0, -1, 1, 1 }, { "skip", 8, -2, 0, 1, 0 },
	{ "skip-after", 8, 0, 1, 1, 0 },  { "skip-before", 8, 0, -1, 1, 0 },
};

struct layout {
	size_t in_off, out_off;
	int in_place; /* 1, 0, or -1: at random per message */
};

struct outcome {
	size_t wrong_bytes, plain_blocks, stale_blocks, canary_blocks;
};

static OSSL_PROVIDER *prov;
static EVP_CIPHER *c_eip93[3], *c_dflt[3];
static int cbc;
static uint64_t rng = 0x5eed5eed12345677ULL;
static const unsigned char canary[17] = "eip93 canary :-)";
static _Alignas(PAGE) unsigned char in_area[MAXLEN + 2 * BLK + PAGE];
static _Alignas(PAGE) unsigned char out_area[MAXLEN + 2 * BLK + PAGE];

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

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_uint64(name, &v), OSSL_PARAM_END };

	return OSSL_PROVIDER_get_params(prov, q) ? v : 0;
}

static const char *text(const char *name)
{
	const char *s = NULL;
	OSSL_PARAM q[2] = { OSSL_PARAM_utf8_ptr(name, &s, 0), OSSL_PARAM_END };

	return OSSL_PROVIDER_get_params(prov, q) && s != NULL ? s : "";
}

/* Does the gate's text say the engine went off for the process? */
static int engine_off(const char *gate)
{
	return strstr(gate, " wrong results") != NULL &&
	       strstr(gate, "software only for this process") != NULL;
}

static int knob_set(const char *k, long v)
{
	char path[128];

	snprintf(path, sizeof(path), P "%s", k);
	return sim_write(path, v) == 0;
}

static long knob_get(const char *k)
{
	char path[128];

	snprintf(path, sizeof(path), P "%s", k);
	return (long)sim_read(path);
}

static unsigned int nbits(const unsigned char *a, const unsigned char *b, size_t n)
{
	unsigned int d = 0;

	for (size_t i = 0; i < n; i++)
		for (unsigned int x = (unsigned int)(a[i] ^ b[i]); x; x &= x - 1)
			d++;
	return d;
}

/* The blocks of @got that are the input's, or no few-bit variant of @right. */
static void classify(const unsigned char *got, const unsigned char *right,
		     const unsigned char *input, size_t len, struct outcome *o)
{
	for (size_t off = 0; off < len; off += BLK) {
		size_t n = len - off < BLK ? len - off : BLK;

		if (memcmp(got + off, right + off, n) == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			o->wrong_bytes += got[off + i] != right[off + i];
		if (memcmp(got + off, input + off, n) == 0) {
			o->plain_blocks++;
		} else if (nbits(got + off, right + off, n) > FEW_BITS) {
			o->stale_blocks++;
			o->canary_blocks += memcmp(got + off, canary, n) == 0;
		}
	}
}

/* One whole-block pass (update and final) of @in on @c; the output length, or -1. */
static int run(EVP_CIPHER_CTX *c, const EVP_CIPHER *ciph, const unsigned char *key,
	       const unsigned char *iv, int enc, int pad, unsigned char *out,
	       const unsigned char *in, size_t len)
{
	unsigned int p = (unsigned int)pad;
	OSSL_PARAM prm[2] = { OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, &p), OSSL_PARAM_END };
	int n = 0, f = 0;

	if (!EVP_CipherInit_ex2(c, ciph, key, iv, enc, cbc ? prm : NULL) ||
	    !EVP_CipherUpdate(c, out, &n, in, (int)len) || !EVP_CipherFinal_ex(c, out + n, &f)) {
		ERR_clear_error();
		return -1;
	}
	return n + f;
}

/*
 * One message of @len plaintext bytes on key @ks (its context @c) laid out
 * as @l says; 1 right, 0 wrong (@o says how), -1 a harness failure.
 */
static int message(EVP_CIPHER_CTX *c, int ks, const unsigned char *key, int enc, int inplace,
		   size_t len, const struct layout *l, struct outcome *o)
{
	static unsigned char plain[MAXLEN + BLK], input[MAXLEN + 2 * BLK], ref[MAXLEN + 2 * BLK];
	unsigned char iv[BLK], *src = in_area + l->in_off, *dst;
	int pad = cbc && (rnd() & 1), inl, refl, got, ok;
	EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();

	memset(o, 0, sizeof(*o));
	dst = inplace ? src : out_area + l->out_off;
	fill(iv, sizeof(iv));
	if (!cbc && (rnd() & 7) == 0) { /* a counter whose last 32 bits wrap inside the message */
		memset(iv + 12, 0xff, 3);
		iv[15] = (unsigned char)(0xff - (rnd() & 0x7f));
	}
	fill(plain, len);
	/* The default provider: the input (decrypting: its ciphertext) and the right answer. */
	refl = d == NULL ? -1 : run(d, c_dflt[ks], key, iv, 1, pad, input, plain, len);
	inl = refl;
	if (refl >= 0 && enc) {
		memcpy(ref, input, (size_t)refl);
		memcpy(input, plain, len);
		inl = (int)len;
	} else if (refl >= 0) {
		memcpy(ref, plain, len);
		refl = (int)len;
	}
	EVP_CIPHER_CTX_free(d);
	if (refl < 0)
		return -1;
	memcpy(src, input, (size_t)inl);
	if (!inplace)
		for (size_t i = 0; i < (size_t)inl + BLK; i += BLK)
			memcpy(dst + i, canary, BLK);
	got = run(c, NULL, key, iv, enc, pad, dst, src, (size_t)inl);
	if (got != refl) {
		o->wrong_bytes = (size_t)refl + 1; /* refused, or a wrong length: wrong */
		return 0;
	}
	ok = memcmp(dst, ref, (size_t)refl) == 0;
	if (!ok)
		classify(dst, ref, input, (size_t)refl, o);
	return ok;
}

static int usage(void)
{
	fprintf(stderr, "usage: eip93-skc-integrity-check ctr|cbc KIND [MESSAGES] "
			"[--backend af_alg|cryptodev] [--keys N] [--in-off N] [--out-off N] "
			"[--in-place 0|1] [--page K]\nKIND:");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		fprintf(stderr, " %s", kinds[i].name);
	fputc('\n', stderr);
	return 2;
}

int main(int argc, char **argv)
{
	static const char *const names[2][3] = { { "AES-128-CTR", "AES-192-CTR", "AES-256-CTR" },
						 { "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" } };
	const struct kind *m = NULL;
	const char *backend = NULL, *road, *gate;
	struct layout lay = { 0, 0, -1 };
	EVP_CIPHER_CTX *ctx[MAXKEYS];
	unsigned char keys[MAXKEYS][32];
	int after_fault[MAXKEYS] = { 0 }, argi = 3, bad = 0, off = 0;
	long nmsg = 40, nkeys = 10, page = 1, f0, faulted = 0, caught = 0, wrong = 0, late = 0,
	     after_off = 0, reqs;
	uint64_t e0, d0, s0, dd, sd;
	unsigned long long plain = 0, stale = 0, canaries = 0, wbytes = 0;
	char lays[96], label[40], spec[40];

	if (argc < 3 || (strcmp(argv[1], "ctr") != 0 && strcmp(argv[1], "cbc") != 0))
		return usage();
	cbc = strcmp(argv[1], "cbc") == 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(argv[2], kinds[i].name) == 0)
			m = &kinds[i];
	if (argc > 3 && argv[3][0] != '-') {
		nmsg = strtol(argv[3], NULL, 10);
		argi = 4;
	}
	for (; m != NULL && argi < argc; argi += 2) {
		const char *opt = argv[argi], *val = argi + 1 < argc ? argv[argi + 1] : NULL;

		if (val != NULL && strcmp(opt, "--backend") == 0)
			backend = val;
		else if (val != NULL && strcmp(opt, "--keys") == 0)
			nkeys = strtol(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--in-off") == 0)
			lay.in_off = (size_t)strtoul(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--out-off") == 0)
			lay.out_off = (size_t)strtoul(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--in-place") == 0)
			lay.in_place = (int)strtol(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--page") == 0)
			page = strtol(val, NULL, 10);
		else
			m = NULL;
	}
	if (m == NULL || nmsg <= 0 || nkeys < 1 || nkeys > MAXKEYS || lay.in_off >= PAGE ||
	    lay.out_off >= PAGE || lay.in_place < -1 || lay.in_place > 1 || page < 1 || page > 64)
		return usage();
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	for (int k = 0; k < 3; k++) {
		c_eip93[k] = EVP_CIPHER_fetch(NULL, names[cbc][k], "provider=eip93");
		c_dflt[k] = EVP_CIPHER_fetch(NULL, names[cbc][k], "provider=default");
		if (c_eip93[k] == NULL || c_dflt[k] == NULL)
			prov = NULL;
	}
	if (prov == NULL || !knob_set("fault", 0) || !knob_set("fault_layout", 1)) {
		printf("not ok - %s %s: setup (the provider offering %s, the driver's knobs; gate "
		       "\"%s\")\n",
		       argv[1], m->name, names[cbc][0], prov != NULL ? text("eip93-gate") : "?");
		return 1;
	}
	road = text("eip93-backend");
	if (backend != NULL && strcmp(backend, road) != 0) {
		printf("not ok - %s %s: the gate bound %s, not %s (\"%s\")\n", argv[1], m->name,
		       road, backend, text("eip93-gate"));
		return 1;
	}
	/* The healthy engine: every key passes its check and carries one message. */
	e0 = counter("eip93-engine-messages");
	for (int i = 0; i < nkeys; i++) {
		struct outcome o;

		ctx[i] = EVP_CIPHER_CTX_new();
		fill(keys[i], sizeof(keys[i]));
		if (ctx[i] == NULL ||
		    !EVP_CipherInit_ex2(ctx[i], c_eip93[i % 3], keys[i], NULL, 1, NULL) ||
		    message(ctx[i], i % 3, keys[i], 1, lay.in_place == 1, 16384, &lay, &o) != 1) {
			printf("not ok - %s %s: key %d on the healthy engine\n", argv[1], m->name,
			       i);
			return 1;
		}
	}
	if (counter("eip93-engine-messages") - e0 != (uint64_t)nkeys) {
		printf("not ok - %s %s: the keys did not run on the engine\n", argv[1], m->name);
		return 1;
	}
	f0 = knob_get("faults");
	d0 = counter("eip93-engine-faults");
	s0 = counter("eip93-software-messages-fault");
	if (!knob_set("fault_block", m->block) || !knob_set("fault_page", m->page * page) ||
	    !knob_set("fault_after", 0) || !knob_set("fault", m->fault)) {
		printf("not ok - arming the fault\n");
		return 1;
	}
	for (long i = 0; i < nmsg; i++) {
		size_t len = BLK * (256 + (size_t)(rnd() % (MAXLEN / BLK - 256 + 1)));
		int k = (int)(i % nkeys), enc = (int)(rnd() & 1), inplace = (int)((rnd() >> 9) & 1);
		long ops0 = knob_get("ops"), fl0 = knob_get("faults");
		uint64_t c0 = counter("eip93-engine-faults");
		struct outcome o;
		int r;

		if (lay.in_place >= 0)
			inplace = lay.in_place;
		r = message(ctx[k], k % 3, keys[k], enc, inplace, len, &lay, &o);
		if (r < 0) {
			printf("not ok - harness failure at message %ld\n", i);
			return 1;
		}
		if ((after_fault[k] || off) && knob_get("ops") != ops0) {
			late += after_fault[k];
			after_off += off;
		}
		faulted += knob_get("faults") != fl0;
		if (counter("eip93-engine-faults") != c0) {
			after_fault[k] = 1;
			caught++;
		}
		off = counter("eip93-engine-faults") - d0 >= MAX_FAULTS;
		wrong += r == 0;
		wbytes += o.wrong_bytes;
		plain += o.plain_blocks;
		stale += o.stale_blocks;
		canaries += o.canary_blocks;
	}
	knob_set("fault", 0);
	knob_set("fault_layout", 0);
	reqs = knob_get("faults") - f0;
	dd = counter("eip93-engine-faults") - d0;
	sd = counter("eip93-software-messages-fault") - s0;
	gate = text("eip93-gate");
	snprintf(lays, sizeof(lays), "in=%zu,out=%zu,%s", lay.in_off, lay.out_off,
		 lay.in_place < 0 ? "inplace=mixed"
		 : lay.in_place	  ? "inplace"
				  : "apart");
	snprintf(label, sizeof(label), "%s", m->name);
	if (m->page && page != 1)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), ":%ld", page);
	printf("# skc integrity %s %s via %s (%s): messages %ld on %ld keys, faulted %ld (driver "
	       "requests %ld), caught %" PRIu64 " (redone in software %" PRIu64 "), wrong outputs "
	       "released %ld (%llu wrong bytes), plaintext or stale blocks %llu (input %llu, "
	       "stale %llu, canary %llu), driver requests after a key's caught fault %ld, after "
	       "the engine went off %ld; gate now \"%s\"\n",
	       argv[1], label, road, lays, nmsg, nkeys, faulted, reqs, dd, sd, wrong, wbytes,
	       plain + stale, plain, stale, canaries, late, after_off, gate);
	/* The driver's knobs the row set: fault=N and its block or boundary. */
	if (m->page)
		snprintf(spec, sizeof(spec), "%d,page=%ld", m->fault, m->page * page);
	else if (m->fault == 1 || m->fault == 8)
		snprintf(spec, sizeof(spec), "%d,block=%d", m->fault, m->block);
	else
		snprintf(spec, sizeof(spec), "%d", m->fault);
	printf("table: %s %s %s %s %ld %ld %ld %ld %llu %s %s\n", road, argv[1], label, spec,
	       faulted, reqs, caught, wrong, plain + stale, engine_off(gate) ? "off" : "on", lays);
	if (faulted == 0) {
		printf("not ok - %s %s: the driver faulted nothing\n", argv[1], label);
		bad = 1;
	}
	if (dd != sd || dd != (uint64_t)caught) {
		printf("not ok - %s %s: every caught fault (%" PRIu64
		       ", in %ld messages) redone in "
		       "software (%" PRIu64 ")\n",
		       argv[1], label, dd, caught, sd);
		bad = 1;
	}
	if (wrong != faulted - caught) {
		printf("not ok - %s %s: wrong outputs %ld are the uncaught faulted messages %ld\n",
		       argv[1], label, wrong, faulted - caught);
		bad = 1;
	}
	if (late != 0 || after_off != 0) {
		printf("not ok - %s %s: driver requests from a key whose fault was caught (%ld) or "
		       "after the engine went off (%ld)\n",
		       argv[1], label, late, after_off);
		bad = 1;
	}
	if (dd >= MAX_FAULTS && !engine_off(gate)) {
		printf("not ok - %s %s: %" PRIu64 " faults caught and the engine still on\n",
		       argv[1], label, dd);
		bad = 1;
	}
	/* With more keys and messages than that, the engine must have gone off. */
	if (m->systematic && (wrong != 0 || wbytes != 0 || caught != faulted ||
			      (nkeys > MAX_FAULTS && nmsg > MAX_FAULTS && dd != MAX_FAULTS))) {
		printf("not ok - %s %s: every faulted message caught, nothing wrong released, the "
		       "engine off after %d (caught %" PRIu64 ")\n",
		       argv[1], label, MAX_FAULTS, dd);
		bad = 1;
	}
	if ((m->systematic || m->flips) && plain + stale != 0) {
		printf("not ok - %s %s: %llu plaintext or stale blocks released\n", argv[1], label,
		       plain + stale);
		bad = 1;
	}
	if (faulted > 0)
		printf("measure: skc integrity %s %s via %s: detection rate %.1f%% (%ld of %ld)\n",
		       argv[1], label, road, 100.0 * (double)caught / (double)faulted, caught,
		       faulted);
	if (!bad)
		printf("ok - skc integrity %s %s via %s (%s): %s\n", argv[1], label, road, lays,
		       m->systematic ? "every faulted message caught, 0 wrong bytes, engine off "
				       "after 8"
				     : "every wrong output an uncaught single-block fault");
	for (int i = 0; i < nkeys; i++)
		EVP_CIPHER_CTX_free(ctx[i]);
	for (int k = 0; k < 3; k++) {
		EVP_CIPHER_free(c_eip93[k]);
		EVP_CIPHER_free(c_dflt[k]);
	}
	return bad;
}
