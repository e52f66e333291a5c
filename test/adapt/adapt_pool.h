// SPDX-License-Identifier: Apache-2.0
/*
 * A pool of worker threads for the adaptive routing benchmark
 * (adapt_check.c): each thread keeps its own cipher context for the pool's
 * life (its key opened and checked once, as on a long TLS connection), and
 * the threads are parked between slices, so that the routes compared take
 * turns in short slices without paying a thread start or a key check each
 * time.  A slice credits each message's bytes in proportion to the part of
 * the message that fell inside it, so a message cut by the slice's end
 * counts for its share, and routes whose messages take long are neither
 * favoured by a tail nor penalised by a cut.
 */
#ifndef EIP93_ADAPT_POOL_H
#define EIP93_ADAPT_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#define POOL_MAXT 8

struct pool;

struct pool_worker {
	pthread_t t;
	struct pool *p;
	double credit; /* bytes credited to the current slice */
	int err;
};

struct pool {
	const EVP_CIPHER *c;
	size_t len;
	int nt;
	struct pool_worker w[POOL_MAXT];
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	unsigned int gen; /* the slice: a parked worker runs when it changes */
	int parked, quit;
	atomic_int on;		 /* the slice is running */
	_Atomic uint64_t t0, t1; /* the slice's bounds, ns (t1 = UINT64_MAX while on) */
};

/* Monotonic nanoseconds. */
uint64_t pool_now_ns(void);

/*
 * One message: AES-128-GCM encryption of @len bytes in place with a fresh
 * IV, the key set on the context's first message only (as TLS does: a new
 * context per message would be a new key, and so a known-answer check).
 */
int pool_one(EVP_CIPHER_CTX *x, const EVP_CIPHER *c, unsigned char *buf, size_t len, uint64_t *ctr);

/* pool_open() - @nt parked threads encrypting @len-byte messages with @c; 0 or -1. */
int pool_open(struct pool *p, const EVP_CIPHER *c, int nt, size_t len);

/*
 * pool_slice() - run every thread for @ms ms: the bytes credited to the
 * slice, < 0 if a message failed; its length in seconds in *@secs.
 */
double pool_slice(struct pool *p, int ms, double *secs);

/* pool_mbs() - a slice of @ms ms in MB/s, < 0 if a message failed. */
double pool_mbs(struct pool *p, int ms);

void pool_close(struct pool *p);

#endif /* EIP93_ADAPT_POOL_H */
