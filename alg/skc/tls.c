// SPDX-License-Identifier: Apache-2.0
/*
 * TLS 1.2 CBC records (tls-version set by libssl, 3.0 and 3.5 alike): each
 * update is one record, in place.  The default provider pads a record it
 * encrypts (padnum = 16 - len % 16 bytes of padnum - 1) and, decrypting,
 * drops the explicit IV (the record's first block), then the padding and
 * the MAC (tls-mac-size bytes; 0 with encrypt-then-MAC, when libssl checked
 * the MAC before), checking the padding in constant time and handing out the
 * MAC (tls-mac) copied in constant time, or random bytes when the padding
 * was bad.  An eligible record does the same around one engine request:
 * the padding (encrypting) or that removal (decrypting) here, the CBC on
 * the engine.  The HMAC stays in libssl: two passes.  The removal is this
 * project's own constant-time code (docs/design.md "TLS 1.2 CBC records");
 * the record layer above never sees the difference.  Other versions (SSL 3,
 * TLS 1.0, 1.1, DTLS) and every record that would fail go to the delegate.
 */
#include "skc_ctx.h"
#include "../pipeline.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>
#include <openssl/proverr.h>
#include <openssl/rand.h>

#define BLK EIP93_SKC_BLK
#define MAXPAD 256	       /* padding bytes with the length byte, at most */
#define MAXMAC EVP_MAX_MD_SIZE /* the largest MAC a record carries */

void eip93_skc_tls_forget(struct skc_ctx *ctx)
{
	OPENSSL_clear_free(ctx->mac, ctx->maclen);
	ctx->mac = NULL;
	ctx->maclen = 0;
	ctx->mac_ours = 0;
}

int eip93_skc_tls_mac(struct skc_ctx *ctx, OSSL_PARAM params[])
{
	OSSL_PARAM *p;

	if (!ctx->mac_ours || (p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS_MAC)) == NULL)
		return 1;
	/* As the delegate: the MAC's address, the length tls-mac-size says now. */
	if (!OSSL_PARAM_set_octet_ptr(p, ctx->mac, ctx->sh.tlsmacsize)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	return 1;
}

/*
 * Masks without branches on the values: all ones or zero.  Every value
 * compared here (lengths, offsets, a padding byte) is far below 2^(W-1), so
 * the sign bit of a difference is the comparison.
 */
#define TOP (sizeof(size_t) * 8 - 1)

/* All ones when @a < @b. */
static size_t ct_lt(size_t a, size_t b)
{
	return (size_t)0 - ((a - b) >> TOP);
}

/* All ones when @a >= @b. */
static size_t ct_ge(size_t a, size_t b)
{
	return ~ct_lt(a, b);
}

/* All ones when @a == @b. */
static size_t ct_eq(size_t a, size_t b)
{
	return ct_lt(a ^ b, 1);
}

/*
 * The padding of the decrypted record @rec (*@len bytes, its explicit IV
 * gone) checked and dropped, in constant time over the last MAXPAD bytes;
 * then the MAC (@macsize bytes before the padding) copied into @mac, in
 * constant time over the last @macsize + MAXPAD bytes, or @rand where the
 * padding was bad.  Returns 0 when the record is too short to hold what it
 * must (public), or, without a MAC, when the padding is bad; else 1 with
 * *@len the payload's length.
 */
static int unpad(const unsigned char *rec, size_t *len, size_t macsize, unsigned char *mac,
		 const unsigned char *rand)
{
	unsigned char rot[MAXMAC];
	size_t n = *len, pad, good, end, start, from, off = 0, in_mac = 0;

	if (1 + macsize > n)
		return 0;
	pad = rec[n - 1];
	good = ct_ge(n, 1 + macsize + pad);
	for (size_t i = 0; i < MAXPAD && i < n; i++) {
		size_t inpad = ct_ge(pad, i); /* byte n-1-i is padding */

		good &= ~(inpad & (pad ^ rec[n - 1 - i]));
	}
	good = ct_eq(good & 0xff, 0xff);
	n -= good & (pad + 1);
	if (macsize == 0) {
		*len = n;
		return good != 0;
	}
	/* The MAC ends at n, which varies by at most MAXPAD within the record: scan that far. */
	end = n;
	start = n - macsize;
	from = *len > macsize + MAXPAD ? *len - (macsize + MAXPAD) : 0;
	memset(rot, 0, sizeof(rot));
	for (size_t i = from, j = 0; i < *len; i++) {
		size_t at_start = ct_eq(i, start);

		in_mac = (in_mac | at_start) & ct_lt(i, end);
		off |= j & at_start;
		rot[j] |= (unsigned char)(rec[i] & in_mac);
		j = (j + 1) & ct_lt(j + 1, macsize);
	}
	/* rot holds the MAC rotated by off: every byte read for every output byte. */
	for (size_t i = 0; i < macsize; i++) {
		unsigned char b = 0;
		size_t want = (off + i) - (macsize & ct_ge(off + i, macsize));

		for (size_t k = 0; k < macsize; k++)
			b |= (unsigned char)(rot[k] & ct_eq(k, want));
		mac[i] = (unsigned char)((b & good) | (rand[i] & ~good));
	}
	OPENSSL_cleanse(rot, sizeof(rot));
	*len = n - macsize;
	return 1;
}

/* Could the engine take this record?  Its engine bytes into *@len. */
static int record_fits(struct skc_ctx *ctx, const unsigned char *out, size_t outsize,
		       const unsigned char *in, size_t inl, size_t *len)
{
	const struct eip93_skc_shadow *sh = &ctx->sh;

	*len = sh->enc ? inl + (BLK - inl % BLK) : inl;
	if (!ctx->cbc || sh->tlsver != TLS1_2_VERSION || in != out || !sh->pad || !sh->iv_set ||
	    outsize < *len || sh->tlsmacsize > MAXMAC)
		return 0;
	if (sh->enc != sh->key_enc) /* the delegate's key schedule is the other direction's */
		return 0;
	/* Decrypting: whole blocks, room for the explicit IV, the length byte and the MAC. */
	return sh->enc || (inl % BLK == 0 && inl >= BLK + 1 + sh->tlsmacsize);
}

/* The record's engine step: 0 (outl set, io->done when it ends in an error), or why not. */
static int record_engine(struct eip93_cctx *c, struct eip93_pipe_io *io, size_t len)
{
	struct skc_ctx *ctx = skc_of(c);
	struct eip93_skc_shadow *sh = &ctx->sh;
	unsigned char *rec = io->out, *dst, next[BLK], mac[MAXMAC], rnd[MAXMAC] = { 0 };
	size_t outl = len;
	int r;

	if (sh->enc) /* the padding, as the delegate writes it */
		memset(rec + io->inl, (int)(len - io->inl - 1), len - io->inl);
	else if (sh->tlsmacsize > 0 && RAND_bytes_ex(c->env->libctx, rnd, sh->tlsmacsize, 0) <= 0)
		return -ENOMEM; /* the MAC handed out for bad padding */
	dst = eip93_cctx_scratch(c, len);
	if (dst == NULL)
		return -ENOMEM;
	memcpy(dst, rec, len);
	r = eip93_skc_run(ctx, rec, dst, len);
	if (r != 0) {
		eip93_cctx_release(c, 1);
		return r;
	}
	memcpy(next, (sh->enc ? dst : rec) + len - BLK, BLK);
	memcpy(rec, dst, len);
	eip93_cctx_release(c, 1);
	/*
	 * The delegate frees its last record's MAC once the record is deciphered,
	 * whichever the direction: from here tls-mac is this record's (none
	 * unless a decrypted one carries a MAC), answered by the context.
	 */
	eip93_skc_tls_forget(ctx);
	ctx->mac_ours = 1;
	if (!eip93_skc_sync(ctx, next, NULL)) {
		io->done = 1;
		io->ret = 0;
		return -EIO;
	}
	if (!sh->enc) {
		outl = len - BLK;
		if (!unpad(rec + BLK, &outl, sh->tlsmacsize, mac, rnd)) {
			/* As the delegate: the record is rejected (the engine was right). */
			ERR_raise(ERR_LIB_PROV, PROV_R_CIPHER_OPERATION_FAILED);
			io->done = 1;
			io->ret = 0;
			return EIP93_RECORD_UNFIT;
		}
		if (sh->tlsmacsize > 0) {
			ctx->mac = OPENSSL_memdup(mac, sh->tlsmacsize);
			if (ctx->mac == NULL) {
				io->done = 1;
				io->ret = 0;
				return -ENOMEM;
			}
			ctx->maclen = sh->tlsmacsize;
		}
	}
	OPENSSL_cleanse(mac, sizeof(mac));
	OPENSSL_cleanse(rnd, sizeof(rnd));
	*io->outl = outl;
	return 0;
}

static inline __attribute__((always_inline)) void record_moved(struct eip93_cctx *c, int engine,
							       size_t len)
{
	(void)len;
	skc_of(c)->engine_msg = engine;
}

static const struct eip93_pipe_shape record_shape = {
	.where = "record",
	.fixed = 1,
	.engine = record_engine,
	.moved = record_moved,
};

/* Does the delegate get as far as deciphering the record (and freeing the last MAC)? */
static int delegate_deciphers(const struct skc_ctx *ctx, const unsigned char *out, size_t outsize,
			      const unsigned char *in, size_t inl)
{
	const struct eip93_skc_shadow *sh = &ctx->sh;

	if (in == NULL || in != out || outsize < inl || !sh->pad)
		return 0;
	return sh->enc ? outsize >= inl + (BLK - inl % BLK) : inl % BLK == 0;
}

int eip93_skc_tls_record(struct skc_ctx *ctx, unsigned char *out, size_t *outl, size_t outsize,
			 const unsigned char *in, size_t inl)
{
	const struct eip93_route_limits *lim = &ctx->base.env->limits[EIP93_EMODE_CBC];
	struct eip93_pipe_io io = { .sw_op = ctx->base.sw->update,
				    .out = out,
				    .outl = outl,
				    .outsize = outsize,
				    .in = in,
				    .inl = inl };
	struct eip93_route_msg m = { 0 };
	size_t len;
	int ok, ours;

	m.iv_usable = record_fits(ctx, out, outsize, in, inl, &len);
	if (m.iv_usable && (len < lim->min_size || len > lim->max_size || !eip93_skc_iv_now(ctx)))
		m.iv_usable = 0;
	m.enc = 1; /* no tag */
	m.ivlen = EIP93_ROUTE_IVLEN;
	m.len = len;
	m.room = 1;
	eip93_pipeline_facts(&ctx->base, &m);
	if (eip93_env_kalg(ctx->base.env, ctx->base.cipher->engine_mode)[0] == '\0')
		m.engine_available = 0;
	ctx->engine_msg = 0;
	ours = ctx->mac_ours;
	ctx->mac_ours = 0;
	ok = eip93_pipeline_run(&ctx->base, &record_shape, &m, &io);
	if (!ctx->engine_msg)
		ctx->sh.stale = 1;
	/*
	 * The engine deciphered it (record_engine() took tls-mac), or the
	 * delegate did, and its MAC is the answer; or the delegate refused it
	 * before deciphering (its checks, as ciphercommon.c's), and the last
	 * record's MAC stays, whoever answered it.
	 */
	if (!ctx->mac_ours && !ok && !delegate_deciphers(ctx, out, outsize, in, inl))
		ctx->mac_ours = ours;
	return ok;
}
