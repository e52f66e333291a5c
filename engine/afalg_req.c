// SPDX-License-Identifier: Apache-2.0
/*
 * The AF_ALG backend's requests (eip93_engine_afalg, engine/engine.h): one
 * AEAD or skcipher operation as one sendmsg and one readv on the key's
 * operation socket, and keystream ahead (afalg_aio.c) on its second one.
 * Sockets, the fork registry, the pool and the cap are engine/afalg.c's.
 * Every function returns 0 or -errno and never touches OpenSSL's error
 * stack; all are static behind the ops table.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/if_alg.h>

#include "../detect/detect.h"
#include "afalg_fault.h"
#include "afalg_priv.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/* The next control message of @msg after @c (NULL: the first), of @type with @len data bytes. */
static struct cmsghdr *put_cmsg(struct msghdr *msg, struct cmsghdr *c, int type, size_t len)
{
	c = c == NULL ? CMSG_FIRSTHDR(msg) : CMSG_NXTHDR(msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(len);
	return c;
}

static struct cmsghdr *put_u32(struct msghdr *msg, struct cmsghdr *c, int type, uint32_t v)
{
	c = put_cmsg(msg, c, type, sizeof(v));
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	return c;
}

static struct cmsghdr *put_iv(struct msghdr *msg, struct cmsghdr *c, const unsigned char *iv,
			      size_t ivlen)
{
	struct af_alg_iv *aiv;

	c = put_cmsg(msg, c, ALG_SET_IV, sizeof(struct af_alg_iv) + ivlen);
	aiv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	aiv->ivlen = (uint32_t)ivlen;
	memcpy(aiv->iv, iv, ivlen);
	return c;
}

/*
 * One operation: @msg (its iovecs hold @sent bytes) in one sendmsg, the
 * result into @out (@nout iovecs, @got bytes) in one readv.  Returns 0, -EIO
 * on a short send or read, or the -errno of sendmsg/readv (-EAGAIN on
 * timeout).
 */
static int transact(const struct afalg_key *k, const struct msghdr *msg, size_t sent,
		    const struct iovec *out, int nout, size_t got)
{
	ssize_t n;
	int e = FAULT(F_SENDMSG);

	if (e != 0)
		return -e;
	do {
		n = sendmsg(k->op_fd, msg, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != sent)
		return -EIO;
	e = FAULT(F_READ);
	if (e != 0)
		return -e;
	do {
		n = readv(k->op_fd, out, nout);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != got || FAULT(F_SHORTREAD) != 0)
		return -EIO;
	return 0;
}

/*
 * One AEAD operation.  @enc: 1 encrypt (writes @out and @tag), 0 decrypt
 * (reads @tag, writes @out).  @in may equal @out (the kernel copies its
 * input at sendmsg).  Returns transact()'s answer, or -EBADMSG when
 * decryption finds the tag wrong (then @out holds unauthenticated data that
 * must not be released).
 */
static int aead(const struct afalg_key *k, int enc, const struct eip93_engine_msg *m)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + EIP93_ENGINE_IVLEN) +
			 CMSG_SPACE(sizeof(uint32_t))];
		struct cmsghdr align;
	} cbuf;
	unsigned char aad_echo[EIP93_ENGINE_MAX_AAD];
	struct msghdr msg;
	struct cmsghdr *c;
	struct iovec in[3], out[3];
	size_t tail = EIP93_ENGINE_TAGLEN;
	int r;

	if (k == NULL || k->op_fd < 0)
		return -EBADF;
	if (m->aadlen > EIP93_ENGINE_MAX_AAD)
		return -EINVAL;
	memset(&cbuf, 0, sizeof(cbuf));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);
	c = put_u32(&msg, NULL, ALG_SET_OP, enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT);
	c = put_iv(&msg, c, m->iv, EIP93_ENGINE_IVLEN);
	(void)put_u32(&msg, c, ALG_SET_AEAD_ASSOCLEN, (uint32_t)m->aadlen);

	/* In: AAD || data (|| tag decrypting), straight from the caller; out: AAD echo
	 * (discarded) || data (|| tag encrypting); exact lengths. */
	in[0] = (struct iovec){ .iov_base = (void *)m->aad, .iov_len = m->aadlen };
	in[1] = (struct iovec){ .iov_base = (void *)m->in, .iov_len = m->len };
	in[2] = (struct iovec){ .iov_base = m->tag, .iov_len = tail };
	out[0] = (struct iovec){ .iov_base = aad_echo, .iov_len = m->aadlen };
	out[1] = (struct iovec){ .iov_base = m->out, .iov_len = m->len };
	out[2] = in[2];
	msg.msg_iov = in;
	msg.msg_iovlen = enc ? 2 : 3;
	r = transact(k, &msg, m->aadlen + m->len + (enc ? 0 : tail), out, enc ? 3 : 2,
		     m->aadlen + m->len + (enc ? tail : 0));
	explicit_bzero(aad_echo, m->aadlen); /* the kernel's copy of the AAD */
	/*
	 * algif_aead writes into the receive buffer, the caller's output pages.
	 * It reads either that buffer (kernels that copy AAD || data there with
	 * the CPU and run in place) or its send buffer (kernels whose request
	 * runs out of place, from the TX list: pages it allocated and filled
	 * from the AAD's first byte, so the payload's boundaries fall at
	 * k * 4096 - aadlen).  Which one cannot be told from here: both.
	 */
	if (r == 0) {
		eip93_engine_pages_buf(m->pages, m->out);
		eip93_engine_pages_add(m->pages, EIP93_ENGINE_PAGE - m->aadlen % EIP93_ENGINE_PAGE);
	}
	return r;
}

/*
 * One skcipher operation from the 16-byte block m->iv (AES-CTR's counter
 * block, AES-CBC's chaining value); @op ALG_OP_ENCRYPT or ALG_OP_DECRYPT.
 */
static int skc(const struct afalg_key *k, const struct eip93_engine_msg *m, uint32_t op)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + EIP93_ENGINE_CTRBLK)];
		struct cmsghdr align;
	} cbuf;
	struct msghdr msg;
	struct iovec in, out;
	int r;

	if (k == NULL || k->op_fd < 0)
		return -EBADF;
	memset(&cbuf, 0, sizeof(cbuf));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cbuf.buf;
	/* AES-ECB has no IV: AF_ALG refuses one whose length is not the algorithm's (0). */
	msg.msg_controllen = m->iv != NULL ? sizeof(cbuf.buf) : CMSG_SPACE(sizeof(uint32_t));
	if (m->iv != NULL)
		(void)put_iv(&msg, put_u32(&msg, NULL, ALG_SET_OP, op), m->iv, EIP93_ENGINE_CTRBLK);
	else
		(void)put_u32(&msg, NULL, ALG_SET_OP, op);
	in = (struct iovec){ .iov_base = (void *)m->in, .iov_len = m->len };
	out = (struct iovec){ .iov_base = m->out, .iov_len = m->len };
	msg.msg_iov = &in;
	msg.msg_iovlen = 1;
	r = transact(k, &msg, m->len, &out, 1, m->len);
	/*
	 * algif_skcipher's request reads the send buffer, pages the kernel
	 * allocated and filled from the payload's first byte (nothing else is
	 * queued: every request consumes what it sent), and writes the
	 * caller's output pages, which it maps.
	 */
	if (r == 0) {
		eip93_engine_pages_add(m->pages, 0);
		eip93_engine_pages_buf(m->pages, m->out);
	}
	return r;
}

/* @r of a request on @k: a failure (not a refused tag) keeps its sockets out of the pool. */
static int taint(struct eip93_engine_key *k, int r)
{
	struct afalg_key *a = k->priv;

	if (r != 0 && r != -EBADMSG && a != NULL)
		a->tainted = 1;
	return r;
}

static int be_seal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return taint(k, aead(k->priv, 1, m));
}

static int be_unseal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return taint(k, aead(k->priv, 0, m));
}

/* AES-CTR and -ECB are asked as an encryption whatever they serve; AES-CBC in its direction. */
static int be_skc(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc)
{
	if (k->mode == EIP93_EMODE_AEAD || (k->mode == EIP93_EMODE_ECB) != (m->iv == NULL))
		return -EINVAL;
	if (k->mode != EIP93_EMODE_CTR && m->len % EIP93_ENGINE_CTRBLK != 0)
		return -EINVAL;
	return taint(k, skc(k->priv, m,
			    k->mode == EIP93_EMODE_CBC && !enc ? ALG_OP_DECRYPT : ALG_OP_ENCRYPT));
}

/*
 * Keystream ahead (afalg_aio.c) on an AES-CTR key of this process.  A key
 * whose first try fails (no AIO, a seccomp filter, the cap) keeps it off
 * until it closes: the synchronous path, with no syscall wasted per message.
 */
static int be_ahead_start(struct eip93_engine_key *k, const unsigned char *cb, size_t len, int enc)
{
	struct afalg_key *a = k->priv;
	int r;

	(void)enc;
	if (a == NULL || a->op_fd < 0 || k->mode != EIP93_EMODE_CTR)
		return -EBADF;
	if (a->aio_off)
		return -ENOSYS;
	r = a->aio.fd >= 0 ? 0 : eip93_afalg_aio_prepare(&a->aio); /* before its socket */
	if (r == 0)
		r = eip93_afalg_ahead_socket(a, a->max_sockets);
	if (r == 0)
		r = eip93_afalg_aio_start(&a->aio, cb, len);
	if (r < 0 && r != -EBUSY)
		a->aio_off = 1; /* (its sockets still poolable: afalg.c asks the AIO's state) */
	return r;
}

static int be_ahead_wait(struct eip93_engine_key *k, unsigned char **ks,
			 struct eip93_engine_pages *pg)
{
	struct afalg_key *a = k->priv;

	return a == NULL ? -ENOENT : taint(k, eip93_afalg_aio_wait(&a->aio, ks, pg));
}

static void be_ahead_drop(struct eip93_engine_key *k)
{
	struct afalg_key *a = k->priv;

	if (a != NULL)
		eip93_afalg_aio_drop(&a->aio);
}

const struct eip93_engine_ops eip93_engine_afalg = {
	.name = "af_alg",
	.probe = eip93_kprobe_alg,
	.key_open = eip93_afalg_open,
	.key_close = eip93_afalg_close,
	.key_is_open = eip93_afalg_is_open,
	.seal = be_seal,
	.unseal = be_unseal,
	.skc = be_skc,
	.resources = eip93_afalg_sockets,
	.ahead_start = be_ahead_start,
	.ahead_wait = be_ahead_wait,
	.ahead_drop = be_ahead_drop,
};
