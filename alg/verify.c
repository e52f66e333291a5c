// SPDX-License-Identifier: Apache-2.0
/*
 * The integrity check of every engine result (SPEC "Integrity of every
 * engine message").  The engine computes only the CTR keystream; GHASH runs
 * over whatever ciphertext results, so a wrong keystream gives output that
 * is wrong and still authenticates.  Before anything the engine wrote is
 * released, the keystream of some 16-byte blocks is recomputed here (AES of
 * the GCM counter blocks IV || 2+i with the key we hold) and compared with
 * what the engine produced: input XOR output.  The blocks:
 *   - the first and the last (message edges: short writes, off-by-one DMA);
 *   - the blocks on both sides of every page boundary, where buffer-edge
 *     faults land (DMA descriptors, cache lines): of the buffer the engine
 *     wrote into, and of the kernel's own buffers, which AF_ALG fills page
 *     by page starting with the AAD (so their boundaries fall at payload
 *     offsets k * 4096 - aadlen);
 *   - one block chosen at random per message, so a fault anywhere else that
 *     persists is caught within a few messages (per message with
 *     probability 1 / (blocks - 2) for one wrong block), seeded without the
 *     DRBG so the provider takes nothing from the application's random stream.
 * At 4 KiB that is at most six blocks: one AES call of <= 96 bytes.
 */
#include "ctx.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define BLK 16
#define PAGE 4096
/* First, last, random, and two per page boundary (two kinds) of a 64 KiB message. */
#define SAMPLES (3 + 4 * (EIP93_ROUTE_MAX_SIZE_CEIL / PAGE + 1))

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

int eip93_verify_key_init(struct gcm_ctx *ctx)
{
	struct gcm_key *k = &ctx->key;
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

void eip93_verify_key_free(struct gcm_ctx *ctx)
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

/* Add block @b to the sorted set @idx of @n (capacity SAMPLES), once. */
static void pick(size_t *idx, size_t *n, size_t b)
{
	size_t i = *n;

	while (i > 0 && idx[i - 1] > b)
		i--;
	if ((i > 0 && idx[i - 1] == b) || *n == SAMPLES)
		return;
	memmove(idx + i + 1, idx + i, (*n - i) * sizeof(*idx));
	idx[i] = b;
	(*n)++;
}

/* The blocks on both sides of every page boundary at payload offsets first + k * PAGE. */
static void pick_edges(size_t *idx, size_t *n, size_t first, size_t len)
{
	for (size_t q = first; q < len; q += PAGE) {
		if (q == 0)
			continue;
		pick(idx, n, (q - 1) / BLK);
		pick(idx, n, q / BLK);
	}
}

int eip93_verify_keystream(struct gcm_ctx *ctx, const unsigned char *iv, size_t aadlen,
			   const unsigned char *a, const unsigned char *b, size_t len)
{
	unsigned char ctr[SAMPLES * BLK], ks[SAMPLES * BLK];
	size_t nblocks = (len + BLK - 1) / BLK, idx[SAMPLES], n = 0;
	unsigned char diff = 0;
	int outl = 0;

	if (nblocks == 0 || !ctx->env->verify)
		return 0;
	if (ctx->key.ecb == NULL)
		return -ENOMEM;
	pick(idx, &n, 0);
	pick(idx, &n, nblocks - 1);
	if (nblocks > 2)
		pick(idx, &n, 1 + (size_t)(next_rand(&ctx->key.rng) % (nblocks - 2)));
	pick_edges(idx, &n, (PAGE - (uintptr_t)b % PAGE) % PAGE, len);
	pick_edges(idx, &n, (PAGE - aadlen % PAGE) % PAGE, len);
	for (size_t s = 0; s < n; s++) {
		uint32_t c = (uint32_t)(2 + idx[s]);

		memcpy(ctr + s * BLK, iv, EIP93_ENGINE_IVLEN);
		ctr[s * BLK + 12] = (unsigned char)(c >> 24);
		ctr[s * BLK + 13] = (unsigned char)(c >> 16);
		ctr[s * BLK + 14] = (unsigned char)(c >> 8);
		ctr[s * BLK + 15] = (unsigned char)c;
	}
	if (!EVP_EncryptUpdate(ctx->key.ecb, ks, &outl, ctr, (int)(n * BLK)) ||
	    outl != (int)(n * BLK))
		return -ENOMEM;
	for (size_t s = 0; s < n; s++) {
		size_t off = idx[s] * BLK, m = len - off < BLK ? len - off : BLK;

		for (size_t i = 0; i < m; i++)
			diff |= (unsigned char)(a[off + i] ^ b[off + i] ^ ks[s * BLK + i]);
	}
	OPENSSL_cleanse(ks, n * BLK);
	return diff == 0 ? 0 : -EBADMSG;
}
