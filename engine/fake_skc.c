// SPDX-License-Identifier: Apache-2.0
/*
 * Test builds only: the fake's skcipher requests (a key opened on
 * ctr(aes-eip93), cbc(aes-eip93) or ecb(aes-eip93)), and the two bugs of the EIP93 driver
 * it can model (docs/design.md "The engine's known bugs"), named in the
 * environment variable EIP93_TEST_FAKE_BUGS (a comma list) or set with
 * eip93_fake_set_bugs():
 *   direction  a CBC decryption marks its transform inbound and an
 *              encryption never clears it: an encryption after a decryption
 *              on one key computes a decryption (today's mainline driver);
 *   ctr32      the hardware's 32-bit counter without carry: past a wrap of
 *              the counter block's last 32 bits inside one request, the
 *              blocks use a counter whose first 96 bits did not move.
 * The result goes through the fault plan as AES-CTR's always did: the
 * request's effective keystream (input XOR the right output) is what the
 * plan's keystream, nowrite, tail, page, tagmask and skip faults change.
 */
#include "fake.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#define BLOCK EIP93_FAKE_BLOCK

static atomic_int bugs = -1; /* EIP93_FAKE_BUG_*; -1: not read yet */

void eip93_fake_bugs_reset(void)
{
	atomic_store(&bugs, -1);
}

void eip93_fake_set_bugs(unsigned int b)
{
	atomic_store(&bugs, (int)b);
}

static unsigned int bugs_now(void)
{
	int b = atomic_load(&bugs);
	const char *v;

	if (b >= 0)
		return (unsigned int)b;
	v = getenv("EIP93_TEST_FAKE_BUGS");
	b = 0;
	if (v != NULL && strstr(v, "direction") != NULL)
		b |= EIP93_FAKE_BUG_DIRECTION;
	if (v != NULL && strstr(v, "ctr32") != NULL)
		b |= EIP93_FAKE_BUG_CTR32;
	atomic_store(&bugs, b);
	return (unsigned int)b;
}

/* @n bytes of @in through @c (initialised) into @out; 1 or 0. */
static int run(EVP_CIPHER_CTX *c, unsigned char *out, const unsigned char *in, size_t n)
{
	int got;

	return n == 0 || (EVP_CipherUpdate(c, out, &got, in, (int)n) && (size_t)got == n);
}

/*
 * The right output of the request (as the modelled driver computes it)
 * into @good: CBC in the direction @dir, CTR from @iv, with the counter
 * wrapping in 32 bits when @ctr32.
 */
static int compute(const struct fake_key *fk, const unsigned char *iv, int dir, int ctr32,
		   const unsigned char *in, unsigned char *good, size_t len)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	unsigned char blk[BLOCK];
	size_t first = len;
	int ok;

	if (ctr32 && fk->mode == EIP93_EMODE_CTR) {
		uint32_t low = (uint32_t)iv[12] << 24 | (uint32_t)iv[13] << 16 |
			       (uint32_t)iv[14] << 8 | iv[15];
		uint64_t left = ((uint64_t)1 << 32) - low; /* blocks before the wrap */

		if ((uint64_t)len > left * BLOCK)
			first = (size_t)left * BLOCK;
	}
	ok = c != NULL && EVP_CipherInit_ex2(c, fk->skc, fk->key, iv, dir, NULL) &&
	     EVP_CIPHER_CTX_set_padding(c, 0) && run(c, good, in, first);
	if (ok && first < len) { /* past the wrap: the first 96 bits stay */
		memcpy(blk, iv, 12);
		memset(blk + 12, 0, 4);
		ok = EVP_CipherInit_ex2(c, NULL, NULL, blk, dir, NULL) &&
		     run(c, good + first, in + first, len - first);
	}
	EVP_CIPHER_CTX_free(c);
	return ok;
}

int eip93_fake_skc(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc)
{
	return eip93_fake_skc_req(k, m, enc, 0);
}

int eip93_fake_skc_req(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc,
		       int ahead)
{
	struct fake_key *fk = k->priv;
	unsigned char *ks = NULL, *d = NULL, *prior = NULL;
	unsigned int b = bugs_now();
	struct eip93_fake_plan p;
	int r, hit, dir = 1;

	eip93_fake_count_skc();
	if (fk == NULL)
		return -EBADF;
	if (fk->skc == NULL || (fk->mode != EIP93_EMODE_CTR && m->len % BLOCK != 0) ||
	    (fk->mode == EIP93_EMODE_ECB) != (m->iv == NULL))
		return -EINVAL;
	if (fk->mode == EIP93_EMODE_CBC) {
		dir = enc;
		if (!enc)
			fk->inbound = 1;
		else if (fk->inbound && (b & EIP93_FAKE_BUG_DIRECTION))
			dir = 0; /* the transform still says inbound */
	}
	hit = ahead && eip93_fake_planned(EIP93_FAKE_AHEAD, &p);
	if (!hit)
		hit = eip93_fake_planned(enc ? EIP93_FAKE_SEAL : EIP93_FAKE_UNSEAL, &p);
	if (hit && p.kind == EIP93_FAKE_BADMSG)
		hit = 0; /* no tag here to refuse */
	r = hit ? eip93_fake_failed_call(&p, m) : 0;
	if (r != 0)
		return r;
	r = -ENOMEM;
	ks = OPENSSL_zalloc(m->len + BLOCK);
	d = OPENSSL_zalloc(m->len + BLOCK);
	if (hit && p.kind == EIP93_FAKE_SKIP)
		prior = eip93_fake_snapshot(m->out, m->len);
	if (ks == NULL || d == NULL || (hit && p.kind == EIP93_FAKE_SKIP && prior == NULL) ||
	    !compute(fk, m->iv, dir, (b & EIP93_FAKE_BUG_CTR32) != 0, m->in, ks, m->len))
		goto out;
	for (size_t i = 0; i < m->len; i++)
		ks[i] ^= m->in[i]; /* the effective keystream */
	if (hit && p.kind == EIP93_FAKE_TAGMASK) {
		p.kind = EIP93_FAKE_KEYSTREAM;
		p.block = 0;
		p.count = 1;
	}
	if (hit)
		eip93_fake_keystream_fault(&p, ks, d, m->len, m);
	for (size_t i = 0; i < m->len; i++)
		m->out[i] = m->in[i] ^ ks[i] ^ d[i];
	if (hit && p.kind == EIP93_FAKE_SKIP)
		eip93_fake_unwrite(&p, prior, m->out, m->len);
	/* AF_ALG's send buffer from offset 0 and /dev/crypto's bounce page; the source and the
	 * destination /dev/crypto maps; AF_ALG's destination. */
	eip93_engine_pages_add(m->pages, 0);
	eip93_engine_pages_buf(m->pages, m->in);
	eip93_engine_pages_buf(m->pages, m->out);
	r = 0;
out:
	OPENSSL_clear_free(prior, m->len + 1);
	OPENSSL_clear_free(ks, m->len + BLOCK);
	OPENSSL_clear_free(d, m->len + BLOCK);
	return r;
}
