// SPDX-License-Identifier: Apache-2.0
/*
 * engine/afalg.c and fork: no window in which a fork leaves a
 * key's AF_ALG sockets in the child.  The syscalls are stand-ins (the link
 * wraps socket, bind, setsockopt, accept4 and close: this host's kernel has
 * no AF_ALG), the registry and its pthread_atfork handlers are the real
 * ones.  At each point where the code holds a socket the registry does not
 * list — right after socket() and accept4() return, right before close() —
 * a second thread forks; the child counts which of the key's descriptors
 * it still holds after the atfork handlers ran.  It must hold none.  The
 * wrapped call lets the fork happen (it waits up to WAIT_MS for it, then
 * goes on: a fork that waits for the key's registry lock completes later,
 * which is the fix).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_alg.h>

#include "check.h"
#include "../../engine/engine.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#define WAIT_MS 300
#define KALG "gcm_base(ctr(aes-eip93),ghash-generic)"

int __real_socket(int domain, int type, int protocol);
int __real_close(int fd);
int __wrap_socket(int domain, int type, int protocol);
int __wrap_bind(int fd, const struct sockaddr *a, socklen_t len);
int __wrap_setsockopt(int fd, int level, int name, const void *v, socklen_t len);
int __wrap_accept4(int fd, struct sockaddr *a, socklen_t *len, int flags);
int __wrap_close(int fd);

enum point { P_NONE, P_SOCKET, P_ACCEPT, P_CLOSE };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static enum point armed; /* where the next fork is wanted */
static int want, forked; /* a fork asked for / its parent side returned */
static int held;	 /* descriptors of the key the child still held, or -1 */
static int fds[4], nfds; /* the key's descriptors (the stand-ins) */
static int result[2];	 /* child -> forker */
static int stop;

/* A stand-in socket: a descriptor nobody else uses. */
static int standin(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && nfds < 4)
		fds[nfds++] = fd;
	return fd;
}

/* The forker thread: forks when asked; the child reports what it holds. */
static void *forker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	for (;;) {
		pid_t pid;
		unsigned char n = 0;
		int st, k, count;

		while (!want && !stop)
			pthread_cond_wait(&cv, &mu);
		if (stop)
			break;
		want = 0;
		k = nfds;
		pthread_mutex_unlock(&mu);
		pid = fork();
		if (pid == 0) {
			count = 0;
			for (int i = 0; i < k; i++)
				count += fcntl(fds[i], F_GETFD) != -1;
			n = (unsigned char)count;
			_exit(write(result[1], &n, 1) == 1 ? 0 : 1);
		}
		pthread_mutex_lock(&mu);
		forked = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		count = -1;
		if (pid > 0 && read(result[0], &n, 1) == 1 && waitpid(pid, &st, 0) == pid &&
		    WIFEXITED(st) && WEXITSTATUS(st) == 0)
			count = n;
		pthread_mutex_lock(&mu);
		held = count;
		pthread_cond_broadcast(&cv);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* At point @p, if armed there: ask for a fork and give it WAIT_MS to happen. */
static void window(enum point p)
{
	struct timespec until;
	int r = 0;

	pthread_mutex_lock(&mu);
	if (armed != p) {
		pthread_mutex_unlock(&mu);
		return;
	}
	armed = P_NONE;
	want = 1;
	forked = 0;
	held = -2; /* no answer yet */
	pthread_cond_broadcast(&cv);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += WAIT_MS * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	while (!forked && r == 0)
		r = pthread_cond_timedwait(&cv, &mu, &until);
	pthread_mutex_unlock(&mu);
}

int __wrap_socket(int domain, int type, int protocol)
{
	int fd;

	if (domain != AF_ALG)
		return __real_socket(domain, type, protocol);
	fd = standin();
	window(P_SOCKET);
	return fd;
}

int __wrap_bind(int fd, const struct sockaddr *a, socklen_t len)
{
	(void)fd;
	(void)a;
	(void)len;
	return 0;
}

/* Accepted stand-ins still open: the kernel refuses a new key while there is one. */
static int children[8], nchildren;

int __wrap_setsockopt(int fd, int level, int name, const void *v, socklen_t len)
{
	(void)fd;
	(void)v;
	(void)len;
	if (level == SOL_ALG && name == ALG_SET_KEY && nchildren > 0) {
		errno = EBUSY; /* af_alg's alg_setkey: a child socket is in use */
		return -1;
	}
	return 0;
}

int __wrap_accept4(int fd, struct sockaddr *a, socklen_t *len, int flags)
{
	int op;

	(void)fd;
	(void)a;
	(void)len;
	(void)flags;
	op = standin();
	if (op >= 0 && nchildren < 8)
		children[nchildren++] = op;
	window(P_ACCEPT);
	return op;
}

int __wrap_close(int fd)
{
	for (int i = 0; i < nchildren; i++)
		if (children[i] == fd) {
			children[i] = children[--nchildren];
			break;
		}
	for (int i = 0; i < nfds; i++)
		if (fds[i] == fd) {
			window(P_CLOSE);
			break;
		}
	return __real_close(fd);
}

/* The child's answer for the fork asked for last (-1: none was asked). */
static int answer(void)
{
	int n;

	pthread_mutex_lock(&mu);
	while (held == -2)
		pthread_cond_wait(&cv, &mu);
	n = held == -3 ? -1 : held;
	pthread_mutex_unlock(&mu);
	return n;
}

/*
 * Open a key, fork at @p (P_CLOSE: in its close), close it; what the child
 * held, or -1 if the fork failed.
 */
static int fork_at(enum point p, struct eip93_engine_key *k)
{
	const struct eip93_engine_cfg cfg = { .kalg = KALG, .max_sockets = 16, .timeout_ms = 100 };
	int r;

	nfds = 0;
	pthread_mutex_lock(&mu);
	armed = p;
	held = -3; /* the point was not reached */
	pthread_mutex_unlock(&mu);
	r = eip93_engine_afalg.key_open(k, &cfg, (const unsigned char *)"0123456789abcdef", 16);
	CHECK_EQ_INT(r, 0);
	if (p == P_CLOSE) { /* a pooled key's close() comes when the pool lets it go */
		eip93_engine_afalg.key_close(k);
		eip93_afalg_pool_flush();
	}
	r = answer();
	if (p != P_CLOSE)
		eip93_engine_afalg.key_close(k);
	eip93_afalg_pool_flush(); /* the next key opens its own sockets */
	return r;
}

int main(void)
{
	struct eip93_engine_key k;
	pthread_t t;
	int control, n;

	eip93_engine_key_init(&k);
	if (pipe2(result, O_CLOEXEC) != 0 || pthread_create(&t, NULL, forker, NULL) != 0) {
		perror("setup");
		return 1;
	}

	/* The detector: a descriptor no key holds survives a fork. */
	nfds = 0;
	control = standin();
	pthread_mutex_lock(&mu);
	armed = P_CLOSE;
	held = -3;
	pthread_mutex_unlock(&mu);
	__wrap_close(control);
	n = answer();
	printf("control: a descriptor of no key, forked before its close: the child held %d\n", n);
	CHECK_EQ_INT(n, 1);

	n = fork_at(P_SOCKET, &k);
	printf("fork right after socket() returned: the child held %d of the key's sockets\n", n);
	CHECK_EQ_INT(n, 0);
	n = fork_at(P_ACCEPT, &k);
	printf("fork right after accept4() returned: the child held %d\n", n);
	CHECK_EQ_INT(n, 0);
	n = fork_at(P_CLOSE, &k);
	printf("fork right before close() of an open key: the child held %d\n", n);
	CHECK_EQ_INT(n, 0);
	CHECK_EQ_INT(eip93_engine_afalg.resources(), 0);
	CHECK(k.priv == NULL);

	/* Transforms reused across keys: a closed AES-CTR key's sockets wait in the pool ... */
	{
		const struct eip93_engine_cfg cfg = { .kalg = KALG,
						      .max_sockets = 16,
						      .timeout_ms = 100 };
		const unsigned char key2[16] = { 1 };
		void *first;

		CHECK_EQ_INT(eip93_engine_afalg.key_open(&k, &cfg, key2, 16), 0);
		first = k.priv;
		eip93_engine_afalg.key_close(&k);
		CHECK(k.priv == NULL);
		/* pooled: its bound socket only (the operation socket closed, so the key took) */
		CHECK_EQ_INT(eip93_engine_afalg.resources(), 1);
		CHECK_EQ_INT(nchildren, 0);
		nfds = 0;
		CHECK_EQ_INT(eip93_engine_afalg.key_open(&k, &cfg, key2, 16), 0);
		CHECK(k.priv == first); /* ... and the next key of its kind takes it */
		CHECK_EQ_INT(nfds, 1);	/* no socket(): one accept4() */
		CHECK_EQ_INT(eip93_engine_afalg.resources(), 2);
		eip93_engine_afalg.key_close(&k);
		/* ... a key of another length does not; a cap of 2 evicts the pooled ones */
		const struct eip93_engine_cfg cap2 = { .kalg = KALG,
						       .max_sockets = 2,
						       .timeout_ms = 100 };
		CHECK_EQ_INT(eip93_engine_afalg.key_open(&k, &cap2, key2, 16 + 8), 0);
		CHECK(k.priv != first);
		CHECK_EQ_INT(eip93_engine_afalg.resources(), 2);
		eip93_engine_afalg.key_close(&k);
		/* ... a key whose transform computed a wrong result is never pooled */
		eip93_afalg_pool_flush();
		CHECK_EQ_INT(eip93_engine_afalg.key_open(&k, &cfg, key2, 16), 0);
		k.no_reuse = 1; /* what the fault accounting sets (alg/account.c) */
		eip93_engine_afalg.key_close(&k);
		CHECK_EQ_INT(eip93_afalg_pool_sockets(), 0);
		CHECK_EQ_INT(eip93_engine_afalg.resources(), 0);
		eip93_afalg_pool_flush();
		CHECK_EQ_INT(eip93_engine_afalg.resources(), 0);
	}

	pthread_mutex_lock(&mu);
	stop = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	return check_done("test_afalg_fork");
}
