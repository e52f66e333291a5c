// SPDX-License-Identifier: Apache-2.0
/*
 * The AF_ALG backend's keystream ahead (afalg_aio.h).  One request at a
 * time per key: the zeros of the request are sent (sendmsg, with the
 * counter block) on the key's second operation socket and the keystream
 * read back (read), by the process's one keystream worker thread, while
 * the caller goes on; a wait joins the request.  Linux AIO cannot do it:
 * mainline removed AIO on sockets (commit fcc77d33a34c, "net: Remove
 * support for AIO on sockets") and the stable trees make algif_skcipher's
 * AIO read synchronous (io_submit returns when the engine has finished:
 * measured on Debian's 6.1 in the guest), so without a thread nothing
 * overlaps.
 *
 * The worker (docs/design.md "Keystream ahead: the worker thread"):
 * started at the first request of the process (never under a seccomp
 * filter: asked first, as before a socket), with every signal blocked; it
 * makes only sendmsg and read on keystream-ahead sockets, each bounded by
 * the socket's timeouts; it never touches OpenSSL.  A forked child has no
 * worker (threads are not inherited) and forgets its parent's requests;
 * its next request starts its own.  When a provider instance goes the
 * worker is joined (eip93_afalg_aio_stop), so the module can be unloaded.
 *
 * The buffer is a private anonymous mapping marked MADV_WIPEONFORK (a
 * forked child sees zeros there) and MADV_DONTDUMP; a request's bytes are
 * zeroed before it (a block the engine skips stays zero), the caller
 * cleanses what it used, and a drop cleanses the rest.
 */
#include "afalg_aio.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/if_alg.h>

#include "../detect/sandbox.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

enum {
	AIO_IDLE = 0, /* nothing outstanding */
	AIO_QUEUED,   /* waiting for the worker */
	AIO_RUNNING,  /* the worker is making it */
	AIO_DONE,     /* made (err says how), not collected */
	AIO_BROKEN,   /* its socket's state is unknown: ahead stays off on this key */
};

static const unsigned char zeros[4096];

/* The worker: one per process, its queue, under @lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER; /* a request queued, or stop */
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER; /* a request done */
static struct afalg_aio *head, *tail;
static pthread_t worker;
static int running;  /* the worker exists in this process */
static int stopping; /* eip93_afalg_aio_stop() asks it to end */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

void eip93_afalg_aio_init(struct afalg_aio *a, unsigned int timeout_ms)
{
	memset(a, 0, sizeof(*a));
	a->fd = -1;
	(void)timeout_ms; /* the socket's own (afalg.c sets it) bounds each request */
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

/*
 * The child has no worker; the keys' requests are forgotten by afalg.c's
 * registry.  The condition variables are made new: the parent's worker (and
 * any parent thread in join()) waited on them, waiters the child does not
 * have and that would block its first wake-ups for good.
 */
static void fork_child(void)
{
	static const pthread_cond_t fresh = PTHREAD_COND_INITIALIZER;

	head = tail = NULL;
	running = 0;
	stopping = 0;
	memcpy(&work_cv, &fresh, sizeof(fresh));
	memcpy(&done_cv, &fresh, sizeof(fresh));
	pthread_mutex_unlock(&lock);
}

static void atfork_register(void)
{
	(void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static struct cmsghdr *put(struct msghdr *msg, struct cmsghdr *c, int type, const void *v,
			   size_t len)
{
	c = c == NULL ? CMSG_FIRSTHDR(msg) : CMSG_NXTHDR(msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(c), v, len);
	return c;
}

/* The zeros of @len bytes and the counter block in one sendmsg; 0 or -errno. */
static int send_zeros(int fd, const unsigned char *cb, size_t len)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + EIP93_ENGINE_CTRBLK)];
		struct cmsghdr align;
	} cbuf;
	unsigned char ivbuf[sizeof(struct af_alg_iv) + EIP93_ENGINE_CTRBLK];
	struct af_alg_iv iv = { .ivlen = EIP93_ENGINE_CTRBLK };
	struct iovec v[EIP93_AHEAD_MAX / sizeof(zeros)];
	uint32_t op = ALG_OP_ENCRYPT;
	struct msghdr msg;
	size_t n = 0;
	ssize_t r;

	for (size_t off = 0; off < len; off += sizeof(zeros), n++)
		v[n] = (struct iovec){ .iov_base = (void *)zeros,
				       .iov_len = len - off < sizeof(zeros) ? len - off
									    : sizeof(zeros) };
	memcpy(ivbuf, &iv, sizeof(iv));
	memcpy(ivbuf + sizeof(iv), cb, EIP93_ENGINE_CTRBLK);
	memset(&cbuf, 0, sizeof(cbuf));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);
	(void)put(&msg, put(&msg, NULL, ALG_SET_OP, &op, sizeof(op)), ALG_SET_IV, ivbuf,
		  sizeof(ivbuf));
	msg.msg_iov = v;
	msg.msg_iovlen = n;
	do {
		r = sendmsg(fd, &msg, 0);
	} while (r < 0 && errno == EINTR);
	explicit_bzero(ivbuf, sizeof(ivbuf));
	explicit_bzero(&cbuf, sizeof(cbuf));
	if (r < 0)
		return -errno;
	return (size_t)r == len ? 0 : -EIO;
}

/* One request, made by the worker outside the lock: 0 or -errno. */
static int make_request(int fd, const unsigned char *cb, unsigned char *out, size_t len)
{
	ssize_t n;
	int r = send_zeros(fd, cb, len);

	if (r < 0)
		return r;
	do {
		n = read(fd, out, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static void *work(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct afalg_aio *a;
		unsigned char cb[EIP93_ENGINE_CTRBLK];
		int fd, r;
		size_t len;
		unsigned char *out;

		while (head == NULL && !stopping)
			pthread_cond_wait(&work_cv, &lock);
		if (head == NULL)
			break; /* stopping, and nothing queued */
		a = head;
		head = a->next;
		if (head == NULL)
			tail = NULL;
		a->next = NULL;
		a->state = AIO_RUNNING;
		fd = a->fd;
		len = a->len;
		out = a->buf;
		memcpy(cb, a->cb, sizeof(cb));
		pthread_mutex_unlock(&lock);
		r = make_request(fd, cb, out, len);
		explicit_bzero(cb, sizeof(cb));
		pthread_mutex_lock(&lock);
		a->err = r;
		a->state = AIO_DONE;
		pthread_cond_broadcast(&done_cv);
	}
	running = 0;
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* Under @lock: the worker of this process, started if need be; 0 or -errno. */
static int ensure_worker(void)
{
	sigset_t all, old;
	int r;

	if (running)
		return 0;
	/* A filter may kill on clone() or on the worker's calls: asked before, as before a socket. */
	if (eip93_sandboxed())
		return -EPERM;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the worker takes no signal */
	r = pthread_create(&worker, NULL, work, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0)
		return -r;
	running = 1;
	stopping = 0;
	return 0;
}

static int make_buffer(struct afalg_aio *a)
{
	void *p;

	if (a->buf != NULL)
		return 0;
	p = mmap(NULL, EIP93_AHEAD_MAX, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
#ifdef MADV_WIPEONFORK
	if (madvise(p, EIP93_AHEAD_MAX, MADV_WIPEONFORK) != 0) {
#else
	{
#endif
		/* Before Linux 4.14 (or a libc without it): a child would inherit it: none. */
		(void)munmap(p, EIP93_AHEAD_MAX);
		return -ENOSYS;
	}
	(void)madvise(p, EIP93_AHEAD_MAX, MADV_DONTDUMP);
	a->buf = p;
	return 0;
}

int eip93_afalg_aio_prepare(struct afalg_aio *a)
{
	/* A filter may kill on accept4 (the socket), clone (the worker) or their calls. */
	if (eip93_sandboxed())
		return -EPERM;
	pthread_once(&atfork_once, atfork_register);
	return make_buffer(a);
}

int eip93_afalg_aio_start(struct afalg_aio *a, const unsigned char *cb, size_t len)
{
	int r;

	if (a->fd < 0 || a->buf == NULL || len == 0 || len > EIP93_AHEAD_MAX ||
	    len % EIP93_ENGINE_CTRBLK != 0)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	if (a->state == AIO_QUEUED || a->state == AIO_RUNNING || a->state == AIO_DONE)
		r = -EBUSY;
	else if (a->state != AIO_IDLE)
		r = -EIO;
	else
		r = ensure_worker();
	if (r == 0) {
		/* A block the engine skips stays zero, never old keystream. */
		memset(a->buf, 0, len);
		memcpy(a->cb, cb, sizeof(a->cb));
		a->len = len;
		a->err = 0;
		a->state = AIO_QUEUED;
		a->next = NULL;
		if (tail != NULL)
			tail->next = a;
		else
			head = a;
		tail = a;
		pthread_cond_signal(&work_cv);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

/* Under @lock: take @a out of the queue if it is there (never made). */
static int unqueue(struct afalg_aio *a)
{
	struct afalg_aio **p = &head, *prev = NULL;

	for (; *p != NULL; prev = *p, p = &(*p)->next)
		if (*p == a) {
			*p = a->next;
			if (tail == a)
				tail = prev;
			a->next = NULL;
			a->state = AIO_IDLE;
			return 1;
		}
	return 0;
}

/* Under @lock: wait until @a is made (the worker's request is bounded by its socket's timeouts). */
static void join(struct afalg_aio *a)
{
	while (a->state == AIO_QUEUED || a->state == AIO_RUNNING)
		pthread_cond_wait(&done_cv, &lock);
}

int eip93_afalg_aio_wait(struct afalg_aio *a, unsigned char **ks, struct eip93_engine_pages *pg)
{
	int r;

	pthread_mutex_lock(&lock);
	if (a->state != AIO_QUEUED && a->state != AIO_RUNNING && a->state != AIO_DONE) {
		pthread_mutex_unlock(&lock);
		return -ENOENT;
	}
	join(a);
	r = a->err;
	/* A failed request may have left bytes on its socket: the key's ahead stays off. */
	a->state = r == 0 ? AIO_IDLE : AIO_BROKEN;
	pthread_mutex_unlock(&lock);
	if (r < 0) {
		explicit_bzero(a->buf, a->len);
		return r;
	}
	/* algif_skcipher read its send buffer (kernel pages from offset 0) and wrote ours. */
	eip93_engine_pages_add(pg, 0);
	eip93_engine_pages_buf(pg, a->buf);
	*ks = a->buf;
	return 0;
}

void eip93_afalg_aio_drop(struct afalg_aio *a)
{
	pthread_mutex_lock(&lock);
	if (!unqueue(a))
		join(a);
	if (a->state == AIO_DONE)
		a->state = a->err == 0 ? AIO_IDLE : AIO_BROKEN;
	pthread_mutex_unlock(&lock);
	if (a->buf != NULL)
		explicit_bzero(a->buf, a->len);
}

void eip93_afalg_aio_free(struct afalg_aio *a)
{
	eip93_afalg_aio_drop(a);
	if (a->buf != NULL)
		(void)munmap(a->buf, EIP93_AHEAD_MAX);
	a->buf = NULL;
	a->state = AIO_IDLE;
}

int eip93_afalg_aio_clean(const struct afalg_aio *a)
{
	return a->state == AIO_IDLE;
}

void eip93_afalg_aio_forget(struct afalg_aio *a)
{
	/* The parent's request is not the child's; its mapping is left (zeros, untouched). */
	a->buf = NULL;
	a->state = AIO_IDLE;
	a->next = NULL;
}

void eip93_afalg_aio_stop(void)
{
	pthread_t t;
	int join_it;

	pthread_mutex_lock(&lock);
	join_it = running && !stopping; /* one caller joins it */
	t = worker;
	if (join_it) {
		stopping = 1;
		pthread_cond_broadcast(&work_cv);
	}
	pthread_mutex_unlock(&lock);
	if (join_it)
		(void)pthread_join(t, NULL); /* it ends once the queue is empty */
}
