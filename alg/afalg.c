// SPDX-License-Identifier: Apache-2.0
/* AF_ALG AEAD and skcipher (AES-CTR) sockets: open, operate, close; fork-safe. */
#include "afalg.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
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

/*
 * Process-wide state, by nature of what it tracks: the number of AF_ALG
 * sockets this process holds (the cap is process-wide) and the registry of
 * open keys that a forked child must close.
 */
static atomic_uint open_sockets;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct eip93_afalg_key *registry;
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
	struct eip93_afalg_key *k = registry, *next;

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

void eip93_afalg_key_init(struct eip93_afalg_key *k)
{
	memset(k, 0, sizeof(*k));
	k->tfm_fd = -1;
	k->op_fd = -1;
}

int eip93_afalg_key_is_open(const struct eip93_afalg_key *k)
{
	return k->op_fd >= 0;
}

unsigned int eip93_afalg_open_sockets(void)
{
	return atomic_load(&open_sockets);
}

static void registry_add(struct eip93_afalg_key *k)
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
static int open_fd(struct eip93_afalg_key *k, int tfm)
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
static void close_fds(struct eip93_afalg_key *k)
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

int eip93_afalg_key_open(struct eip93_afalg_key *k, const char *kalg, const unsigned char *key,
			 size_t keylen, unsigned int max_sockets, unsigned int timeout_ms)
{
	struct sockaddr_alg sa;
	int ret, ctr;

	pthread_once(&atfork_once, atfork_register);
	eip93_afalg_key_close(k);
	if (strlen(kalg) >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	ret = reserve(2, max_sockets);
	if (ret < 0)
		return ret;

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	ctr = strcmp(eip93_kprobe_type(kalg), "skcipher") == 0;
	memcpy(sa.salg_type, ctr ? "skcipher" : "aead", ctr ? sizeof("skcipher") : sizeof("aead"));
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
	if (!ctr &&
	    setsockopt(k->tfm_fd, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, EIP93_AFALG_TAGLEN) < 0)
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

void eip93_afalg_key_close(struct eip93_afalg_key *k)
{
	if (k->tfm_fd < 0 && k->op_fd < 0)
		return;
	close_fds(k);
	atomic_fetch_sub(&open_sockets, 2);
}

int eip93_afalg_aead(struct eip93_afalg_key *k, int enc, const unsigned char *iv,
		     const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len,
		     unsigned char *out, unsigned char *tag)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + EIP93_AFALG_IVLEN) +
			 CMSG_SPACE(sizeof(uint32_t))];
		struct cmsghdr align;
	} cbuf;
	unsigned char aad_echo[EIP93_AFALG_MAX_AAD];
	struct msghdr msg;
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	struct iovec iov[3];
	uint32_t v;
	size_t want;
	ssize_t n;
	int ret = 0, niov;

	if (k->op_fd < 0)
		return -EBADF;
	if (aadlen > EIP93_AFALG_MAX_AAD)
		return -EINVAL;

	memset(&cbuf, 0, sizeof(cbuf));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);

	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	memcpy(CMSG_DATA(c), &v, sizeof(v));

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + EIP93_AFALG_IVLEN);
	aiv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	aiv->ivlen = EIP93_AFALG_IVLEN;
	memcpy(aiv->iv, iv, EIP93_AFALG_IVLEN);

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = (uint32_t)aadlen;
	memcpy(CMSG_DATA(c), &v, sizeof(v));

	/* Input: AAD || data (|| tag when decrypting), straight from the caller. */
	niov = 0;
	iov[niov].iov_base = (void *)aad;
	iov[niov++].iov_len = aadlen;
	iov[niov].iov_base = (void *)in;
	iov[niov++].iov_len = len;
	if (!enc) {
		iov[niov].iov_base = tag;
		iov[niov++].iov_len = EIP93_AFALG_TAGLEN;
	}
	want = aadlen + len + (enc ? 0 : EIP93_AFALG_TAGLEN);
	msg.msg_iov = iov;
	msg.msg_iovlen = (size_t)niov;

	INJECT(F_SENDMSG);
	do {
		n = sendmsg(k->op_fd, &msg, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		goto err_errno;
	if ((size_t)n != want)
		return -EIO;

	/* Output: AAD echo (discarded) || data (|| tag when encrypting); exact length. */
	niov = 0;
	iov[niov].iov_base = aad_echo;
	iov[niov++].iov_len = aadlen;
	iov[niov].iov_base = out;
	iov[niov++].iov_len = len;
	if (enc) {
		iov[niov].iov_base = tag;
		iov[niov++].iov_len = EIP93_AFALG_TAGLEN;
	}
	want = aadlen + len + (enc ? EIP93_AFALG_TAGLEN : 0);
	INJECT(F_READ);
	do {
		n = readv(k->op_fd, iov, niov);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		goto err_errno;
	if ((size_t)n != want || FAULT(F_SHORTREAD) != 0)
		return -EIO;
	return 0;

err_errno:
	ret = -errno;
err:
	return ret;
}

int eip93_afalg_ctr(struct eip93_afalg_key *k, const unsigned char *ctrblk, const unsigned char *in,
		    size_t len, unsigned char *out)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + EIP93_AFALG_CTRBLK)];
		struct cmsghdr align;
	} cbuf;
	struct msghdr msg;
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	struct iovec iov;
	uint32_t v = ALG_OP_ENCRYPT;
	ssize_t n;
	int ret = 0;

	if (k->op_fd < 0)
		return -EBADF;
	memset(&cbuf, 0, sizeof(cbuf));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + EIP93_AFALG_CTRBLK);
	aiv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	aiv->ivlen = EIP93_AFALG_CTRBLK;
	memcpy(aiv->iv, ctrblk, EIP93_AFALG_CTRBLK);
	iov.iov_base = (void *)in;
	iov.iov_len = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;

	INJECT(F_SENDMSG);
	do {
		n = sendmsg(k->op_fd, &msg, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		goto err_errno;
	if ((size_t)n != len)
		return -EIO;
	INJECT(F_READ);
	do {
		n = read(k->op_fd, out, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		goto err_errno;
	if ((size_t)n != len || FAULT(F_SHORTREAD) != 0)
		return -EIO;
	return 0;

err_errno:
	ret = -errno;
err:
	return ret;
}

/* The AF_ALG backend behind the engine interface (alg/engine.h). */

void eip93_engine_key_init(struct eip93_engine_key *k)
{
	eip93_afalg_key_init(&k->afalg);
	k->priv = NULL;
	k->is_ctr = 0;
}

static int be_open(struct eip93_engine_key *k, const struct eip93_engine_cfg *c,
		   const unsigned char *key, size_t keylen)
{
	k->is_ctr = eip93_engine_kalg_is_ctr(c->kalg);
	return eip93_afalg_key_open(&k->afalg, c->kalg, key, keylen, c->max_sockets, c->timeout_ms);
}

static void be_close(struct eip93_engine_key *k)
{
	eip93_afalg_key_close(&k->afalg);
}

static int be_is_open(const struct eip93_engine_key *k)
{
	return eip93_afalg_key_is_open(&k->afalg);
}

static int be_seal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return eip93_afalg_aead(&k->afalg, 1, m->iv, m->aad, m->aadlen, m->in, m->len, m->out,
				m->tag);
}

static int be_unseal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return eip93_afalg_aead(&k->afalg, 0, m->iv, m->aad, m->aadlen, m->in, m->len, m->out,
				m->tag);
}

static int be_ctr(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc)
{
	(void)enc;
	return eip93_afalg_ctr(&k->afalg, m->iv, m->in, m->len, m->out);
}

const struct eip93_engine_ops eip93_engine_afalg = {
	.name = "af_alg",
	.probe = eip93_kprobe_alg,
	.key_open = be_open,
	.key_close = be_close,
	.key_is_open = be_is_open,
	.seal = be_seal,
	.open = be_unseal,
	.ctr = be_ctr,
	.resources = eip93_afalg_open_sockets,
};
