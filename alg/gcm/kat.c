// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM's known-answer checks of a freshly opened engine key (the row's
 * key_check, called by key.c): the kernel AES-GCM composition's three
 * requests against the delegate, or the CTR-only (ECB) composition's one
 * AES-CTR (AES-ECB of counter blocks) request against the key's software AES.
 */
#include "kat.h"
#include "../request.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#define KAT_LEN 16384 /* the shape of a full TLS record */
#define KAT_SHORT 512 /* the bad-tag check's message */
#define KAT_PAGE 4096
#define KAT_BEFORE_PAGE 96 /* the message starts this far before a page boundary */
#define KAT_AAD 13
#define KAT_CTR_BLKS ((size_t)32) /* the CTR-only check: 512 bytes */

int eip93_key_sw_seal(struct eip93_cctx *ctx, const unsigned char *iv, const unsigned char *aad,
		      size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		      unsigned char *tag)
{
	const struct eip93_sw_impl *sw = ctx->sw;
	OSSL_PARAM p[2];
	size_t n = 0, n2 = 0;
	void *t = sw->newctx(sw->provctx);
	int ok;

	if (t == NULL)
		return 0;
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag,
						 EIP93_ENGINE_TAGLEN);
	p[1] = OSSL_PARAM_construct_end();
	ok = sw->einit(t, ctx->key.bytes, ctx->key.len, iv, EIP93_ENGINE_IVLEN, NULL) &&
	     sw->update(t, NULL, &n, aadlen, aad, aadlen) && sw->update(t, out, &n, len, in, len) &&
	     sw->final(t, out + n, &n2, 0) && sw->get_ctx_params(t, p);
	sw->freectx(t);
	return ok;
}

/*
 * The known answers: a 16 KiB message in place across a page boundary (the
 * shape of real traffic) sealed by the engine and compared with the
 * delegate, opened back in place, and a 512-byte message whose tag has one
 * bit flipped, which must be refused.  Three engine calls.  Returns 0,
 * -EBADMSG (a wrong answer) or the engine's -errno.
 */
static int aead_key_check(struct eip93_cctx *ctx)
{
	unsigned char aad[KAT_AAD], iv[EIP93_ENGINE_IVLEN], tag_e[16], tag_s[16], tag_short[16];
	unsigned char back[KAT_SHORT], *raw, *buf, *ref;
	size_t rawlen = 2 * KAT_LEN + 3 * KAT_PAGE;
	int ret;

	raw = OPENSSL_malloc(rawlen);
	if (raw == NULL)
		return -ENOMEM;
	buf = raw + KAT_PAGE - ((uintptr_t)raw % KAT_PAGE) + KAT_PAGE - KAT_BEFORE_PAGE;
	ref = buf + KAT_LEN + KAT_BEFORE_PAGE;
	for (size_t i = 0; i < KAT_LEN; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	for (size_t i = 0; i < sizeof(aad); i++)
		aad[i] = (unsigned char)(0xa0 + i);
	for (size_t i = 0; i < sizeof(iv); i++)
		iv[i] = (unsigned char)(0x5c ^ i);

	ret = -ENOMEM;
	if (!eip93_key_sw_seal(ctx, iv, aad, KAT_AAD, buf, KAT_LEN, ref, tag_s) ||
	    !eip93_key_sw_seal(ctx, iv, aad, KAT_AAD, buf, KAT_SHORT, back, tag_short))
		goto out;
	ret = eip93_engine_request(ctx, 1, iv, aad, KAT_AAD, buf, KAT_LEN, buf, tag_e);
	if (ret < 0)
		goto out;
	ret = -EBADMSG;
	if (CRYPTO_memcmp(buf, ref, KAT_LEN) != 0 || CRYPTO_memcmp(tag_e, tag_s, 16) != 0)
		goto out;
	ret = eip93_engine_request(ctx, 0, iv, aad, KAT_AAD, buf, KAT_LEN, buf, tag_e);
	if (ret < 0)
		goto out;
	for (size_t i = 0; i < KAT_LEN; i++) {
		if (buf[i] != (unsigned char)(i * 7 + 3)) {
			ret = -EBADMSG;
			goto out;
		}
	}
	tag_short[5] ^= 0x10;
	ret = eip93_engine_request(ctx, 0, iv, aad, KAT_AAD, ref, KAT_SHORT, back, tag_short);
	ret = ret == -EBADMSG ? 0 : ret < 0 ? ret : -EBADMSG;
out:
	OPENSSL_cleanse(back, sizeof(back));
	OPENSSL_clear_free(raw, rawlen);
	return ret;
}

/*
 * The CTR-only composition's known answer (the ECB composition's: the same
 * counter blocks through one AES-ECB request in place): one engine AES-CTR request of
 * KAT_CTR bytes in place across a page boundary, compared block by block
 * with the key's software AES.  The tag never comes from the engine and
 * every message's keystream is sampled before release (verify.c), so what
 * is left to find before the first message is a fault of the key itself
 * (its schedule or length in the engine), which makes every block wrong.
 * One request; returns 0, -EBADMSG (a wrong answer) or the engine's -errno.
 */
static int ctr_key_check(struct eip93_cctx *ctx)
{
	unsigned char page[KAT_PAGE + KAT_CTR_BLKS * 16], cb[KAT_CTR_BLKS][16], *buf;
	uintptr_t a = (uintptr_t)page + KAT_BEFORE_PAGE;
	int ret, n, ok = 1;

	/* KAT_BEFORE_PAGE bytes before the first page boundary after page + KAT_BEFORE_PAGE */
	buf = page + (KAT_PAGE - a % KAT_PAGE);
	for (size_t i = 0; i < KAT_CTR_BLKS; i++) {
		for (size_t j = 0; j < 12; j++)
			cb[i][j] = (unsigned char)(0x5c ^ j);
		cb[i][12] = cb[i][13] = 0;
		cb[i][14] = (unsigned char)((2 + i) >> 8);
		cb[i][15] = (unsigned char)(2 + i);
	}
	if (ctx->key.ek.mode == EIP93_EMODE_ECB) {
		/* The ECB composition's request: the counter blocks in place. */
		memcpy(buf, cb, sizeof(cb));
		ret = eip93_engine_skc(ctx, &ctx->key.ek, 1, NULL, buf, buf, sizeof(cb), NULL);
	} else {
		memset(buf, 0, KAT_CTR_BLKS * 16);
		ret = eip93_engine_ctr(ctx, cb[0], buf, buf, KAT_CTR_BLKS * 16);
	}
	/* Either way the engine's output is the keystream: AES of the counter blocks. */
	if (ret == 0) {
		ok = EVP_EncryptUpdate(ctx->key.ecb, cb[0], &n, cb[0], (int)sizeof(cb)) &&
		     n == (int)sizeof(cb);
		ret = !ok ? -ENOMEM : CRYPTO_memcmp(buf, cb, sizeof(cb)) != 0 ? -EBADMSG : 0;
	}
	OPENSSL_cleanse(page, sizeof(page));
	OPENSSL_cleanse(cb, sizeof(cb));
	return ret;
}

int eip93_gcm_key_check(struct eip93_cctx *ctx)
{
	return ctx->key.ek.mode == EIP93_EMODE_AEAD ? aead_key_check(ctx) : ctr_key_check(ctx);
}
