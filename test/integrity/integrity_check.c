// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-integrity-check: keystream faults that start after the key check
 * (docs/contract.md "Integrity"), in the test guest with the
 * simulated driver's fault knobs.
 *
 *   eip93-integrity-check MODE [MESSAGES] [--expect KALG] [--backend ROAD]
 *                         [--tag-check N] [--warm W] [--aad N] [--in-off N]
 *                         [--out-off N] [--in-place 0|1] [--page K] [--layout 0|1]
 *     MODE: first | last | middle | random | nowrite | edge | tail |
 *           tagmask | tagmask-open | src-after | src-before | dst-after |
 *           dst-before | skip | skip-after | skip-before
 *     --expect KALG  the composition the provider must have enabled
 *                    (eip93-status "enabled: KALG"), e.g. ctr(aes-eip93) or
 *                    gcm_base(ctr(aes-eip93),ghash-generic); the provider's
 *                    configuration (OPENSSL_CONF's [eip93_sect]) chooses it
 *     --backend ROAD afalg or cryptodev: the road the gate must have bound
 *                    (its status says "via /dev/crypto" for cryptodev)
 *     --tag-check N  the sampled software tag check the configuration sets
 *                    for a kernel (gcm_base) composition: every message when
 *                    1, else the first messages of each key and 1 in N
 *                    (default 64, the provider's)
 *     --warm W       W more healthy messages per key before the faults start
 *                    (default 0: they start at each key's second message)
 *     --aad N        AAD bytes per message (0-1024, default 5: TLS 1.3's)
 *     --in-off N, --out-off N
 *                    the page offsets (0-4095, default 0) of the caller's
 *                    input and output buffers; in place, the one buffer is
 *                    at the input's offset
 *     --in-place 0|1 every message apart (0) or in place (1); default: each
 *                    at random
 *     --page K       the boundary the page modes fault (the driver's
 *                    fault_page = K after it, -K before it; default 1)
 *     --layout 0|1   the driver's fault_layout while faulting: 0 (default)
 *                    the CTR-only and gcm_base messages by their counter,
 *                    1 every request from its first byte (the ECB
 *                    composition's requests: its counter blocks)
 *
 * Six keys are verified on the engine with the driver healthy; then the
 * driver gets the fault (fault_after = 0) and MESSAGES messages (4-32 KiB,
 * encrypt and decrypt, in place and not unless --in-place says) run round
 * robin over the six contexts, each compared with the default provider
 * (output bytes, and the tag of an encryption).  A not-in-place output
 * buffer holds a canary before each message.  Printed: messages, engine
 * results the driver faulted, faults the provider caught, wrong outputs
 * released, wrong bytes (payload and tag) released, wrong tags released,
 * plaintext or stale blocks released (16-byte blocks of a released output,
 * from the payload's start, equal to the input's block or no few-bit
 * variant of the right block: memory the engine never wrote; the canary
 * among them counted too), and a "table:" line for the suite's table.
 * Checked for every mode: every wrong output is an uncaught fault (nothing
 * else goes wrong), every caught fault is redone in software, and once a
 * key's fault was caught no later message of that key reaches the driver
 * (the key went to software, or the engine off); for the modes that flip a
 * bit, no plaintext or stale block.  For first, last, nowrite, edge, tail
 * (one bit of the first of the last 16 bytes: with the partial last block
 * most of these lengths have, in the block before it) and the page and skip
 * modes every faulted result is caught and no wrong byte reaches the
 * caller; random and middle (a single middle block) are caught by sampling:
 * the rate is printed.
 *
 * The page modes fault at the K-th boundary between two entries of the
 * engine request's scatterlists (the driver's fault_page): src-after and
 * src-before a bit of the byte read right after / before one of the source
 * (fault=6), dst-after and dst-before of the byte written there in the
 * destination (fault=7).  The skip modes leave 16 bytes unwritten, holding
 * what the destination held before the request (fault=8): skip a random
 * middle block, skip-after the 16 bytes after destination boundary K,
 * skip-before the 16 before it.
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

#include "integrity.h"
#include "../guest/sim.h"

#define KEYS 6
#define MAXLEN INTEGRITY_MAXLEN
#define P "/sys/module/eip93_sim/parameters/"
/* The provider's tag-check when the configuration sets none. */
#define TAG_CHECK_DEFAULT 64

static OSSL_PROVIDER *prov, *dflt;

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_uint64(name, &v), OSSL_PARAM_END };

	return OSSL_PROVIDER_get_params(prov, q) ? v : 0;
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

/* dir: -1 both directions at random, 1 encryptions only, 0 decryptions only */
/* page: the side of the boundary --page names (fault_page's sign), 0: none */
struct mode {
	const char *name;
	int fault, block, page, systematic, dir;
};

static const struct mode modes[] = {
	{ "first", 1, 0, 0, 1, -1 },	   { "last", 1, -1, 0, 1, -1 },
	{ "middle", 1, 100, 0, 0, -1 },	   { "random", 1, -2, 0, 0, -1 },
	{ "nowrite", 2, 0, 0, 1, -1 },	   { "edge", 3, 0, 0, 1, -1 },
	{ "tail", 4, 0, 0, 1, -1 },	   { "tagmask", 5, 0, 0, 1, 1 },
	{ "tagmask-open", 5, 0, 0, 1, 0 }, { "src-after", 6, 0, 1, 1, -1 },
	{ "src-before", 6, 0, -1, 1, -1 }, { "dst-after", 7, 0, 1, 1, -1 },
	{ "dst-before", 7, 0, -1, 1, -1 }, { "skip", 8, -2, 0, 1, -1 },
	{ "skip-after", 8, 0, 1, 1, -1 },  { "skip-before", 8, 0, -1, 1, -1 },
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
	fprintf(stderr,
		"usage: eip93-integrity-check MODE [MESSAGES] [--expect KALG] "
		"[--backend afalg|cryptodev] [--tag-check N] [--warm W] [--aad N] "
		"[--in-off N] [--out-off N] [--in-place 0|1] [--page K] [--layout 0|1]\nMODE:");
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(stderr, " %s", modes[i].name);
	fputc('\n', stderr);
}

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	const char *expect = NULL, *backend = NULL, *road, *placed;
	struct layout lay = { 5, 0, 0, -1 };
	struct key keys[KEYS];
	int after_fault[KEYS] = { 0 }, bad = 0, ctr_only, systematic, sampled_tag, flips, argi = 2;
	long nmsg = 400, warm = 0, tag_check = TAG_CHECK_DEFAULT, f0, f1, wrong = 0, refused = 0,
	     wtags = 0, late = 0, page = 1, layout = 0;
	uint64_t e0, e1, d0, d1, sf0, sf1;
	unsigned long long wbytes = 0, plain = 0, stale = 0, canaries = 0;
	char st[256], kalg[128], tc[96], tcn[24], lays[80], label[48];

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
		else if (val != NULL && strcmp(opt, "--backend") == 0)
			backend = val;
		else if (val != NULL && strcmp(opt, "--aad") == 0)
			lay.aad = (size_t)strtoul(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--in-off") == 0)
			lay.in_off = (size_t)strtoul(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--out-off") == 0)
			lay.out_off = (size_t)strtoul(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--in-place") == 0)
			lay.in_place = (int)strtol(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--page") == 0)
			page = strtol(val, NULL, 10);
		else if (val != NULL && strcmp(opt, "--layout") == 0)
			layout = strtol(val, NULL, 10);
		else
			m = NULL;
	}
	if (m == NULL || nmsg <= 0 || tag_check <= 0 || warm < 0 || warm > 1000 ||
	    lay.aad > INTEGRITY_MAXAAD || lay.in_off >= INTEGRITY_PAGE ||
	    lay.out_off >= INTEGRITY_PAGE || lay.in_place < -1 || lay.in_place > 1 || page < 1 ||
	    page > 64 || layout < 0 || layout > 1 ||
	    (backend != NULL && strcmp(backend, "afalg") != 0 &&
	     strcmp(backend, "cryptodev") != 0)) {
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
	/* The gate's status names /dev/crypto when that is the road it bound. */
	road = strstr(st, " via /dev/crypto") != NULL ? "cryptodev" : "afalg";
	if (backend != NULL && strcmp(backend, road) != 0) {
		printf("not ok - %s: the provider bound %s through %s, not %s (status \"%s\")\n",
		       m->name, kalg, road, backend, st);
		return 1;
	}
	/* Composed here (tags never from the engine): CTR-only, and the ECB composition. */
	ctr_only = strncmp(kalg, "ctr(", 4) == 0 || strncmp(kalg, "ecb(", 4) == 0;
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
	flips = m->fault == 1 || (m->fault >= 4 && m->fault <= 7);
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

			if (message(&keys[i], 1, lay.in_place == 1, 16384, &lay, &o) != 1) {
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
	if (!knob_set("fault_block", m->block) || !knob_set("fault_page", m->page * page) ||
	    !knob_set("fault_layout", layout) || !knob_set("fault_after", 0) ||
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
		if (lay.in_place >= 0)
			inplace = lay.in_place;
		r = message(&keys[k], enc, inplace, len, &lay, &o);
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
		plain += o.plain_blocks;
		stale += o.stale_blocks;
		canaries += o.canary_blocks;
	}
	knob_set("fault", 0);
	knob_set("fault_layout", 0);
	f1 = knob_get("faults");
	e1 = counter("eip93-engine-messages");
	d1 = counter("eip93-engine-faults");
	sf1 = redone();
	placed = lay.in_place < 0 ? "inplace=mixed" : lay.in_place ? "inplace" : "apart";
	snprintf(lays, sizeof(lays), "aad=%zu,in=%zu,out=%zu,%s", lay.aad, lay.in_off, lay.out_off,
		 placed);
	snprintf(label, sizeof(label), "%s%s", m->name, warm ? "-late" : "");
	if (m->page && page != 1)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), ":%ld", page);
	printf("# integrity %s (%s via %s%s; %s): messages %ld, engine results faulted by the "
	       "driver %ld, caught %" PRIu64 " (redone in software %" PRIu64 "), clean engine "
	       "messages %" PRIu64 ", wrong outputs released %ld (valid messages refused %ld), "
	       "wrong bytes released %llu, wrong tags released %ld, plaintext or stale blocks "
	       "released %llu (input blocks %llu, stale %llu, of which canary %llu), driver "
	       "requests after a key's caught fault %ld\n",
	       label, kalg, road, ctr_only ? "" : tc, lays, nmsg, f1 - f0, d1 - d0, sf1 - sf0,
	       e1 - e0, wrong, refused, wbytes, wtags, plain + stale, plain, stale, canaries, late);
	printf("table: %s %s %s %s %ld %" PRIu64 " %ld %llu %ld %s\n", road, label, kalg,
	       ctr_only ? "-" : tcn, f1 - f0, d1 - d0, wrong, plain + stale, wtags, lays);
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
	/*
	 * A flipped bit leaves every block written: a block of the input, or
	 * one far from the right output, is memory the engine never wrote.
	 */
	if ((systematic || flips) && plain + stale != 0) {
		printf("not ok - %s: %llu plaintext or stale blocks released (%llu of the input, "
		       "%llu stale, %llu of them the canary)\n",
		       m->name, plain + stale, plain, stale, canaries);
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
		printf("ok - integrity %s (%s via %s%s; %s): %s\n", label, kalg, road,
		       ctr_only ? "" : tc, lays,
		       systematic    ? "every faulted result caught, 0 wrong bytes released"
		       : sampled_tag ? "wrong tags bounded by the sampled tag check"
				     : "every wrong output is an uncaught single-block fault");
	for (int i = 0; i < KEYS; i++)
		EVP_CIPHER_CTX_free(keys[i].c);
	EVP_CIPHER_free(c_eip93);
	EVP_CIPHER_free(c_dflt);
	return bad;
}
