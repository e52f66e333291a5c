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
 * its parent.  The operation socket has send and receive timeouts.  A key
 * may hold a third, keystream ahead's operation socket (afalg_aio.c), and a
 * closed key's bound socket may wait in a pool for the next key of its kind
 * ("Transforms reused across keys" below).  The requests and the ops table
 * are engine/afalg_req.c's.
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
#include "afalg_fault.h"
#include "afalg_priv.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/* The sockets @k holds open (the cap counts them). */
static unsigned int held(const struct afalg_key *k)
{
	return (unsigned int)(k->tfm_fd >= 0) + (unsigned int)(k->op_fd >= 0) +
	       (unsigned int)(k->aio.fd >= 0);
}

/*
 * Process-wide state, by nature of what it tracks: the number of AF_ALG
 * sockets this process holds (the cap is process-wide) and the registry of
 * open keys that a forked child must close.
 */
static atomic_uint open_sockets;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct afalg_key *registry;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
/* Idle transforms, keyed with zeros, for the next key of their kind (registry_lock). */
#define POOL_MAX 4
static struct afalg_key *pool[POOL_MAX];
static unsigned int pool_n;

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
		if (k->aio.fd >= 0)
			close(k->aio.fd);
		k->op_fd = k->tfm_fd = k->aio.fd = -1;
		eip93_afalg_aio_forget(&k->aio); /* its buffers read as zeros here */
		k->prev = k->next = NULL;
	}
	registry = NULL;
	pool_n = 0; /* the pooled keys' sockets are closed above; their memory is left */
	atomic_store(&open_sockets, 0);
	pthread_mutex_unlock(&registry_lock);
}

static void atfork_register(void)
{
	(void)pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

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
	else if (k->op_fd < 0)
		fd = k->op_fd = accept4(k->tfm_fd, NULL, NULL, SOCK_CLOEXEC);
	else /* keystream ahead's own operation socket */
		fd = k->aio.fd = accept4(k->tfm_fd, NULL, NULL, SOCK_CLOEXEC);
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
	if (k->aio.fd >= 0)
		close(k->aio.fd);
	k->op_fd = k->tfm_fd = k->aio.fd = -1;
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

/*
 * Every socket of @k closed and its keystream ahead freed (idempotent; a
 * forked child's inherited key holds none).  Waits for a request ahead
 * first: its buffer is freed after.
 */
static void key_close(struct afalg_key *k)
{
	unsigned int n = held(k);

	eip93_afalg_aio_drop(&k->aio);
	if (n > 0) {
		close_fds(k);
		atomic_fetch_sub(&open_sockets, n);
	}
	eip93_afalg_aio_free(&k->aio);
}

/*
 * Transforms reused across keys: a closing key whose engine requests are
 * all AES-CTR or AES-ECB encryptions (AES-CTR and AES-ECB keys, and a kernel
 * AES-GCM over the engine's AES-CTR, whose decryptions are CTR encryptions
 * too: never AES-CBC, whose decryptions leave the EIP93 driver's transform
 * in the inbound direction), that never computed a wrong result
 * keeps its bound socket (the transform) in a small pool, its operation
 * sockets closed (the kernel refuses a key while one is accepted: EBUSY)
 * and its kernel key overwritten with zeros; the next key of the same
 * algorithm and length takes it with setsockopt(ALG_SET_KEY), accept and
 * the timeouts instead of also socket and bind (which allocates the
 * transform in the driver).  Pooled sockets stay in the fork
 * registry (a child closes them) and count against the cap; a key that
 * would pass the cap evicts them first.
 */
static const unsigned char zero_key[32];

/* Close one pooled key, if any; 1 when one was. */
static int evict_one(void)
{
	struct afalg_key *k = NULL;

	pthread_mutex_lock(&registry_lock);
	if (pool_n > 0)
		k = pool[--pool_n];
	pthread_mutex_unlock(&registry_lock);
	if (k == NULL)
		return 0;
	key_close(k);
	free(k);
	return 1;
}

unsigned int eip93_afalg_pool_sockets(void)
{
	unsigned int n = 0;

	pthread_mutex_lock(&registry_lock);
	for (unsigned int i = 0; i < pool_n; i++)
		n += held(pool[i]);
	pthread_mutex_unlock(&registry_lock);
	return n;
}

void eip93_afalg_pool_flush(void)
{
	while (evict_one())
		;
	eip93_afalg_aio_stop();
}

/* reserve(), evicting pooled keys while the cap is in the way. */
static int reserve_evict(unsigned int n, unsigned int cap)
{
	int r;

	while ((r = reserve(n, cap)) == -EMFILE && evict_one())
		;
	return r;
}

/* The operation sockets of @k closed (its bound socket kept). */
static void close_children(struct afalg_key *k)
{
	unsigned int n = 0;

	pthread_mutex_lock(&registry_lock);
	if (k->op_fd >= 0) {
		close(k->op_fd);
		n++;
	}
	if (k->aio.fd >= 0) {
		close(k->aio.fd);
		n++;
	}
	k->op_fd = k->aio.fd = -1;
	pthread_mutex_unlock(&registry_lock);
	atomic_fetch_sub(&open_sockets, n);
}

/*
 * Into the pool, its operation sockets closed and its bound socket keyed
 * with zeros: 1, or 0 when it is not poolable (then to be closed).
 */
static int pool_put(struct afalg_key *k)
{
	int in = 0;

	if (k->mode == EIP93_EMODE_CBC || k->tfm_fd < 0 || k->op_fd < 0 || k->tainted ||
	    k->keylen > sizeof(zero_key) || FAULT_OPENING())
		return 0;
	eip93_afalg_aio_drop(&k->aio);
	if (!eip93_afalg_aio_clean(&k->aio))
		return 0;  /* something may still wait on its keystream-ahead socket */
	close_children(k); /* the kernel refuses a key (EBUSY) while one is accepted */
	if (setsockopt(k->tfm_fd, SOL_ALG, ALG_SET_KEY, zero_key, (socklen_t)k->keylen) < 0)
		return 0;
	pthread_mutex_lock(&registry_lock);
	if (pool_n < POOL_MAX && k->tfm_fd >= 0) { /* a fork since may have closed it */
		pool[pool_n++] = k;
		in = 1;
	}
	pthread_mutex_unlock(&registry_lock);
	return in;
}

/* A pooled key for @kalg, @keylen: taken out of the pool; NULL: none. */
static struct afalg_key *pool_take(const char *kalg, size_t keylen)
{
	struct afalg_key *k = NULL;

	pthread_mutex_lock(&registry_lock);
	for (unsigned int i = pool_n; i-- > 0;)
		if (pool[i]->keylen == keylen && strcmp(pool[i]->kalg, kalg) == 0) {
			k = pool[i];
			pool[i] = pool[--pool_n];
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	return k;
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
	ret = reserve_evict(2, max_sockets);
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
/* The ops: the per-key state lives in k->priv, allocated when the key opens. */

void eip93_afalg_close(struct eip93_engine_key *k)
{
	struct afalg_key *a = k->priv;

	if (a == NULL)
		return;
	k->priv = NULL;
	if (!k->no_reuse && pool_put(a))
		return;
	key_close(a);
	free(a);
}

int eip93_afalg_open(struct eip93_engine_key *k, const struct eip93_engine_cfg *c,
		     const unsigned char *key, size_t keylen)
{
	struct afalg_key *a;
	int r;

	eip93_afalg_close(k);
	eip93_engine_key_mode(k, c->kalg);
	k->no_reuse = 0;
	a = pool_take(c->kalg, keylen);
	if (a != NULL) {
		r = setsockopt(a->tfm_fd, SOL_ALG, ALG_SET_KEY, key, (socklen_t)keylen) < 0 ? -errno
											    : 0;
		if (r == 0)
			r = reserve_evict(1, c->max_sockets);
		if (r == 0 && (r = open_fd(a, 0)) < 0) /* its operation socket */
			atomic_fetch_sub(&open_sockets, 1);
		if (r == 0)
			r = set_timeouts(a->op_fd, c->timeout_ms);
		if (r == 0) {
			a->timeout_ms = c->timeout_ms;
			a->max_sockets = c->max_sockets;
			a->aio_off = 0;
			k->priv = a;
			return 0;
		}
		key_close(a); /* a pooled transform that refuses: a new one */
		free(a);
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return -ENOMEM;
	a->tfm_fd = a->op_fd = -1;
	eip93_afalg_aio_init(&a->aio, c->timeout_ms);
	r = key_open(a, c->kalg, key, keylen, c->max_sockets, c->timeout_ms);
	if (r < 0) {
		free(a);
		return r;
	}
	memcpy(a->kalg, c->kalg, strlen(c->kalg) + 1); /* key_open checked its length */
	a->keylen = keylen;
	a->mode = k->mode;
	a->timeout_ms = c->timeout_ms;
	a->max_sockets = c->max_sockets;
	k->priv = a;
	return 0;
}

/* Open in this process: a forked child's inherited key has no sockets (atfork_child). */
int eip93_afalg_is_open(const struct eip93_engine_key *k)
{
	const struct afalg_key *a = k->priv;

	return a != NULL && a->op_fd >= 0;
}

unsigned int eip93_afalg_sockets(void)
{
	return open_socket_count();
}

int eip93_afalg_ahead_socket(struct afalg_key *k, unsigned int max_sockets)
{
	int r;

	if (k->aio.fd >= 0)
		return 0;
	if (k->tfm_fd < 0)
		return -EBADF;
	r = reserve_evict(1, max_sockets);
	if (r < 0)
		return r;
	r = open_fd(k, 0); /* the key's second accept: keystream ahead's */
	if (r == 0)
		r = set_timeouts(k->aio.fd, k->timeout_ms);
	if (r < 0) {
		pthread_mutex_lock(&registry_lock);
		if (k->aio.fd >= 0)
			close(k->aio.fd);
		k->aio.fd = -1;
		pthread_mutex_unlock(&registry_lock);
		atomic_fetch_sub(&open_sockets, 1);
	}
	return r;
}
