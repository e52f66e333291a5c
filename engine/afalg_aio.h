// SPDX-License-Identifier: Apache-2.0
/*
 * afalg_aio.c: the AF_ALG backend's keystream ahead (engine/engine.h
 * ahead_start, ahead_wait, ahead_drop): one asynchronous AES-CTR request per
 * key, the encryption of zeros sent on the key's own second operation
 * socket and read with Linux AIO (io_submit of a read, as libkcapi does), so
 * the engine computes while the caller goes on.  Private to the backend.
 */
#ifndef EIP93_AFALG_AIO_H
#define EIP93_AFALG_AIO_H

#include <stddef.h>

#include "engine.h"

/* One key's keystream ahead.  All zero (and @fd -1) before its first use. */
struct afalg_aio {
	int fd;			 /* the second operation socket (afalg.c opens and closes it) */
	unsigned long ctx;	 /* the AIO context (aio_context_t); 0: none */
	unsigned char *buf;	 /* EIP93_AHEAD_MAX bytes, mmap'd, wiped on fork; NULL: none */
	size_t len;		 /* the request's bytes */
	int state;		 /* AIO_* (afalg_aio.c) */
	int cur;		 /* the buffer (of two) the last request wrote */
	unsigned int timeout_ms; /* how long a wait waits */
};

/* A fresh one (no syscalls). */
void eip93_afalg_aio_init(struct afalg_aio *a, unsigned int timeout_ms);
/*
 * Start the keystream of @len bytes from counter block @cb on @a->fd (open):
 * 0, -EBUSY (one outstanding or uncollected), -EPERM (under a seccomp
 * filter: no AIO context is made), -ENOSYS (no AIO here), or -errno.
 */
int eip93_afalg_aio_start(struct afalg_aio *a, const unsigned char *cb, size_t len);
/* Wait for it: 0 with *@ks = @a->buf, -ENOENT (none), or -errno (the buffer then cleansed). */
int eip93_afalg_aio_wait(struct afalg_aio *a, unsigned char **ks, struct eip93_engine_pages *pg);
/* Wait for one outstanding, cleanse the buffer (the request's bytes); idempotent. */
void eip93_afalg_aio_drop(struct afalg_aio *a);
/* Nothing outstanding and nothing left on its socket: may serve another key (1), or not (0). */
int eip93_afalg_aio_clean(const struct afalg_aio *a);
/* Drop, then free the AIO context and the buffers (the socket, @fd, is afalg.c's). */
void eip93_afalg_aio_free(struct afalg_aio *a);
/*
 * In a forked child (atfork): forget the parent's AIO context and request
 * without a syscall; the buffer reads as zeros there (MADV_WIPEONFORK).
 */
void eip93_afalg_aio_forget(struct afalg_aio *a);

#endif /* EIP93_AFALG_AIO_H */
