// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench: the raw AF_ALG loop, the baseline of section 1 (one socket
 * bound, keyed and accepted once; per message one sendmsg with the op, IV
 * and assoclen cmsgs, and one read), and its variant with the provider's
 * iovec layout.  On ctr(aes-eip93) the raw loop is the least a program
 * using the engine's AES-CTR must do for AES-GCM: one skcipher sendmsg
 * (op and 16-byte counter block IV || 2) over the payload's whole blocks
 * and one read, with libcrypto's GCM128 for GHASH, the tag mask and the
 * partial block (the tag checked before the request when decrypting).
 */
#include "bench.h"
#include "../raw_gcm128.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the raw AF_ALG loop ------------------------------------------------ */

/* The raw loop's one read, timed like the provider's (by syscalls.c's read()). */
static ssize_t timed_read(int fd, void *buf, size_t len)
{
	return read(fd, buf, len);
}

void raw_close(struct raw *r)
{
	eip93_route_free(&r->rt);
	EVP_CIPHER_CTX_free(r->ecb);
	r->ecb = NULL;
	if (r->op >= 0)
		close(r->op);
	if (r->tfm >= 0)
		close(r->tfm);
	r->op = r->tfm = -1;
	free(r->in);
	free(r->out);
	r->in = r->out = NULL;
}

/* ctr(aes-eip93): the op and counter-block cmsgs, the payload's whole blocks, GCM128 keyed. */
static int raw_ctr_layout(struct raw *r, const unsigned char *nonce)
{
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	uint32_t v = ALG_OP_ENCRYPT;
	const EVP_CIPHER *ecb = B.keylen == 16	 ? EVP_aes_128_ecb()
				: B.keylen == 24 ? EVP_aes_192_ecb()
						 : EVP_aes_256_ecb();

	r->ecb = EVP_CIPHER_CTX_new();
	if (r->ecb == NULL || !EVP_EncryptInit_ex2(r->ecb, ecb, B.key, NULL, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(r->ecb, 0))
		goto err;
	if (eip93_route_init(&r->rt, raw_block, r->ecb) != 0)
		goto err;
	r->msg.msg_control = r->cbuf.buf;
	r->msg.msg_controllen = CMSG_SPACE(sizeof(uint32_t)) +
				CMSG_SPACE(sizeof(struct af_alg_iv) + sizeof(r->ctrblk));
	c = CMSG_FIRSTHDR(&r->msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	c = CMSG_NXTHDR(&r->msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + sizeof(r->ctrblk));
	aiv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	aiv->ivlen = sizeof(r->ctrblk);
	r->ivp = aiv->iv;
	memcpy(r->ivp, nonce, IVLEN);
	memset(r->ivp + IVLEN, 0, 4);
	r->ivp[15] = 2;
	r->iov.iov_base = r->in + r->aadlen;
	r->iov.iov_len = r->len & ~(size_t)15;
	r->msg.msg_iov = &r->iov;
	r->msg.msg_iovlen = 1;
	return 0;
err:
	fail("raw ctr(aes-eip93) setup: GCM128 or AES-ECB");
	raw_close(r);
	return -1;
}

/* One raw ctr(aes-eip93) message: the AES-CTR request and GHASH in libcrypto. */
static int raw_ctr_op(struct raw *r)
{
	const unsigned char *aad = r->in, *in = r->in + r->aadlen;
	unsigned char *out = r->out + r->aadlen;
	size_t whole = r->len & ~(size_t)15;

	if (eip93_route_start(&r->rt, r->ivp, IVLEN, aad, r->aadlen) != 0)
		return -1;
	if (!r->enc && raw_open_head(&r->rt, in, out, r->len, in + r->len) != 0) {
		fail("raw ctr(aes-eip93): the tag does not verify");
		return -1;
	}
	if (whole > 0 && (sendmsg(r->op, &r->msg, 0) != (ssize_t)whole ||
			  timed_read(r->op, out, whole) != (ssize_t)whole)) {
		fail("raw ctr(aes-eip93) message: %s", strerror(errno));
		return -1;
	}
	if (r->enc && raw_seal_tail(&r->rt, in, out, r->len, out + r->len) != 0)
		return -1;
	return 0;
}

/* Open, key and accept once; lay out the message once (only the IV changes). */
int raw_open(struct raw *r, int enc, const unsigned char *aad, size_t aadlen, size_t len,
	     const unsigned char *nonce, const unsigned char *pristine)
{
	struct sockaddr_alg sa;
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	uint32_t v;

	memset(r, 0, sizeof(*r));
	r->tfm = r->op = -1;
	r->enc = enc;
	r->aadlen = aadlen;
	r->len = len;
	r->pristine = pristine;
	memcpy(r->nonce, nonce, IVLEN);
	r->inlen = aadlen + len + (enc ? 0 : TAGLEN);
	r->outlen = aadlen + len + (enc ? TAGLEN : 0);
	r->in = calloc(1, r->inlen);
	r->out = calloc(1, r->outlen);
	if (r->in == NULL || r->out == NULL)
		goto err;
	memcpy(r->in, aad, aadlen);
	if (enc)
		fill(r->in + aadlen, len, 1);
	else
		memcpy(r->in + aadlen, pristine, len + TAGLEN);

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	r->ctr = strncmp(B.kalg, "ctr(", 4) == 0;
	if (r->ctr)
		memcpy(sa.salg_type, "skcipher", sizeof("skcipher"));
	else
		memcpy(sa.salg_type, "aead", sizeof("aead"));
	memcpy(sa.salg_name, B.kalg, strlen(B.kalg) + 1);
	r->tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (r->tfm < 0 || bind(r->tfm, (const struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    setsockopt(r->tfm, SOL_ALG, ALG_SET_KEY, B.key, (socklen_t)B.keylen) < 0 ||
	    (!r->ctr && setsockopt(r->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, TAGLEN) < 0))
		goto err;
	r->op = accept4(r->tfm, NULL, NULL, SOCK_CLOEXEC);
	if (r->op < 0)
		goto err;
	if (r->ctr)
		return raw_ctr_layout(r, nonce);

	r->msg.msg_control = r->cbuf.buf;
	r->msg.msg_controllen = sizeof(r->cbuf.buf);
	c = CMSG_FIRSTHDR(&r->msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	c = CMSG_NXTHDR(&r->msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + IVLEN);
	aiv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	aiv->ivlen = IVLEN;
	r->ivp = aiv->iv;
	memcpy(r->ivp, nonce, IVLEN);
	c = CMSG_NXTHDR(&r->msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = (uint32_t)aadlen;
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	r->iov.iov_base = r->in;
	r->iov.iov_len = r->inlen;
	r->msg.msg_iov = &r->iov;
	r->msg.msg_iovlen = 1;

	memcpy(r->split_aad, aad, aadlen);
	r->split_in[0].iov_base = r->split_aad;
	r->split_in[0].iov_len = aadlen;
	r->split_in[1].iov_base = r->in + aadlen;
	r->split_in[1].iov_len = len;
	r->split_in[2].iov_base = r->split_tag;
	r->split_in[2].iov_len = TAGLEN;
	r->split_out[0].iov_base = r->split_echo;
	r->split_out[0].iov_len = aadlen;
	r->split_out[1].iov_base = r->out + aadlen;
	r->split_out[1].iov_len = len;
	r->split_out[2].iov_base = r->split_tag;
	r->split_out[2].iov_len = TAGLEN;
	r->split_nout = enc ? 3 : 2;
	r->split_msg = r->msg;
	r->split_msg.msg_iov = r->split_in;
	r->split_msg.msg_iovlen = enc ? 2 : 3;
	return 0;
err:
	fail("raw AF_ALG setup (%s): %s", B.kalg, strerror(errno));
	raw_close(r);
	return -1;
}

/* Before a raw message (not timed): the next nonce, or the pristine record back. */
int raw_prep(void *vr)
{
	struct raw *r = vr;

	if (r->enc) {
		nonce_for(r->ivp, r->nonce, ++r->seq);
	} else {
		memcpy(r->in + r->aadlen, r->pristine, r->len + TAGLEN);
		memcpy(r->split_tag, r->pristine + r->len, TAGLEN);
	}
	return 0;
}

/* One raw message: one sendmsg (op, IV, assoclen cmsgs; one iovec), one read. */
int raw_op(void *vr)
{
	struct raw *r = vr;

	if (r->ctr)
		return raw_ctr_op(r);
	if (sendmsg(r->op, &r->msg, 0) != (ssize_t)r->inlen ||
	    timed_read(r->op, r->out, r->outlen) != (ssize_t)r->outlen) {
		fail("raw AF_ALG message: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The same message with the provider's iovec layout, read with readv. */
int raw_split_op(void *vr)
{
	struct raw *r = vr;

	if (r->ctr)
		return raw_ctr_op(r); /* one payload iovec either way */
	if (sendmsg(r->op, &r->split_msg, 0) != (ssize_t)r->inlen ||
	    readv(r->op, r->split_out, r->split_nout) != (ssize_t)r->outlen) {
		fail("raw AF_ALG message (split iovecs): %s", strerror(errno));
		return -1;
	}
	return 0;
}
