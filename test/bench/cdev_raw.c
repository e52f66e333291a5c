// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench: the raw /dev/crypto loops of section 7 (cdev.c), the least a
 * program using the cryptodev module's /dev/crypto does per message: on
 * ctr(aes-eip93) one CIOCCRYPT over the payload's whole blocks with
 * libcrypto's GCM128 for GHASH, the tag mask and the partial block (as
 * raw.c's ctr loop; the tag checked before the request when decrypting); on
 * a kernel AES-GCM one CIOCAUTHCRYPT with the tag next to the data (no
 * copy).  The async variant (a module built with ENABLE_ASYNC) sends the
 * AES-CTR request as CIOCASYNCCRYPT, waits in poll() and collects it with
 * CIOCASYNCFETCH; its failures are recorded, not reported as the bench's.
 */
#include "bench.h"
#include "../raw_gcm128.h"
#include "../../engine/cryptodev_abi.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The module's asynchronous requests (compiled in with -DENABLE_ASYNC). */
#define CDEV_ASYNCCRYPT _IOW('c', 110, struct eip93_cdev_crypt)
#define CDEV_ASYNCFETCH _IOR('c', 111, struct eip93_cdev_crypt)

/* ---- the raw /dev/crypto loops --------------------------------------------- */

void cdraw_close(struct cdraw *r)
{
	eip93_route_free(&r->rt);
	EVP_CIPHER_CTX_free(r->ecb);
	r->ecb = NULL;
	if (r->have_ses)
		(void)ioctl(r->fd, EIP93_CIOCFSESSION, &r->ses);
	r->have_ses = 0;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->in);
	free(r->out);
	r->in = r->out = NULL;
}

/* A session on B.kalg (its driver checked), buffers laid out once.  0 or -1. */
int cdraw_open(struct cdraw *r, int enc, int async, size_t len, const unsigned char *ref)
{
	struct eip93_cdev_session s;
	struct eip93_cdev_session_info info;
	const EVP_CIPHER *ecb = B.keylen == 16	 ? EVP_aes_128_ecb()
				: B.keylen == 24 ? EVP_aes_192_ecb()
						 : EVP_aes_256_ecb();

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->enc = enc;
	r->async = async;
	r->len = len;
	r->pristine = ref;
	r->ctr = strncmp(B.kalg, "ctr(", 4) == 0;
	memcpy(r->nonce, base_nonce, IVLEN);
	memcpy(r->cur, base_nonce, IVLEN);
	r->in = calloc(1, TLS13_AAD + len + TAGLEN);
	r->out = calloc(1, len + TAGLEN);
	if (r->in == NULL || r->out == NULL)
		goto err;
	/* Written once so every page is there: the async worker pins them from another context. */
	memset(r->out, 0xa5, len + TAGLEN);
	memcpy(r->in, tls13_aad, TLS13_AAD);
	if (enc)
		fill(r->in + TLS13_AAD, len, 1);
	else
		memcpy(r->in + TLS13_AAD, ref, len + TAGLEN);
	r->fd = open("/dev/crypto", O_RDWR | O_CLOEXEC);
	if (r->fd < 0)
		goto err;
	memset(&s, 0, sizeof(s));
	s.cipher = r->ctr ? EIP93_CDEV_AES_CTR : EIP93_CDEV_AES_GCM;
	s.keylen = (uint32_t)B.keylen;
	s.key = B.key;
	if (ioctl(r->fd, EIP93_CIOCGSESSION, &s) != 0)
		goto err;
	r->ses = s.ses;
	r->have_ses = 1;
	memset(&info, 0, sizeof(info));
	info.ses = s.ses;
	if (ioctl(r->fd, EIP93_CIOCGSESSINFO, &info) != 0)
		goto err;
	info.cipher.driver[sizeof(info.cipher.driver) - 1] = '\0';
	if (strcmp(info.cipher.driver, B.kalg) != 0) {
		fail("raw /dev/crypto: the session's driver is %s, not %s", info.cipher.driver,
		     B.kalg);
		cdraw_close(r);
		return -1;
	}
	if (!r->ctr)
		return 0;
	r->ecb = EVP_CIPHER_CTX_new();
	if (r->ecb == NULL || !EVP_EncryptInit_ex2(r->ecb, ecb, B.key, NULL, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(r->ecb, 0))
		goto err;
	if (eip93_route_init(&r->rt, raw_block, r->ecb) != 0)
		goto err;
	return 0;
err:
	fail("raw /dev/crypto setup (%s): %s", B.kalg, strerror(errno));
	cdraw_close(r);
	return -1;
}

int cdraw_prep(void *vr)
{
	struct cdraw *r = vr;

	if (r->enc)
		nonce_for(r->cur, r->nonce, ++r->seq);
	else
		memcpy(r->in + TLS13_AAD, r->pristine, r->len + TAGLEN);
	return 0;
}

/* The AES-CTR request over the whole blocks: CIOCCRYPT, or the async trio. */
static int ctr_request(struct cdraw *r, unsigned char *in, unsigned char *out, size_t whole)
{
	unsigned char ctrblk[16];
	struct eip93_cdev_crypt c;
	struct pollfd pfd;

	memcpy(ctrblk, r->cur, IVLEN); /* the module writes the counter back */
	memset(ctrblk + IVLEN, 0, 3);
	ctrblk[15] = 2;
	memset(&c, 0, sizeof(c));
	c.ses = r->ses;
	c.op = EIP93_CDEV_ENCRYPT;
	c.len = (uint32_t)whole;
	c.src = in;
	c.dst = out;
	c.iv = ctrblk;
	if (!r->async)
		return ioctl(r->fd, EIP93_CIOCCRYPT, &c);
	pfd.fd = r->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (sys_count)
		sys_calls++; /* the poll below */
	errno = 0;
	if (ioctl(r->fd, CDEV_ASYNCCRYPT, &c) != 0 || poll(&pfd, 1, 5000) != 1 ||
	    ioctl(r->fd, CDEV_ASYNCFETCH, &c) != 0) {
		r->async_err = errno != 0 ? errno : ETIMEDOUT;
		return -1;
	}
	return 0;
}

/* One ctr(aes-eip93) message: the engine's AES-CTR, GHASH in libcrypto (raw.c's ctr loop). */
static int cdraw_ctr_op(struct cdraw *r)
{
	const unsigned char *aad = r->in;
	unsigned char *in = r->in + TLS13_AAD, *out = r->out;
	size_t whole = r->len & ~(size_t)15;

	if (eip93_route_start(&r->rt, r->cur, IVLEN, aad, TLS13_AAD) != 0)
		return -1;
	if (!r->enc && raw_open_head(&r->rt, in, out, r->len, in + r->len) != 0) {
		fail("raw /dev/crypto ctr: the tag does not verify");
		return -1;
	}
	if (whole > 0 && ctr_request(r, in, out, whole) != 0) {
		if (r->async)
			return -1; /* reported with the table, the row measured without it */
		fail("raw /dev/crypto ctr%s message: %s", r->async ? " (async)" : "",
		     strerror(errno));
		return -1;
	}
	if (r->enc && raw_seal_tail(&r->rt, in, out, r->len, out + r->len) != 0)
		return -1;
	return 0;
}

/* One message: the ctr loop, or one CIOCAUTHCRYPT with the tag next to the data. */
int cdraw_op(void *vr)
{
	struct cdraw *r = vr;
	struct eip93_cdev_auth_crypt a;
	unsigned char iv[IVLEN];

	if (r->ctr)
		return cdraw_ctr_op(r);
	memcpy(iv, r->cur, IVLEN);
	memset(&a, 0, sizeof(a));
	a.ses = r->ses;
	a.op = r->enc ? EIP93_CDEV_ENCRYPT : EIP93_CDEV_DECRYPT;
	a.len = (uint32_t)(r->len + (r->enc ? 0 : TAGLEN));
	a.auth_len = TLS13_AAD;
	a.auth_src = r->in;
	a.src = r->in + TLS13_AAD;
	a.dst = r->out;
	a.tag_len = TAGLEN;
	a.iv = iv;
	a.iv_len = IVLEN;
	if (ioctl(r->fd, EIP93_CIOCAUTHCRYPT, &a) != 0) {
		fail("raw /dev/crypto CIOCAUTHCRYPT: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Does the module take asynchronous requests?  One probe message. */
int cdraw_async_works(struct cdraw *r)
{
	unsigned char blk[16] = { 0 }, ctrblk[16] = { 0 };
	struct eip93_cdev_crypt c;

	memset(&c, 0, sizeof(c));
	c.ses = r->ses;
	c.op = EIP93_CDEV_ENCRYPT;
	c.len = sizeof(blk);
	c.src = blk;
	c.dst = blk;
	c.iv = ctrblk;
	if (ioctl(r->fd, CDEV_ASYNCCRYPT, &c) != 0)
		return -errno;
	{
		struct pollfd pfd = { .fd = r->fd, .events = POLLIN };

		if (poll(&pfd, 1, 5000) != 1 || ioctl(r->fd, CDEV_ASYNCFETCH, &c) != 0)
			return -EIO;
	}
	return 0;
}
