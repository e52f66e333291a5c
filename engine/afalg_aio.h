// SPDX-License-Identifier: Apache-2.0
/*
 * afalg_aio.c: the AF_ALG backend's keystream ahead (engine/engine.h
 * ahead_start, ahead_wait, ahead_drop): one AES-CTR request per key, the
 * encryption of zeros, made on the key's own second operation socket by the
 * process's one keystream worker thread, so the engine computes while the
 * caller goes on.  (Linux AIO on AF_ALG sockets, as libkcapi used it, is
 * synchronous on current kernels: docs/design.md "Keystream ahead".)
 * Private to the backend.
 */
#ifndef EIP93_AFALG_AIO_H
#define EIP93_AFALG_AIO_H

#include <stddef.h>

#include "engine.h"

/* One key's keystream ahead.  All zero (and @fd -1) before its first use. */
struct afalg_aio {
	int fd;		    /* the second operation socket (afalg.c opens and closes it) */
	unsigned char *buf; /* EIP93_AHEAD_MAX bytes, mmap'd, wiped on fork; NULL: none */
	unsigned char cb[EIP93_ENGINE_CTRBLK]; /* the request's counter block */
	size_t len;			       /* the request's bytes */
	int state;			       /* AIO_* (afalg_aio.c), under the worker's lock */
	int err;			       /* the request's outcome once done: 0 or -errno */
	struct afalg_aio *next;		       /* the worker's queue */
};

/* A fresh one (no syscalls). */
void eip93_afalg_aio_init(struct afalg_aio *a, unsigned int timeout_ms);
/*
 * Before a key's first request ahead, and before its socket: not under a
 * seccomp filter (-EPERM), the buffer made (-ENOSYS: no MADV_WIPEONFORK
 * here; -errno).  0: the socket may be opened and requests started.
 */
int eip93_afalg_aio_prepare(struct afalg_aio *a);
/*
 * Start the keystream of @len bytes from counter block @cb on @a->fd (open,
 * the buffer prepared): 0, -EBUSY (one outstanding or uncollected), or
 * -errno (the worker could not start).
 */
int eip93_afalg_aio_start(struct afalg_aio *a, const unsigned char *cb, size_t len);
/* Wait for it: 0 with *@ks = @a->buf, -ENOENT (none), or -errno (the buffer then cleansed). */
int eip93_afalg_aio_wait(struct afalg_aio *a, unsigned char **ks, struct eip93_engine_pages *pg);
/* Wait for one outstanding, cleanse the buffer (the request's bytes); idempotent. */
void eip93_afalg_aio_drop(struct afalg_aio *a);
/* Nothing outstanding and nothing left on its socket: may serve another key (1), or not (0). */
int eip93_afalg_aio_clean(const struct afalg_aio *a);
/* Drop, then free the buffer (the socket, @fd, is afalg.c's). */
void eip93_afalg_aio_free(struct afalg_aio *a);
/*
 * In a forked child (atfork): forget the parent's request without a
 * syscall; the buffer reads as zeros there (MADV_WIPEONFORK).
 */
void eip93_afalg_aio_forget(struct afalg_aio *a);
/*
 * The worker ends (joined) when nothing is queued; the next request starts
 * another.  Called when a provider instance goes, before the module may be
 * unloaded.
 */
void eip93_afalg_aio_stop(void);

#endif /* EIP93_AFALG_AIO_H */
