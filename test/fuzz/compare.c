// SPDX-License-Identifier: Apache-2.0
/*
 * Lockstep: each step of the script runs on eip93 and then on the default
 * provider, and the two transcripts of that step must match in every call,
 * return value, length and byte.  A mismatch is described in words (the
 * step, the call, both answers, the script) and, when fuzzing, aborts so
 * libFuzzer keeps the input.
 *
 * Randomness is made deterministic so that outputs depending on it (the
 * TLS 1.2 explicit IV a 4-byte fixed IV leaves to the DRBG) can be compared
 * byte for byte: a RAND_METHOD with one stream per side, both seeded alike
 * for every input.  OpenSSL 3.0's RAND_bytes_ex honours a non-default
 * RAND_METHOD for every library context, the delegate's own included.
 */
#define OPENSSL_SUPPRESS_DEPRECATED /* RAND_METHOD: the only seam for the delegate's DRBG */

#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/rand.h>

static uint64_t rnd[2];
static int rnd_side;

static int rnd_bytes(unsigned char *buf, int num)
{
	uint64_t *x = &rnd[rnd_side];

	for (int i = 0; i < num; i++) {
		*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
		buf[i] = (unsigned char)(*x >> 56);
	}
	return 1;
}

static int rnd_status(void)
{
	return 1;
}

static RAND_METHOD rnd_method = {
	.bytes = rnd_bytes,
	.pseudorand = rnd_bytes,
	.status = rnd_status,
};

int fz_rand_install(void)
{
	return RAND_set_rand_method(&rnd_method);
}

static void describe(const struct fz_side *a, const struct fz_side *b, size_t i, char *msg,
		     size_t n)
{
	const struct fz_entry *x, *y;

	if (a->tr.e == NULL || b->tr.e == NULL) {
		snprintf(msg, n, "no calls to compare");
		return;
	}
	x = &a->tr.e[i];
	y = &b->tr.e[i];
	if (strcmp(x->what, y->what) != 0) {
		snprintf(msg, n, "call %zu: different calls (%s: '%s', %s: '%s')", i, a->label,
			 x->what, b->label, y->what);
	} else if (x->ret != y->ret || x->len != y->len) {
		snprintf(msg, n,
			 "call %zu '%s': %s returned %lld (length %lld), %s returned %lld (length "
			 "%lld)",
			 i, x->what, a->label, x->ret, x->len, b->label, y->ret, y->len);
	} else if (x->n != y->n) {
		snprintf(msg, n, "call %zu '%s': %s wrote %zu bytes, %s %zu", i, x->what, a->label,
			 x->n, b->label, y->n);
	} else {
		size_t j = 0, k;

		while (a->tr.buf[x->off + j] == b->tr.buf[y->off + j])
			j++;
		k = j;
		while (k < x->n && a->tr.buf[x->off + k] != b->tr.buf[y->off + k])
			k++;
		snprintf(
			msg, n,
			"call %zu '%s': bytes differ from offset %zu of %zu (%s 0x%02x, %s 0x%02x; "
			"first run of differing bytes %zu long)",
			i, x->what, j, x->n, a->label, a->tr.buf[x->off + j], b->label,
			b->tr.buf[y->off + j], k - j);
	}
}

/* The index of the first differing entry, or -1. */
static long first_difference(const struct fz_tr *a, const struct fz_tr *b)
{
	size_t n = a->ne < b->ne ? a->ne : b->ne;

	if (a->e == NULL || b->e == NULL)
		return a->ne == b->ne ? -1 : 0;
	for (size_t i = 0; i < n; i++) {
		const struct fz_entry *x = &a->e[i], *y = &b->e[i];

		if (strcmp(x->what, y->what) != 0 || x->ret != y->ret || x->len != y->len ||
		    x->n != y->n ||
		    (x->n != 0 && memcmp(a->buf + x->off, b->buf + y->off, x->n) != 0))
			return (long)i;
	}
	return a->ne == b->ne ? -1 : (long)n;
}

static void report(const struct fz_script *s, const struct fz_side *a, const struct fz_side *b,
		   long step, long i)
{
	char msg[600], op[400];

	if ((size_t)i < a->tr.ne && (size_t)i < b->tr.ne)
		describe(a, b, (size_t)i, msg, sizeof(msg));
	else
		snprintf(msg, sizeof(msg), "%s made %zu calls, %s %zu", a->label, a->tr.ne,
			 b->label, b->tr.ne);
	if (step < 0)
		snprintf(op, sizeof(op), "the first init (cipher, key #0, IV #0)");
	else
		fz_describe_op(s, &s->ops[step], op, sizeof(op));
	fprintf(stderr, "DIVERGENCE at step %ld (%s): %s\n", step, op, msg);
	fz_print(stderr, s, step);
}

/* EIP93_FUZZ_TRACE=1: every call of every step, both sides, on stderr. */
static void trace(const struct fz_side *a, const struct fz_side *b, long step)
{
	static int on = -1;

	if (on < 0) {
		const char *v = getenv("EIP93_FUZZ_TRACE");

		on = v != NULL && *v == '1';
	}
	if (!on)
		return;
	for (size_t i = 0; i < a->tr.ne || i < b->tr.ne; i++) {
		const struct fz_entry *x = i < a->tr.ne ? &a->tr.e[i] : NULL;
		const struct fz_entry *y = i < b->tr.ne ? &b->tr.e[i] : NULL;

		fprintf(stderr,
			"  [%ld.%zu] %-40s %s %lld/%lld (%zu bytes) | %s %lld/%lld (%zu bytes)\n",
			step, i, x != NULL ? x->what : y->what, a->label, x != NULL ? x->ret : 0,
			x != NULL ? x->len : 0, x != NULL ? x->n : 0, b->label,
			y != NULL ? y->ret : 0, y != NULL ? y->len : 0, y != NULL ? y->n : 0);
	}
}

int fz_compare_run(const struct fz_script *s, struct fz_side *test, struct fz_side *ref)
{
	uint64_t seed = s->seed ^ 0x5eed5eed5eed5eedULL;
	int bad = 0;
	long d;

	rnd[0] = rnd[1] = seed;
	rnd_side = 0;
	fz_side_start(test, s);
	rnd_side = 1;
	fz_side_start(ref, s);
	trace(test, ref, -1);
	d = first_difference(&test->tr, &ref->tr);
	if (d >= 0) {
		report(s, test, ref, -1, d);
		bad = 1;
	}
	ERR_clear_error();
	for (size_t k = 0; k < s->nops && !bad; k++) {
		fz_tr_reset(&test->tr);
		fz_tr_reset(&ref->tr);
		test->opno = ref->opno = k + 1;
		rnd_side = 0;
		fz_run_op(test, &s->ops[k]);
		ERR_clear_error();
		rnd_side = 1;
		fz_run_op(ref, &s->ops[k]);
		ERR_clear_error();
		trace(test, ref, (long)k);
		d = first_difference(&test->tr, &ref->tr);
		if (d >= 0) {
			report(s, test, ref, (long)k, d);
			bad = 1;
		}
	}
	rnd_side = 0;
	fz_side_end(test);
	rnd_side = 1;
	fz_side_end(ref);
	ERR_clear_error();
	return bad ? -1 : 0;
}
