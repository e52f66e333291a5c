// SPDX-License-Identifier: Apache-2.0
/*
 * The integrity check of every engine result (docs/contract.md
 * "Integrity").  The engine computes only the CTR keystream; GHASH runs
 * over whatever ciphertext results, so a wrong keystream gives output that
 * is wrong and still authenticates.  Before anything the engine wrote is
 * released, two checks run over the input @a and the engine's output @b:
 *
 * 1. Every whole block written (eip93_verify_written()): no 16-byte block of
 *    the output may equal the same block of the input.  The callers run
 *    every request on a destination that already holds a copy of its input,
 *    so a block the engine left unencrypted, or never wrote (a skipped DMA
 *    descriptor), equals its input and is caught on every message, without
 *    AES: what is released is never plaintext nor memory the engine did not
 *    write.  (A right block equals its input only where the keystream block
 *    is zero: 2^-128; that message then goes to software, still right.)
 * 2. The keystream of some 16-byte blocks is recomputed here (AES of the GCM
 *    counter blocks IV || 2+i with the key we hold) and compared with what
 *    the engine produced: input XOR output.  A DMA or cache-maintenance
 *    fault hits bytes by the cache line (EDGE: 64 bytes on the Cortex-A53),
 *    not by the 16-byte block, so the checked blocks are every block that
 *    overlaps:
 *   - the first and the last EDGE bytes of the payload (message edges: short
 *     writes, off-by-one DMA; with a partial last block the last 16 bytes
 *     lie in two blocks, and both are checked);
 *   - EDGE bytes on both sides of every page boundary of every buffer the
 *     engine really read or wrote, as the backend reported them for this
 *     request (struct eip93_engine_pages, engine/engine.h: the caller's pages
 *     the kernel mapped, the kernel's own buffers filled from payload
 *     offset 0), where buffer-edge faults land (DMA descriptors, cache
 *     lines);
 *   - one block chosen at random per message, so a fault anywhere else that
 *     persists is caught within a few messages (per message with
 *     probability 1 / (blocks - 2) for one wrong block), seeded without the
 *     DRBG so the provider takes nothing from the application's random stream.
 * All of them in one AES-ECB call (docs/design.md has the cost per size).
 * Messages shorter than SHORT blocks are checked whole.
 */
#include "verify.h"

#include <endian.h>
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define BLK 16
#define PAGE EIP93_ENGINE_PAGE
#define EDGE 64 /* a cache line of the Cortex-A53: what a DMA or cache fault hits */
#define NPAGES (EIP93_ROUTE_MAX_SIZE_CEIL / PAGE)
#define EDGE_BLKS (EDGE / BLK)	  /* blocks of EDGE bytes from a block boundary */
#define WIN_BLKS (2 * EDGE / BLK) /* of EDGE bytes either side of one (one more if not) */
/* Below this many whole blocks, every block is checked. */
#define SHORT (2 * EDGE_BLKS + WIN_BLKS + 1)
/*
 * Blocks checked at most: the first EDGE bytes, a window per page boundary of
 * every phase, the tail (at most every block of a short message), the partial
 * last block and the random one.
 */
#define NPH EIP93_ENGINE_MAX_PHASES
#define SAMPLES (EDGE_BLKS + NPH * NPAGES * (WIN_BLKS + 1) + SHORT + 2)

/* 16 bytes as one value (GCC and Clang vector extension: SSE2, NEON or scalar). */
typedef unsigned char v16 __attribute__((vector_size(BLK)));

static const char *const ecb_names[] = { "AES-128-ECB", "AES-192-ECB", "AES-256-ECB" };

/* The fetched AES-ECB for a key length, once per provider instance. */
static EVP_CIPHER *ecb_cipher(struct eip93_alg_env *env, size_t keylen)
{
	size_t i = keylen / 8 - 2;
	EVP_CIPHER *c = atomic_load_explicit(&env->ecb[i], memory_order_acquire), *expect = NULL;

	if (c != NULL)
		return c;
	c = EVP_CIPHER_fetch(env->libctx, ecb_names[i], NULL);
	if (c == NULL)
		return NULL;
	if (!atomic_compare_exchange_strong(&env->ecb[i], &expect, c)) {
		EVP_CIPHER_free(c); /* another thread was first */
		return expect;
	}
	return c;
}

/*
 * A seed for the sampled block: unpredictable enough for a faulty engine, and
 * drawn without the DRBG, so the provider takes nothing from the random
 * stream the application (and the delegate's own IV generation) sees.
 */
static uint64_t seed(void)
{
	static atomic_ullong calls;
	struct timespec ts;
	uint64_t x;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (uint64_t)atomic_fetch_add(&calls, 1) * 0x9e3779b97f4a7c15ULL ^
	    ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x | 1; /* xorshift never leaves zero */
}

int eip93_verify_key_init(struct eip93_cctx *ctx)
{
	struct eip93_key *k = &ctx->key;
	EVP_CIPHER *c = ecb_cipher(ctx->env, k->len);

	eip93_verify_key_free(ctx);
	if (c == NULL)
		return -ENOMEM;
	k->ecb = EVP_CIPHER_CTX_new();
	if (k->ecb == NULL || !EVP_EncryptInit_ex2(k->ecb, c, k->bytes, NULL, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(k->ecb, 0)) {
		eip93_verify_key_free(ctx);
		return -ENOMEM;
	}
	k->rng = seed();
	return 0;
}

void eip93_verify_key_free(struct eip93_cctx *ctx)
{
	EVP_CIPHER_CTX_free(ctx->key.ecb); /* cleanses its key schedule */
	ctx->key.ecb = NULL;
}

static uint64_t next_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

uint64_t eip93_verify_rand(struct eip93_cctx *ctx)
{
	return next_rand(&ctx->key.rng);
}

/* The GCM counter block IV || 2+i of payload block i into @p. */
static void counter(v16 *p, v16 tmpl, size_t i)
{
	uint32_t be = htobe32((uint32_t)(2 + i));

	*p = tmpl;
	memcpy((unsigned char *)p + 12, &be, sizeof(be));
}

/* a XOR b XOR ks of block @i (zero: the keystream is right). */
static v16 xor3(const unsigned char *a, const unsigned char *b, const v16 *ks, size_t i)
{
	v16 x, y;

	memcpy(&x, a + i * BLK, BLK);
	memcpy(&y, b + i * BLK, BLK);
	return x ^ y ^ *ks;
}

/*
 * The windows around the page boundaries of one kind, at payload offsets
 * @q, @q + PAGE, ...: their first blocks into @w and their counter blocks
 * from *@p on (each window is WIN_BLKS blocks, one more when the boundary is
 * not at a block boundary), up to the first that reaches block *@tail,
 * which only lowers *@tail (the tail, from there to the end, covers it).
 * Returns how many windows.
 */
static size_t windows(size_t q, size_t len, size_t *tail, size_t *w, v16 **p, v16 tmpl)
{
	size_t n = 0;
	int nine = q % BLK != 0;
	v16 *c = *p;

	for (; q < len; q += PAGE) {
		size_t s = q < EDGE ? 0 : (q - EDGE) / BLK;

		if (s + WIN_BLKS + (size_t)nine > *tail) {
			*tail = s < *tail ? s : *tail;
			break;
		}
		w[n++] = s;
#pragma GCC unroll 8
		for (size_t i = 0; i < WIN_BLKS; i++)
			counter(c++, tmpl, s + i);
		if (nine)
			counter(c++, tmpl, s + WIN_BLKS);
	}
	*p = c;
	return n;
}

/* The OR of xor3() over those windows; *@ks moves past their keystream. */
static v16 window_xor3(const unsigned char *a, const unsigned char *b, const v16 **ks,
		       const size_t *w, size_t n, int nine)
{
	const v16 *p = *ks;
	v16 acc = { 0 };

	for (size_t k = 0; k < n; k++) {
#pragma GCC unroll 8
		for (size_t i = 0; i < WIN_BLKS; i++)
			acc |= xor3(a, b, p++, w[k] + i);
		if (nine)
			acc |= xor3(a, b, p++, w[k] + WIN_BLKS);
	}
	*ks = p;
	return acc;
}

/* Four 32-bit lanes (GCC and Clang vector extension: SSE2, NEON or scalar). */
typedef uint32_t v4u __attribute__((vector_size(BLK)));

int eip93_verify_written(const unsigned char *a, const unsigned char *b, size_t len)
{
	size_t n = len / BLK, i = 0;
	v4u acc = { 0 }, x, y;
	uint64_t d[2];

	/*
	 * A block left as its input is equal in all its bytes, so half of it
	 * tells: each 16-byte compare spans the second half of block i and the
	 * first half of block i + 1, two blocks a compare.  A lane equal by
	 * chance (2^-32) only sends the message to the exact pass below.
	 */
#pragma GCC unroll 4
	for (; i + 2 <= n; i += 2) {
		memcpy(&x, a + i * BLK + BLK / 2, BLK);
		memcpy(&y, b + i * BLK + BLK / 2, BLK);
		acc |= (v4u)(x == y);
	}
	if (i < n) { /* an odd last whole block */
		memcpy(&x, a + i * BLK, BLK);
		memcpy(&y, b + i * BLK, BLK);
		acc |= (v4u)(x == y);
	}
	memcpy(d, &acc, sizeof(d));
	if ((d[0] | d[1]) == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (memcmp(a + i * BLK, b + i * BLK, BLK) == 0)
			return -EBADMSG;
	return 0;
}

int eip93_verify_keystream(struct eip93_cctx *ctx, const unsigned char *iv,
			   const struct eip93_engine_pages *pg, const unsigned char *a,
			   const unsigned char *b, size_t len)
{
	v16 ks[SAMPLES], acc = { 0 }, tmpl = { 0 }, x, y, z, *p = ks;
	const v16 *k;
	size_t w[NPH][NPAGES], nw[NPH] = { 0 }, q[NPH], nph = 0, nks, rb = 0;
	size_t whole = len / BLK, part = len % BLK, edge = EDGE_BLKS, tail, last;
	uint64_t d[2];

	if (len == 0 || !ctx->env->verify)
		return 0;
	if (ctx->key.ecb == NULL || len > EIP93_ROUTE_MAX_SIZE_CEIL)
		return -ENOMEM;
	/* The phases' first boundaries after payload offset 0 (the head covers 0). */
	for (unsigned int j = 0; pg != NULL && j < pg->n && j < NPH; j++)
		q[nph++] = pg->q[j] == 0 ? PAGE : pg->q[j];
	if (nph == 0) /* a backend that said nothing: the output buffer's own pages */
		q[nph++] = PAGE - (uintptr_t)b % PAGE;

	/*
	 * The blocks checked, as their counter blocks IV || 2+i in ks, in this
	 * order: the first EDGE bytes (@edge blocks); the windows of EDGE bytes
	 * on both sides of every page boundary of every phase (fixed sizes, so
	 * that their loops unroll: where two overlap, or one overlaps the
	 * first EDGE bytes, a block is checked twice, which costs less than
	 * merging them); the tail, from the first window that reaches the last
	 * EDGE bytes (blocks tail .. last) and those bytes (@edge blocks from
	 * last); the partial last block, right after the tail's last block (see
	 * below); one random block.
	 */
	if (whole < SHORT) {
		edge = 0; /* a short message: every block is in the tail */
		tail = 0;
		last = whole;
	} else {
		last = whole - EDGE_BLKS;
		tail = last;
	}
	memcpy(&tmpl, iv, EIP93_ENGINE_IVLEN);
#pragma GCC unroll 4
	for (size_t i = 0; i < edge; i++)
		counter(p++, tmpl, i);
	if (edge != 0)
		for (size_t j = 0; j < nph; j++)
			nw[j] = windows(q[j], len, &tail, w[j], &p, tmpl);
	for (size_t i = tail; i < last; i++)
		counter(p++, tmpl, i);
#pragma GCC unroll 4
	for (size_t i = 0; i < edge; i++)
		counter(p++, tmpl, last + i);
	if (part != 0)
		counter(p++, tmpl, whole);
	if (whole + (part != 0) > 2) {
		rb = 1 + (size_t)(next_rand(&ctx->key.rng) % (whole + (part != 0) - 2));
		counter(p++, tmpl, rb);
	}

	/* Their keystream: one AES-ECB call over the counter blocks. */
	nks = (size_t)(p - ks);
	if (nks == 0 || EVP_Cipher(ctx->key.ecb, (unsigned char *)ks, (const unsigned char *)ks,
				   (unsigned int)(nks * BLK)) <= 0) {
		explicit_bzero(ks, nks * BLK);
		return nks == 0 ? 0 : -ENOMEM;
	}

	/* a XOR b XOR keystream: zero in every checked byte, or the engine was wrong. */
	k = ks;
#pragma GCC unroll 4
	for (size_t i = 0; i < edge; i++)
		acc |= xor3(a, b, k++, i);
	for (size_t j = 0; j < nph; j++)
		acc |= window_xor3(a, b, &k, w[j], nw[j], q[j] % BLK != 0);
	for (size_t i = tail; i < last; i++)
		acc |= xor3(a, b, k++, i);
#pragma GCC unroll 4
	for (size_t i = 0; i < edge; i++)
		acc |= xor3(a, b, k++, last + i);
	if (part != 0 && whole > 0) {
		/*
		 * The last 16 bytes, across the last whole block and the partial
		 * one, against their keystream: the tail's last block and the
		 * partial block's, which follow each other in ks.
		 */
		memcpy(&x, a + len - BLK, BLK);
		memcpy(&y, b + len - BLK, BLK);
		memcpy(&z, (const unsigned char *)k - BLK + part, BLK);
		acc |= x ^ y ^ z;
		k++;
	} else if (part != 0) {
		for (size_t i = 0; i < part; i++)
			acc[0] |= (unsigned char)(a[i] ^ b[i] ^ ((const unsigned char *)k)[i]);
		k++;
	}
	if (rb != 0)
		acc |= xor3(a, b, k, rb);
	explicit_bzero(ks, nks * BLK);
	memcpy(d, &acc, sizeof(d));
	return (d[0] | d[1]) == 0 ? 0 : -EBADMSG;
}
