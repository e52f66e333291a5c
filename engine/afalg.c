// SPDX-License-Identifier: Apache-2.0
/*
 * The AF_ALG backend (eip93_engine_afalg, engine/engine.h): a thin syscall
 * layer over the kernel's AEAD and skcipher (AES-CTR, AES-CBC) socket interfaces.
 * Every function returns 0 or -errno and never touches OpenSSL's error
 * stack; all are static behind the ops table.
 *
 * One struct afalg_key per engine key (its @priv): the bound ("tfm") socket
 * carrying the key and one operation socket accepted from it.  Both are
 * opened with CLOEXEC, counted against a process-wide cap, and registered so
 * that a forked child closes its inherited copies at once (pthread_atfork;
 * each socket is created and closed under the registry lock, so no fork
 * falls between a descriptor and its registration): no keyed socket
 * survives into a child, and a child never shares an operation socket with
 * its parent.  The operation socket has send and receive timeouts.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/if_alg.h>

#include "../detect/detect.h"
#include "engine.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

struct afalg_key {
	int tfm_fd;		       /* bound and keyed; -1 when closed */
	int op_fd;		       /* accepted operation socket; -1 when closed */
	struct afalg_key *prev, *next; /* fork registry */
};

/*
 * Process-wide state, by nature of what it tracks: the number of AF_ALG
 * sockets this process holds (the cap is process-wide) and the registry of
 * open keys that a forked child must close.
 */
static atomic_uint open_sockets;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct afalg_key *registry;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork_prepare(void)
{
	pthread_mutex_lock(&registry_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&registry_lock);
}

/* In the child: close every inherited socket; its contexts reopen lazily. */
static void atfork_child(void)
{
	struct afalg_key *k = registry, *next;

	for (; k != NULL; k = next) {
		next = k->next;
		if (k->op_fd >= 0)
			close(k->op_fd);
		if (k->tfm_fd >= 0)
			close(k->tfm_fd);
		k->op_fd = k->tfm_fd = -1;
		k->prev = k->next = NULL;
	}
	registry = NULL;
	atomic_store(&open_sockets, 0);
	pthread_mutex_unlock(&registry_lock);
}

static void atfork_register(void)
{
	(void)pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

#ifdef EIP93_TEST_HOOKS
enum fault_site {
	F_SOCKET,
	F_BIND,
	F_SETKEY,
	F_AUTHSIZE,
	F_ACCEPT,
	F_TIMEOUT,
	F_SENDMSG,
	F_READ,
	F_SHORTREAD,
	F_NSITES
};
static const char *const fault_names[F_NSITES] = { "socket",   "bind",	 "setkey",
						   "authsize", "accept", "timeout",
						   "sendmsg",  "read",	 "shortread" };
static int fault_site = -1;
static long fault_nth;
static atomic_long fault_calls;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;

static void fault_read_env(void)
{
	const char *v = getenv("EIP93_TEST_FAULT");

	if (v == NULL)
		return;
	for (int i = 0; i < F_NSITES; i++) {
		size_t n = strlen(fault_names[i]);

		if (strncmp(v, fault_names[i], n) == 0 && (v[n] == '\0' || v[n] == ':')) {
			fault_site = i;
			fault_nth = v[n] == ':' ? strtol(v + n + 1, NULL, 10) : 1;
		}
	}
}

/* Should this call at @site fail?  Errno to inject, or 0. */
static int fault(enum fault_site site)
{
	long call;

	pthread_once(&fault_once, fault_read_env);
	if (fault_site != (int)site)
		return 0;
	call = atomic_fetch_add(&fault_calls, 1) + 1;
	if (fault_nth == 0 || call == fault_nth)
		return site == F_TIMEOUT ? EAGAIN : EIO;
	return 0;
}
#define FAULT(site) fault(site)
#else
#define FAULT(site) 0
#endif

/* AF_ALG sockets this process holds open now (the cap counts them). */
static unsigned int open_socket_count(void)
{
	return atomic_load(&open_sockets);
}

static void registry_add(struct afalg_key *k)
{
	pthread_mutex_lock(&registry_lock);
	k->prev = NULL;
	k->next = registry;
	if (registry != NULL)
		registry->prev = k;
	registry = k;
	pthread_mutex_unlock(&registry_lock);
}

/*
 * A descriptor appears in this process and in the key at once, as far as a
 * fork can tell: socket() or accept4() (@tfm: which) and storing its result
 * run under the registry lock, which atfork_prepare() takes, so a child sees
 * the key either without the descriptor or with it, and then closes it.
 * CLOEXEC alone covers exec, not fork.  Returns 0 or -errno.
 */
static int open_fd(struct afalg_key *k, int tfm)
{
	int fd, err = 0;

	pthread_mutex_lock(&registry_lock);
	if (tfm)
		fd = k->tfm_fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	else
		fd = k->op_fd = accept4(k->tfm_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		err = -errno;
	pthread_mutex_unlock(&registry_lock);
	return err;
}

/*
 * Out of the registry and both sockets closed, under the registry lock: a
 * fork in between would leave the child sockets it no longer knows of.
 */
static void close_fds(struct afalg_key *k)
{
	pthread_mutex_lock(&registry_lock);
	if (k->prev != NULL)
		k->prev->next = k->next;
	else if (registry == k)
		registry = k->next;
	if (k->next != NULL)
		k->next->prev = k->prev;
	k->prev = k->next = NULL;
	if (k->op_fd >= 0)
		close(k->op_fd);
	if (k->tfm_fd >= 0)
		close(k->tfm_fd);
	k->op_fd = k->tfm_fd = -1;
	pthread_mutex_unlock(&registry_lock);
}

/* Reserve @n sockets under the cap; 0 or -EMFILE. */
static int reserve(unsigned int n, unsigned int cap)
{
	unsigned int cur = atomic_load(&open_sockets);

	do {
		if (cur + n > cap)
			return -EMFILE;
	} while (!atomic_compare_exchange_weak(&open_sockets, &cur, cur + n));
	return 0;
}

static int set_timeouts(int fd, unsigned int timeout_ms)
{
	struct timeval tv;

	tv.tv_sec = (time_t)(timeout_ms / 1000);
	tv.tv_usec = (suseconds_t)((timeout_ms % 1000) * 1000);
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	return 0;
}

#define INJECT(site)                                                                               \
	do {                                                                                       \
		int e_ = FAULT(site);                                                              \
		if (e_ != 0) {                                                                     \
			ret = -e_;                                                                 \
			goto err;                                                                  \
		}                                                                                  \
	} while (0)

/*
 * Bind @kalg (an "aead", or an "skcipher" when eip93_kprobe_type() says so),
 * set the key (and an AEAD's 16-byte tag), accept the operation socket and
 * set its timeouts.  Returns 0, -EMFILE when the cap is reached, or the
 * -errno of the failing call (the key is then closed).
 */
static int key_open(struct afalg_key *k, const char *kalg, const unsigned char *key, size_t keylen,
		    unsigned int max_sockets, unsigned int timeout_ms)
{
	struct sockaddr_alg sa;
	int ret, skcipher;

	pthread_once(&atfork_once, atfork_register);
	if (strlen(kalg) >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	ret = reserve(2, max_sockets);
	if (ret < 0)
		return ret;

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	skcipher = strcmp(eip93_kprobe_type(kalg), "skcipher") == 0;
	memcpy(sa.salg_type, skcipher ? "skcipher" : "aead",
	       skcipher ? sizeof("skcipher") : sizeof("aead"));
	memcpy(sa.salg_name, kalg, strlen(kalg) + 1);

	/* Registered before the first socket exists: a fork from then on closes them. */
	registry_add(k);
	INJECT(F_SOCKET);
	ret = open_fd(k, 1);
	if (ret < 0)
		goto err;
	INJECT(F_BIND);
	if (bind(k->tfm_fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto err_errno;
	INJECT(F_SETKEY);
	if (setsockopt(k->tfm_fd, SOL_ALG, ALG_SET_KEY, key, (socklen_t)keylen) < 0)
		goto err_errno;
	INJECT(F_AUTHSIZE);
	if (!skcipher &&
	    setsockopt(k->tfm_fd, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, EIP93_ENGINE_TAGLEN) < 0)
		goto err_errno;
	INJECT(F_ACCEPT);
	ret = open_fd(k, 0);
	if (ret < 0)
		goto err;
	INJECT(F_TIMEOUT);
	ret = set_timeouts(k->op_fd, timeout_ms);
	if (ret < 0)
		goto err;
	return 0;

err_errno:
	ret = -errno;
err:
	close_fds(k);
	atomic_fetch_sub(&open_sockets, 2);
	return ret;
}

/* Both sockets closed (idempotent). */
static void key_close(struct afalg_key *k)
{
	if (k->tfm_fd < 0 && k->op_fd < 0)
		return;
	close_fds(k);
	atomic_fetch_sub(&open_sockets, 2);
}

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

/* The ops: the per-key state lives in k->priv, allocated when the key opens. */

static void be_close(struct eip93_engine_key *k)
{
	struct afalg_key *a = k->priv;

	if (a == NULL)
		return;
	key_close(a);
	free(a);
	k->priv = NULL;
}

static int be_open(struct eip93_engine_key *k, const struct eip93_engine_cfg *c,
		   const unsigned char *key, size_t keylen)
{
	struct afalg_key *a;
	int r;

	be_close(k);
	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return -ENOMEM;
	a->tfm_fd = a->op_fd = -1;
	eip93_engine_key_mode(k, c->kalg);
	r = key_open(a, c->kalg, key, keylen, c->max_sockets, c->timeout_ms);
	if (r < 0) {
		free(a);
		return r;
	}
	k->priv = a;
	return 0;
}

/* Open in this process: a forked child's inherited key has no sockets (atfork_child). */
static int be_is_open(const struct eip93_engine_key *k)
{
	const struct afalg_key *a = k->priv;

	return a != NULL && a->op_fd >= 0;
}

static int be_seal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return aead(k->priv, 1, m);
}

static int be_unseal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return aead(k->priv, 0, m);
}

/* AES-CTR and -ECB are asked as an encryption whatever they serve; AES-CBC in its direction. */
static int be_skc(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc)
{
	if (k->mode == EIP93_EMODE_AEAD || (k->mode == EIP93_EMODE_ECB) != (m->iv == NULL))
		return -EINVAL;
	if (k->mode != EIP93_EMODE_CTR && m->len % EIP93_ENGINE_CTRBLK != 0)
		return -EINVAL;
	return skc(k->priv, m,
		   k->mode == EIP93_EMODE_CBC && !enc ? ALG_OP_DECRYPT : ALG_OP_ENCRYPT);
}

const struct eip93_engine_ops eip93_engine_afalg = {
	.name = "af_alg",
	.probe = eip93_kprobe_alg,
	.key_open = be_open,
	.key_close = be_close,
	.key_is_open = be_is_open,
	.seal = be_seal,
	.unseal = be_unseal,
	.skc = be_skc,
	.resources = open_socket_count,
};
