// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 8 (only when named: --sections 8): one TLS 1.3 stream,
 * serial vs overlapped.  One encryption context per setting runs TLS
 * 1.3-shaped records back to back (nonce = the static IV XOR the sequence
 * number, the 5-byte record header as AAD, the payload a whole number of KiB
 * plus the content-type byte), on two provider instances in library contexts
 * of their own: keystream-ahead = off (serial: each record's engine request
 * waited for inside the record) and keystream-ahead = on (overlapped: the
 * provider starts the next record's keystream after each engine message).
 *
 * The settings run in batches (not message by message: a keystream started
 * ahead would then sit in the one engine's queue while the other setting
 * waits behind it), their order swapped every round; between batches the
 * engine is left to drain.  Before each timed batch one record, untimed,
 * is checked against the default provider: it is the record that takes the
 * keystream the last batch started ahead, and it starts the next one, so the
 * batch begins in the steady state (a few records of each setting run
 * untimed first).  Per batch: wall time (MB/s) and the process's CPU time
 * (getrusage, user + system, which leaves out the kernel worker that stands
 * in for the engine) per byte.  Medians over rounds; the ratio is the median
 * of the per-round ratios.  After the rounds a record
 * with an unexpected nonce (one sequence number skipped) is checked on each
 * instance: the keystream started ahead is dropped, the answer still right.
 *
 * The counters eip93-keystream-ahead-used / -dropped of each instance prove
 * which path ran; a provider without them (before keystream-ahead, whose
 * unknown config key it never asks for) measures the serial path twice, and
 * says so.  Nothing timed is asserted: wrong answers, records that did not
 * reach the engine, and an "on" instance that never used a keystream ahead
 * (or an "off" one that did) are the failures.
 *
 * EIP93_OVERLAP_FIRST_SEQ: the first record's sequence number (default 0,
 * as libssl: the first nonce is the static IV; 1 gives a stream whose first
 * record the provider did not see, whose nonces its XOR pattern cannot learn).
 * EIP93_OVERLAP_WORK_US: the caller's own work after each record, the CPU
 * busy for that long (default 0: records back to back; counted in the CPU
 * time, and where keystream ahead overlaps the engine with the caller).
 * EIP93_OVERLAP_SIZES: the payload sizes, comma-separated bytes before the
 * content-type byte (default 4096,16384,32768).  Both instances route up to
 * max-size = 65536 (the default window ends at 32768: a 32 KiB + 1 record
 * would measure software).
 */
#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include <openssl/params.h>

#define OV_MAXSIZES 8
#define OV_MAXLEN 65536u /* the longest keystream asked ahead (EIP93_AHEAD_MAX) */
#define OV_AHEAD_USED "eip93-keystream-ahead-used"
#define OV_AHEAD_DROPPED "eip93-keystream-ahead-dropped"

/* One provider instance with one keystream-ahead setting. */
struct ovinst {
	const char *label;   /* serial / overlapped */
	const char *setting; /* off / on */
	char conf[64];
	OSSL_LIB_CTX *lib;
	OSSL_PROVIDER *eip93;
	EVP_CIPHER *c;
};

/* What one instance counted during one size's rounds. */
struct ovcount {
	uint64_t msgs, used, dropped;
	int have_ahead; /* the provider has the keystream-ahead counters */
};

static double cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* A uint64 provider parameter: 1 and *@v when the provider answers it, else 0. */
static int ov_param(OSSL_PROVIDER *p, const char *name, uint64_t *v)
{
	OSSL_PARAM q[2];

	*v = 0;
	q[0] = OSSL_PARAM_construct_uint64(name, v);
	q[1] = OSSL_PARAM_construct_end();
	return OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]);
}

static void ov_snap(const struct ovinst *in, struct ovcount *c)
{
	uint64_t d;

	(void)ov_param(in->eip93, "eip93-engine-messages", &c->msgs);
	c->have_ahead = ov_param(in->eip93, OV_AHEAD_USED, &c->used) &&
			ov_param(in->eip93, OV_AHEAD_DROPPED, &d);
	c->dropped = c->have_ahead ? d : 0;
}

static void ov_close(struct ovinst *in)
{
	EVP_CIPHER_free(in->c);
	OSSL_PROVIDER_unload(in->eip93);
	OSSL_LIB_CTX_free(in->lib);
	if (in->conf[0] != '\0')
		unlink(in->conf);
	in->c = NULL;
	in->eip93 = NULL;
	in->lib = NULL;
	in->conf[0] = '\0';
}

/* The instance's configuration (the default provider and eip93, on the bench's composition). */
static int ov_open(struct ovinst *in, const char *alg)
{
	const char *gate = NULL;
	OSSL_PARAM p[2];
	FILE *f;
	int fd;

	snprintf(in->conf, sizeof(in->conf), "/tmp/eip93-overlap-%s-XXXXXX", in->setting);
	fd = mkstemp(in->conf);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL) {
		fail("overlap: cannot write a configuration in /tmp: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		in->conf[0] = '\0';
		return -1;
	}
	fprintf(f,
		"openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n"
		"[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n"
		"[default_sect]\nactivate = 1\n[eip93_sect]\nactivate = 1\nnotice = no\n"
		"kernel-algorithm = %s\nmax-size = %u\nkeystream-ahead = %s\n",
		B.kalg, OV_MAXLEN, in->setting);
	if (fclose(f) != 0) {
		fail("overlap: cannot write %s", in->conf);
		return -1;
	}
	in->lib = OSSL_LIB_CTX_new();
	if (in->lib == NULL || !OSSL_LIB_CTX_load_config(in->lib, in->conf)) {
		fail("overlap: cannot load %s (keystream-ahead = %s)", in->conf, in->setting);
		return -1;
	}
	in->eip93 = OSSL_PROVIDER_load(in->lib, "eip93");
	in->c = in->eip93 != NULL ? EVP_CIPHER_fetch(in->lib, alg, "provider=eip93") : NULL;
	if (in->c == NULL) {
		fail("overlap: no %s from eip93 with keystream-ahead = %s", alg, in->setting);
		return -1;
	}
	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(in->eip93, p) || gate == NULL ||
	    strncmp(gate, "enabled: ", 9) != 0 || strncmp(gate + 9, B.kalg, strlen(B.kalg)) != 0) {
		fail("overlap: keystream-ahead = %s: the gate says %s", in->setting,
		     gate != NULL ? gate : "(nothing)");
		return -1;
	}
	return 0;
}

/* One size's record on one instance, and the default provider's reference. */
struct ovrec {
	struct evp13 e, ref;
	size_t len;
};

/* Untimed: a record from a known plaintext, checked against the default provider. */
static int ov_checked(struct ovrec *r, uint64_t seq)
{
	unsigned char nonce[IVLEN];

	r->e.seq = seq;
	nonce_for(nonce, r->e.nonce, seq);
	fill(r->e.buf, r->len, 1);
	fill(r->ref.buf, r->len, 1);
	if (evp13_record(&r->e, nonce) != 0 || evp13_record(&r->ref, nonce) != 0)
		return -1;
	if (memcmp(r->e.buf, r->ref.buf, r->len) != 0 || memcmp(r->e.tag, r->ref.tag, TAGLEN) != 0)
		return -2;
	return 0;
}

/* The caller's own work per record (EIP93_OVERLAP_WORK_US), in seconds: 0 by default. */
static double ov_work_s(void)
{
	const char *env = getenv("EIP93_OVERLAP_WORK_US");

	return env != NULL ? strtod(env, NULL) * 1e-6 : 0;
}

/* The caller's work: the CPU busy for @s seconds of wall time. */
static void ov_work(double s)
{
	static volatile unsigned long sink;
	double end = now_s() + s;

	while (s > 0 && now_s() < end)
		for (int i = 0; i < 64; i++)
			sink = sink * 31 + (unsigned long)i;
}

/* Timed: @n records back to back on the next sequence numbers (and the caller's work after each). */
static int ov_batch(struct ovrec *r, long n, double *wall, double *cpu)
{
	double t0 = now_s(), c0 = cpu_s(), work = ov_work_s();

	for (long i = 0; i < n; i++) {
		nonce_for(r->e.cur, r->e.nonce, ++r->e.seq);
		if (evp13_record(&r->e, r->e.cur) != 0)
			return -1;
		ov_work(work);
	}
	*cpu = cpu_s() - c0;
	*wall = now_s() - t0;
	return 0;
}

static int ov_rec_open(struct ovrec *r, const EVP_CIPHER *c, size_t payload)
{
	unsigned char aad[TLS13_AAD] = { 23, 3, 3, 0, 0 };
	size_t outer = payload + 1 + TAGLEN;

	r->len = payload + 1; /* the inner plaintext's content type */
	aad[3] = (unsigned char)(outer >> 8);
	aad[4] = (unsigned char)(outer & 0xff);
	if (evp13_open(&r->e, c, 1, r->len, base_nonce, aad, NULL) != 0)
		return -1;
	if (evp13_open(&r->ref, B.c_dflt, 1, r->len, base_nonce, aad, NULL) != 0) {
		evp13_close(&r->e);
		return -1;
	}
	return 0;
}

static void ov_rec_close(struct ovrec *r)
{
	evp13_close(&r->e);
	evp13_close(&r->ref);
}

/* Let the engine finish what a batch (or its check) left queued: the other setting starts clean. */
static void ov_drain(double per_rec_s)
{
	double s = per_rec_s * 3;

	if (s < 0.005)
		s = 0.005;
	if (s > 0.2)
		s = 0.2;
	usleep((useconds_t)(s * 1e6));
}

struct ovres {
	double mbps[2], nsb[2], us[2], cpu_us[2], ratio, cratio;
	double rr[MAX_ROUNDS], scpu[MAX_ROUNDS]; /* per round: the ratio, serial CPU us/rec */
	int rounds;
	long n;
	struct ovcount d[2]; /* counted during the size's records, per instance */
};

static void ov_delta(struct ovcount *d, const struct ovcount *a, const struct ovcount *b)
{
	d->msgs = b->msgs - a->msgs;
	d->used = b->used - a->used;
	d->dropped = b->dropped - a->dropped;
	d->have_ahead = a->have_ahead && b->have_ahead;
}

/* The stream's first sequence number: EIP93_OVERLAP_FIRST_SEQ, or 0 as in TLS 1.3. */
static uint64_t ov_first_seq(void)
{
	const char *env = getenv("EIP93_OVERLAP_FIRST_SEQ");

	return env != NULL ? strtoull(env, NULL, 10) : 0;
}

/* Rounds of one batch per setting, order swapped each round; the nonce-jump check last. */
static int ov_size(struct ovinst *in, size_t payload, struct ovres *res)
{
	struct ovrec r[2];
	struct ovcount c0[2], c1[2];
	double mb[2][MAX_ROUNDS], nsb[2][MAX_ROUNDS], us[2][MAX_ROUNDS], cus[2][MAX_ROUNDS];
	double cr[MAX_ROUNDS], per = 0.001;
	int rc = -1, k;

	memset(res, 0, sizeof(*res));
	memset(r, 0, sizeof(r));
	for (k = 0; k < 2; k++) {
		if (ov_rec_open(&r[k], in[k].c, payload) != 0)
			goto out;
		ov_snap(&in[k], &c0[k]);
		/* The key opens (and is checked) here, untimed; TLS 1.3 starts at 0. */
		if (ov_checked(&r[k], ov_first_seq()) != 0) {
			fail("overlap: %zu-byte record, keystream-ahead = %s: first record wrong",
			     r[k].len, in[k].setting);
			goto out;
		}
	}
	res->n = B.fixed_iters;
	if (res->n <= 0) { /* batch length from the serial setting's pace */
		double w, c;

		if (ov_batch(&r[0], 4, &w, &c) != 0)
			goto out;
		per = w / 4;
		res->n = (long)(B.batch_s / (per > 0 ? per : 1e-6));
		if (res->n < 4)
			res->n = 4;
	}
	/* Untimed: both paths run once (under TCG their code is translated on first use). */
	for (k = 0; k < 2 && B.fixed_iters <= 0; k++) {
		double w, c;

		if (ov_batch(&r[k], res->n < 8 ? res->n : 8, &w, &c) != 0)
			goto out;
	}
	ov_drain(per);
	for (int i = 0; i < B.rounds; i++) {
		for (int j = 0; j < 2; j++) {
			int s = (i % 2 == 0) ? j : 1 - j;
			double w, c;
			int e;

			e = ov_checked(&r[s], r[s].e.seq + 1);
			if (e != 0) {
				fail("overlap: %zu-byte record, keystream-ahead = %s, round %d: %s",
				     r[s].len, in[s].setting, i + 1,
				     e == -2 ? "wrong ciphertext or tag" : "record failed");
				goto out;
			}
			if (ov_batch(&r[s], res->n, &w, &c) != 0) {
				fail("overlap: %zu-byte record, keystream-ahead = %s: record "
				     "failed",
				     r[s].len, in[s].setting);
				goto out;
			}
			mb[s][i] = (double)r[s].len * (double)res->n / w / 1e6;
			nsb[s][i] = c * 1e9 / ((double)r[s].len * (double)res->n);
			us[s][i] = w * 1e6 / (double)res->n;
			cus[s][i] = c * 1e6 / (double)res->n;
			ov_drain(w / (double)res->n);
		}
		res->rr[i] = mb[1][i] / mb[0][i];
		res->scpu[i] = cus[0][i];
		cr[i] = nsb[0][i] > 0 ? nsb[1][i] / nsb[0][i] : 0;
	}
	res->rounds = B.rounds;
	/* An unexpected nonce: the keystream started ahead is not the record's. */
	for (k = 0; k < 2; k++) {
		int e = ov_checked(&r[k], r[k].e.seq + 2);

		if (e != 0) {
			fail("overlap: %zu-byte record, keystream-ahead = %s, nonce jump: %s",
			     r[k].len, in[k].setting,
			     e == -2 ? "wrong ciphertext or tag" : "record failed");
			goto out;
		}
		ov_drain(per);
		ov_snap(&in[k], &c1[k]);
		ov_delta(&res->d[k], &c0[k], &c1[k]);
	}
	for (k = 0; k < 2; k++) {
		double tmp[MAX_ROUNDS];

		memcpy(tmp, mb[k], sizeof(tmp));
		res->mbps[k] = median(tmp, B.rounds);
		memcpy(tmp, nsb[k], sizeof(tmp));
		res->nsb[k] = median(tmp, B.rounds);
		memcpy(tmp, us[k], sizeof(tmp));
		res->us[k] = median(tmp, B.rounds);
		memcpy(tmp, cus[k], sizeof(tmp));
		res->cpu_us[k] = median(tmp, B.rounds);
	}
	{
		double tmp[MAX_ROUNDS];

		memcpy(tmp, res->rr, sizeof(tmp));
		res->ratio = median(tmp, B.rounds);
	}
	res->cratio = median(cr, B.rounds);
	rc = 0;
out:
	ov_rec_close(&r[0]);
	ov_rec_close(&r[1]);
	return rc;
}

/* The payload sizes: EIP93_OVERLAP_SIZES or 4, 16 and 32 KiB. */
static int ov_sizes(size_t *sz)
{
	const char *env = getenv("EIP93_OVERLAP_SIZES");
	int n = 0;

	if (env == NULL || env[0] == '\0') {
		sz[0] = 4096;
		sz[1] = 16384;
		sz[2] = 32768;
		return 3;
	}
	while (*env != '\0' && n < OV_MAXSIZES) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		if (end == env || v == 0 || v > OV_MAXLEN || (*end != ',' && *end != '\0')) {
			fail("overlap: EIP93_OVERLAP_SIZES: sizes in bytes, comma-separated, "
			     "1..%u",
			     OV_MAXLEN);
			return 0;
		}
		sz[n++] = v;
		env = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* The functional verdicts of one size: which path each instance took. */
static void ov_judge(const struct ovinst *in, const struct ovres *res, size_t len)
{
	long recs = res->n * res->rounds + res->rounds + 2; /* timed, checked, first and jump */

	for (int k = 0; k < 2; k++)
		if (res->d[k].msgs < (uint64_t)recs)
			fail("overlap: %zu-byte records, keystream-ahead = %s: %llu engine "
			     "messages "
			     "for %ld records (software measured)",
			     len, in[k].setting, (unsigned long long)res->d[k].msgs, recs);
	if (!res->d[1].have_ahead)
		return;
	if (res->d[1].used == 0)
		fail("overlap: %zu-byte records, keystream-ahead = on: no keystream used ahead "
		     "(%llu dropped)",
		     len, (unsigned long long)res->d[1].dropped);
	if (res->d[0].used != 0 || res->d[0].dropped != 0)
		fail("overlap: %zu-byte records, keystream-ahead = off: %llu used, %llu dropped",
		     len, (unsigned long long)res->d[0].used,
		     (unsigned long long)res->d[0].dropped);
	if (res->d[1].dropped == 0)
		printf("   note: %zu-byte records: the nonce jump dropped nothing\n", len);
}

void section_overlap(void)
{
	static struct ovinst in[2] = { { "serial", "off", "", NULL, NULL, NULL },
				       { "overlapped", "on", "", NULL, NULL, NULL } };
	char alg[16];
	size_t sz[OV_MAXSIZES];
	struct ovres res[OV_MAXSIZES];
	int nsz = ov_sizes(sz), have = 1;

	snprintf(alg, sizeof(alg), "AES-%zu-GCM", B.keylen * 8);
	printf("\n8. One TLS 1.3 stream, serial vs overlapped (keystream-ahead = off / on), %s\n",
	       B.kalg);
	if (nsz == 0)
		return;
	if (ov_open(&in[0], alg) != 0 || ov_open(&in[1], alg) != 0)
		goto out;
	printf("   one encryption context per setting, records back to back (nonce = IV XOR seq,\n"
	       "   5-byte AAD, payload + 1 content-type byte); %d rounds, a batch of ~%.0f ms per\n"
	       "   setting and round, the order swapped each round, the engine drained between\n"
	       "   batches; CPU = getrusage user + system of this process; both instances\n"
	       "   max-size = %u; the first record's sequence number %llu; the caller's own\n"
	       "   work after each record %.0f us (EIP93_OVERLAP_WORK_US)\n\n",
	       B.rounds, B.batch_s * 1000, OV_MAXLEN, (unsigned long long)ov_first_seq(),
	       ov_work_s() * 1e6);
	for (int i = 0; i < nsz; i++) {
		if (ov_size(in, sz[i], &res[i]) != 0)
			goto out;
		ov_judge(in, &res[i], sz[i] + 1);
		have = have && res[i].d[1].have_ahead;
	}
	if (!have)
		printf("   keystream-ahead counters absent: this provider has no keystream-ahead "
		       "(its config key is\n   never read): both settings measured the serial "
		       "path\n\n");
	printf("| record B | serial MB/s | overlapped MB/s | overlapped/serial | serial CPU ns/B | "
	       "overlapped CPU ns/B | CPU on/off | serial us/rec | serial CPU us/rec | "
	       "overlapped us/rec | overlapped CPU us/rec | records/batch | ahead used | "
	       "ahead dropped |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < nsz; i++) {
		const struct ovres *q = &res[i];
		char used[24], dropped[24];

		snprintf(used, sizeof(used), q->d[1].have_ahead ? "%llu" : "-",
			 (unsigned long long)q->d[1].used);
		snprintf(dropped, sizeof(dropped), q->d[1].have_ahead ? "%llu" : "-",
			 (unsigned long long)q->d[1].dropped);
		printf("| %zu | %.2f | %.2f | %.3fx | %.1f | %.1f | %.3fx | %.1f | %.1f | %.1f | "
		       "%.1f | %ld | %s | %s |\n",
		       sz[i] + 1, q->mbps[0], q->mbps[1], q->ratio, q->nsb[0], q->nsb[1], q->cratio,
		       q->us[0], q->cpu_us[0], q->us[1], q->cpu_us[1], q->n, used, dropped);
	}
	printf("\n   per round, overlapped/serial:\n");
	for (int i = 0; i < nsz; i++) {
		printf("   %zu:", sz[i] + 1);
		for (int j = 0; j < res[i].rounds; j++)
			printf(" %.3f", res[i].rr[j]);
		printf("\n");
	}
	printf("   per round, serial CPU us/rec (CPU time only grows with the host's load):\n");
	for (int i = 0; i < nsz; i++) {
		double lo = res[i].scpu[0];

		printf("   %zu:", sz[i] + 1);
		for (int j = 0; j < res[i].rounds; j++) {
			printf(" %.1f", res[i].scpu[j]);
			lo = res[i].scpu[j] < lo ? res[i].scpu[j] : lo;
		}
		printf(" (min %.1f)\n", lo);
	}
	printf("   goal: >= 1.4x where engine and CPU times are comparable, never below 1.0x, "
	       "CPU/B not higher (printed, not asserted)\n");
out:
	ov_close(&in[0]);
	ov_close(&in[1]);
}
