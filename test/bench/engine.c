// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 1: the engine path vs the raw AF_ALG loop on the same
 * kernel algorithm, TLS 1.3 and TLS 1.2 shapes, encrypt and decrypt,
 * 4/16/32 KiB, the per-message copy, and where prov - raw goes.
 */
#include "bench.h"

#include <stdio.h>
#include <string.h>

/* ---- section 1: engine path vs raw AF_ALG -------------------------------- */

struct engine_row {
	const char *shape, *dir;
	size_t len;
	struct result res; /* ratio rounds: provider, raw, copy */
	struct result bd;  /* breakdown pass: provider, raw, provider hot, raw split */
	int engine_ok;
	int have_bd;
};

static int engine_row(struct engine_row *row, int tls12, int enc, size_t len)
{
	static unsigned char ref[MAX_PAYLOAD + TLS12_EXPLICIT + TAGLEN];
	unsigned char nonce12[IVLEN], aad12[TLS12_AAD];
	struct contender c[NCONT] = { { 0 } };
	struct evp13 e13 = { 0 }, h13 = { 0 };
	struct evp12 e12 = { 0 }, h12 = { 0 };
	struct raw raw;
	struct copy cp;
	uint64_t em0, sm0, em1, sm1;
	int rc = -1;

	row->shape = tls12 ? "TLS1.2" : "TLS1.3";
	row->dir = enc ? "enc" : "dec";
	row->len = len;
	row->engine_ok = 0;
	if (tls12) {
		if (reference12(len, ref) != 0) {
			fail("TLS 1.2 reference record");
			return -1;
		}
		memcpy(nonce12, tls12_fixed, TLS12_FIXED);
		memcpy(nonce12 + TLS12_FIXED, ref, TLS12_EXPLICIT);
		tls12_aad(aad12, 1, len);
		aad12[11] = (unsigned char)(len >> 8); /* the AAD the kernel sees: payload length */
		aad12[12] = (unsigned char)(len & 0xff);
		if (evp12_open(&e12, B.c_eip93, enc, len, tls12_fixed, ref) != 0)
			return -1;
		if (evp12_open(&h12, B.c_eip93_nv, enc, len, tls12_fixed, ref) != 0) {
			evp12_close(&e12);
			return -1;
		}
		if (raw_open(&raw, enc, aad12, TLS12_AAD, len, nonce12, ref + TLS12_EXPLICIT) != 0)
			goto out_evp;
		c[0].prep = evp12_prep;
		c[0].op = evp12_op;
		c[0].st = &e12;
	} else {
		if (reference13(len, base_nonce, ref) != 0) {
			fail("TLS 1.3 reference record");
			return -1;
		}
		if (evp13_open(&e13, B.c_eip93, enc, len, base_nonce, tls13_aad, ref) != 0)
			return -1;
		if (evp13_open(&h13, B.c_eip93_nv, enc, len, base_nonce, tls13_aad, ref) != 0) {
			evp13_close(&e13);
			return -1;
		}
		if (raw_open(&raw, enc, tls13_aad, TLS13_AAD, len, base_nonce, ref) != 0)
			goto out_evp;
		c[0].prep = evp13_prep;
		c[0].op = evp13_op;
		c[0].st = &e13;
	}
	c[1].prep = raw_prep;
	c[1].op = raw_op;
	c[1].st = &raw;
	cp.src = ref;
	cp.len = len;
	cp.cleanse =
		!tls12; /* TLS 1.3 messages cleanse the kept copy; TLS 1.2 frees a scratch buffer */
	c[2].prep = NULL;
	c[2].op = copy_op;
	c[2].st = &cp;
	row->have_bd = 0;

	/* The raw loop must give the same answer (decrypt: accept the record). */
	if (run_n(&c[1], 1) != 0)
		goto out;
	if (enc && !tls12) {
		/* Its first message used the nonce of sequence number 1. */
		unsigned char n1[IVLEN], ref1[MAX_PAYLOAD + TAGLEN];

		nonce_for(n1, base_nonce, 1);
		if (reference13(len, n1, ref1) != 0 ||
		    memcmp(raw.out + TLS13_AAD, ref1, len + TAGLEN) != 0) {
			fail("raw AF_ALG encryption differs from the default provider");
			goto out;
		}
	}

	em0 = prov_counter("eip93-engine-messages");
	sm0 = prov_counter("eip93-software-messages");
	if (!tls12 && check13(&e13, ref) != 0) {
		fail("%s %s %zu: the provider's answer differs from the reference", row->shape,
		     row->dir, len);
		goto out;
	}
	if (tls12 && !enc) {
		memcpy(e12.rec, ref, rec_len(len));
		if (evp12_record(&e12) != 0) {
			fail("TLS 1.2 decrypt %zu: the provider rejects the reference record", len);
			goto out;
		}
	}
	if (measure(c, 3, B.rounds, B.batch_s, &row->res) != 0)
		goto out;
	em1 = prov_counter("eip93-engine-messages");
	sm1 = prov_counter("eip93-software-messages");
	{
		uint64_t want = (uint64_t)row->res.msgs0 + (tls12 && enc ? 0 : 1);

		row->engine_ok = em1 - em0 == want && sm1 == sm0;
		if (!row->engine_ok)
			fail("%s %s %zu: %llu of %llu messages took the engine, %llu software",
			     row->shape, row->dir, len, (unsigned long long)(em1 - em0),
			     (unsigned long long)want, (unsigned long long)(sm1 - sm0));
	}

	/* Breakdown pass: syscalls timed; the provider hot; the raw loop with split iovecs. */
	c[2].prep = c[0].prep;
	c[2].op = tls12 ? evp12_hot_op : evp13_hot_op;
	c[2].st = tls12 ? (void *)&h12 : (void *)&h13;
	c[2].solo = 1;
	c[3].prep = raw_prep;
	c[3].op = raw_split_op;
	c[3].st = &raw;
	sys_timing = 1;
	row->have_bd = measure(c, 4, B.rounds < BD_ROUNDS ? B.rounds : BD_ROUNDS, B.batch_s / 3,
			       &row->bd) == 0;
	sys_timing = 0;
	rc = 0;
out:
	raw_close(&raw);
out_evp:
	if (tls12) {
		evp12_close(&e12);
		evp12_close(&h12);
	} else {
		evp13_close(&e13);
		evp13_close(&h13);
	}
	return rc;
}

void section_engine(void)
{
	static const size_t sizes[] = { 4096, 16384, 32768 };
	static struct engine_row rows[12];
	int nrows = 0;
	char sz[32];

	printf("\n1. Engine path vs raw AF_ALG loop (same kernel algorithm, same key)\n");
	printf("   ratio = provider throughput / raw throughput: median over rounds of the ratio "
	       "of the\n   contenders' median per-message times (min..max over rounds); trim80: "
	       "the same from\n   the mean of each round's fastest 80%% of messages\n\n");
	printf("   %-6s %-3s %7s | %9s %9s | %9s %9s | %6s %13s %6s %7s | %s\n", "shape", "dir",
	       "size", "raw MB/s", "prov MB/s", "raw us", "prov us", "ratio", "(min..max)",
	       "trim80", "target", "engine");
	for (int tls12 = 0; tls12 <= 1; tls12++)
		for (int enc = 1; enc >= 0; enc--)
			for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
				struct engine_row *row = &rows[nrows];
				const struct result *r = &row->res;

				if (engine_row(row, tls12, enc, sizes[i]) != 0) {
					printf("   %-6s %-3s %7s | (failed, see stderr)\n",
					       tls12 ? "TLS1.2" : "TLS1.3", enc ? "enc" : "dec",
					       size_str(sizes[i], sz, sizeof(sz)));
					continue;
				}
				printf("   %-6s %-3s %7s | %9.1f %9.1f | %9.1f %9.1f | %6.3f "
				       "(%.3f..%.3f) %6.3f %7s | %s\n",
				       row->shape, row->dir, size_str(row->len, sz, sizeof(sz)),
				       mbps(row->len, r->us[1]), mbps(row->len, r->us[0]), r->us[1],
				       r->us[0], r->ratio, r->rmin, r->rmax, r->tratio,
				       r->ratio >= ENGINE_TARGET ? ">=0.97" : "<0.97 !",
				       row->engine_ok ? "100%" : "NO");
				fflush(stdout);
				nrows++;
			}

	printf("\n   What the engine path adds per message: its one copy of the message (for a "
	       "replay),\n   malloc + memcpy + free (+ cleanse for TLS 1.3), timed on its own, "
	       "interleaved with the two loops\n\n");
	printf("   %-6s %-3s %7s | %9s %9s %8s | %9s\n", "shape", "dir", "size", "prov-raw",
	       "copy us", "copy%", "msgs/round");
	for (int i = 0; i < nrows; i++) {
		const struct engine_row *row = &rows[i];
		const struct result *r = &row->res;

		printf("   %-6s %-3s %7s | %9.2f %9.2f %7.2f%% | %9ld\n", row->shape, row->dir,
		       size_str(row->len, sz, sizeof(sz)), r->us[0] - r->us[1], r->us[2],
		       100.0 * r->us[2] / r->us[1], r->iters);
	}

	printf("\n   Where prov - raw goes (us per message; a separate pass of %d rounds with the "
	       "AF_ALG\n   syscalls timed; medians of per-round values, so the parts need not add "
	       "up exactly)\n",
	       BD_ROUNDS);
	printf("     kernel layout: raw loop with the provider's iovecs (separate AAD / tag / "
	       "AAD-echo\n                    buffers, readv) minus raw loop, syscall time\n");
	printf("     kernel other : provider syscall time minus that split-iovec raw loop's\n");
	printf("     user hot     : provider records with AF_ALG answered in user space, back to "
	       "back\n                    (warm caches), minus the raw loop's own user time: "
	       "EVP + provider\n                    + delegate + copy\n");
	printf("     user cold    : provider user time in the interleaved loop minus user hot "
	       "(the same\n                    code run right after a kernel operation)\n\n");
	printf("   %-6s %-3s %7s | %9s | %9s %9s | %9s %9s | %s\n", "shape", "dir", "size",
	       "prov-raw", "k.layout", "k.other", "user hot", "user cold", "syscalls/msg");
	for (int i = 0; i < nrows; i++) {
		const struct engine_row *row = &rows[i];
		const struct result *r = &row->bd;
		double v[5][MAX_ROUNDS];

		/* Per round (the contenders ran back to back), then the median of each. */
		for (int q = 0; q < r->rounds; q++) {
			v[0][q] = r->t[0][q] - r->t[1][q];
			v[1][q] = r->sys[3][q] - r->sys[1][q];
			v[2][q] = r->sys[0][q] - r->sys[3][q];
			v[3][q] = r->t[2][q] - r->user[1][q];
			v[4][q] = r->user[0][q] - r->user[1][q] - v[3][q];
		}
		if (!row->have_bd || r->calls[0] < 1.5) {
			printf("   %-6s %-3s %7s | (not measured: the wrappers saw %.1f AF_ALG "
			       "calls "
			       "per message)\n",
			       row->shape, row->dir, size_str(row->len, sz, sizeof(sz)),
			       row->have_bd ? r->calls[0] : 0.0);
			continue;
		}
		printf("   %-6s %-3s %7s | %9.2f | %9.2f %9.2f | %9.2f %9.2f | %.1f\n", row->shape,
		       row->dir, size_str(row->len, sz, sizeof(sz)), median(v[0], r->rounds),
		       median(v[1], r->rounds), median(v[2], r->rounds), median(v[3], r->rounds),
		       median(v[4], r->rounds), r->calls[0]);
	}
}
