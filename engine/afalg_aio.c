// SPDX-License-Identifier: Apache-2.0
/*
 * The AF_ALG backend's keystream ahead (afalg_aio.h).  One request at a
 * time per key: the zeros of the request are sent (sendmsg, with the
 * counter block) on the key's second operation socket, and the result is
 * read by an AIO read (io_submit, IOCB_CMD_PREAD): algif_skcipher then
 * queues the request and returns, and the kernel completes the read when the
 * engine has (AF_ALG's asynchronous recvmsg, Linux 4.14 on).  The read lands
 * in one of two buffers, alternately, so the caller can read one keystream
 * while the next is computed into the other.
 *
 * The buffers are one private anonymous mapping marked MADV_WIPEONFORK (a
 * forked child sees zeros there) and MADV_DONTDUMP; a request's bytes are
 * zeroed before it (a block the engine skips stays zero) and cleansed by
 * the caller after use and here on drop.  A request the kernel has not
 * completed within the key's timeout is abandoned with its context and its
 * buffers, never freed (the kernel may still write there), and the key's
 * keystream ahead stays off.
 */
#include "afalg_aio.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <linux/if_alg.h>

#include "../detect/sandbox.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

enum {
	AIO_IDLE = 0, /* nothing outstanding */
	AIO_OUT,      /* submitted, not collected */
	AIO_BROKEN,   /* the socket or the context is unusable: ahead stays off on this key */
	AIO_LOST,     /* timed out: context and buffers abandoned */
};

#define SLOTS 2
#define MAP_LEN (SLOTS * (size_t)EIP93_AHEAD_MAX)

static const unsigned char zeros[4096];

void eip93_afalg_aio_init(struct afalg_aio *a, unsigned int timeout_ms)
{
	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->timeout_ms = timeout_ms;
}

#if defined(SYS_io_setup) && defined(SYS_io_submit) && defined(SYS_io_getevents) &&                \
	defined(SYS_io_destroy) && defined(MADV_WIPEONFORK)

/* The slot the outstanding request writes: the one after the last. */
static unsigned char *slot(const struct afalg_aio *a)
{
	return a->buf + (size_t)(a->cur) * EIP93_AHEAD_MAX;
}

static int make(struct afalg_aio *a)
{
	aio_context_t ctx = 0;
	void *p;

	if (a->buf == NULL) {
		p = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		if (madvise(p, MAP_LEN, MADV_WIPEONFORK) != 0) {
			int e = -errno;

			(void)munmap(p, MAP_LEN);
			return e == -EINVAL ? -ENOSYS : e; /* before Linux 4.14: no ahead */
		}
		(void)madvise(p, MAP_LEN, MADV_DONTDUMP);
		a->buf = p;
	}
	if (a->ctx == 0) {
		/* A filter may kill on io_setup: asked once per key, as before a socket. */
		if (eip93_sandboxed())
			return -EPERM;
		if (syscall(SYS_io_setup, 1, &ctx) != 0)
			return -errno;
		a->ctx = (unsigned long)ctx;
	}
	return 0;
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

int eip93_afalg_aio_start(struct afalg_aio *a, const unsigned char *cb, size_t len)
{
	struct iocb cb_aio;
	struct iocb *list[1] = { &cb_aio };
	unsigned char *out;
	long n;
	int r;

	if (a->state == AIO_OUT)
		return -EBUSY;
	if (a->state != AIO_IDLE)
		return -EIO;
	if (a->fd < 0 || len == 0 || len > EIP93_AHEAD_MAX || len % EIP93_ENGINE_CTRBLK != 0)
		return -EINVAL;
	r = make(a);
	if (r < 0)
		return r;
	a->cur = (a->cur + 1) % SLOTS;
	out = slot(a);
	memset(out, 0, len); /* a block the engine skips stays zero, never old keystream */
	r = send_zeros(a->fd, cb, len);
	if (r < 0) {
		a->state = AIO_BROKEN; /* what was queued on the socket is unknown */
		return r;
	}
	memset(&cb_aio, 0, sizeof(cb_aio));
	cb_aio.aio_lio_opcode = IOCB_CMD_PREAD;
	cb_aio.aio_fildes = (uint32_t)a->fd;
	cb_aio.aio_buf = (uint64_t)(uintptr_t)out;
	cb_aio.aio_nbytes = len;
	do {
		n = syscall(SYS_io_submit, (aio_context_t)a->ctx, 1L, list);
	} while (n < 0 && errno == EINTR);
	if (n != 1) {
		r = n < 0 ? -errno : -EIO;
		a->state = AIO_BROKEN; /* the zeros sent wait on the socket */
		return r;
	}
	a->len = len;
	a->state = AIO_OUT;
	return 0;
}

/* Collect the outstanding request: 0, or -errno (-ETIMEDOUT: abandoned). */
static int collect(struct afalg_aio *a)
{
	struct io_event ev;
	struct timespec ts = { .tv_sec = (time_t)(a->timeout_ms / 1000),
			       .tv_nsec = (long)(a->timeout_ms % 1000) * 1000000L };
	long n;

	do {
		n = syscall(SYS_io_getevents, (aio_context_t)a->ctx, 1L, 1L, &ev, &ts);
	} while (n < 0 && errno == EINTR);
	if (n == 0) {
		a->state = AIO_LOST; /* the kernel may still write: nothing is freed */
		return -ETIMEDOUT;
	}
	if (n < 0) {
		a->state = AIO_BROKEN;
		return -errno;
	}
	a->state = AIO_IDLE;
	if (ev.res < 0)
		return (int)ev.res;
	return (size_t)ev.res == a->len ? 0 : -EIO;
}

int eip93_afalg_aio_wait(struct afalg_aio *a, unsigned char **ks, struct eip93_engine_pages *pg)
{
	int r;

	if (a->state != AIO_OUT)
		return -ENOENT;
	r = collect(a);
	if (r < 0) {
		if (a->state != AIO_LOST)
			explicit_bzero(slot(a), a->len);
		return r;
	}
	/* algif_skcipher read its send buffer (kernel pages from offset 0) and wrote ours. */
	eip93_engine_pages_add(pg, 0);
	eip93_engine_pages_buf(pg, slot(a));
	*ks = slot(a);
	return 0;
}

void eip93_afalg_aio_drop(struct afalg_aio *a)
{
	if (a->state == AIO_OUT)
		(void)collect(a);
	if (a->buf != NULL && a->state != AIO_LOST)
		explicit_bzero(a->buf, MAP_LEN);
}

void eip93_afalg_aio_free(struct afalg_aio *a)
{
	eip93_afalg_aio_drop(a);
	if (a->state != AIO_LOST) { /* abandoned: the kernel may still write there */
		if (a->ctx != 0)
			(void)syscall(SYS_io_destroy, (aio_context_t)a->ctx);
		if (a->buf != NULL)
			(void)munmap(a->buf, MAP_LEN);
	}
	a->ctx = 0;
	a->buf = NULL;
	a->state = AIO_IDLE;
	a->cur = 0;
}

#else /* no AIO or no MADV_WIPEONFORK at build time: no keystream ahead */

int eip93_afalg_aio_start(struct afalg_aio *a, const unsigned char *cb, size_t len)
{
	(void)a;
	(void)cb;
	(void)len;
	return -ENOSYS;
}

int eip93_afalg_aio_wait(struct afalg_aio *a, unsigned char **ks, struct eip93_engine_pages *pg)
{
	(void)a;
	(void)ks;
	(void)pg;
	return -ENOENT;
}

void eip93_afalg_aio_drop(struct afalg_aio *a)
{
	(void)a;
}

void eip93_afalg_aio_free(struct afalg_aio *a)
{
	(void)a;
}

#endif

int eip93_afalg_aio_clean(const struct afalg_aio *a)
{
	return a->state == AIO_IDLE;
}

void eip93_afalg_aio_forget(struct afalg_aio *a)
{
	/* The parent's context is not the child's; its mapping is left (zeros, untouched). */
	a->ctx = 0;
	a->buf = NULL;
	a->state = AIO_IDLE;
	a->cur = 0;
}
