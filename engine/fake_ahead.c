// SPDX-License-Identifier: Apache-2.0
/*
 * Test builds only: the fake's keystream ahead (engine.h's ahead_start,
 * ahead_wait, ahead_drop; fake.h says how it behaves).  A start records
 * the request in the key; the keystream is computed at the wait (or at the
 * start with EIP93_TEST_FAKE_AHEAD=eager) by the fake's own AES-CTR request
 * over zeros, in place in the key's buffer: one page-aligned mapping of
 * EIP93_AHEAD_MAX bytes, MADV_WIPEONFORK and MADV_DONTDUMP, cleansed on
 * drop, on the next start and when the key closes.
 */
#include "fake.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "engine.h"

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18 /* the Linux value, where the C library's headers lack it */
#endif

enum ahead_state {
	AHEAD_NONE = 0, /* nothing started, or its buffer returned by a wait */
	AHEAD_STARTED,	/* started, not computed yet */
	AHEAD_DONE,	/* computed (eager), not waited for yet */
};

struct fake_ahead {
	unsigned char *buf; /* EIP93_AHEAD_MAX bytes, mmap'ed */
	unsigned char cb[EIP93_ENGINE_CTRBLK];
	size_t len;
	int enc;
	int err;   /* DONE: the request's result */
	pid_t pid; /* the process that started it */
	enum ahead_state state;
	struct eip93_engine_pages pg; /* DONE: the phases the request reported */
};

static int eager(void)
{
	const char *v = getenv("EIP93_TEST_FAKE_AHEAD");

	return v != NULL && strcmp(v, "eager") == 0;
}

static struct fake_ahead *ahead_get(struct fake_key *fk)
{
	struct fake_ahead *a = fk->ahead;
	void *p;

	if (a != NULL)
		return a;
	a = OPENSSL_zalloc(sizeof(*a));
	if (a == NULL)
		return NULL;
	p = mmap(NULL, EIP93_AHEAD_MAX, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		OPENSSL_free(a);
		return NULL;
	}
	if (madvise(p, EIP93_AHEAD_MAX, MADV_WIPEONFORK) != 0) { /* Linux 4.14 */
		munmap(p, EIP93_AHEAD_MAX);
		OPENSSL_free(a);
		return NULL;
	}
#ifdef MADV_DONTDUMP
	(void)madvise(p, EIP93_AHEAD_MAX, MADV_DONTDUMP);
#endif
	a->buf = p;
	fk->ahead = a;
	return a;
}

/* The request into the buffer: the AES-CTR of zeros from the counter block. */
static void compute(struct eip93_engine_key *k, struct fake_ahead *a)
{
	struct eip93_engine_msg m = { 0 };

	memset(&a->pg, 0, sizeof(a->pg));
	memset(a->buf, 0, a->len);
	m.iv = a->cb;
	m.in = a->buf;
	m.out = a->buf;
	m.len = a->len;
	m.pages = &a->pg;
	a->err = eip93_fake_skc_req(k, &m, a->enc, 1);
	a->state = AHEAD_DONE;
}

/* Forget the request and cleanse what the buffer holds. */
static void forget(struct fake_ahead *a)
{
	if (a->len != 0)
		OPENSSL_cleanse(a->buf, a->len);
	a->len = 0;
	a->state = AHEAD_NONE;
	a->err = 0;
	memset(&a->pg, 0, sizeof(a->pg));
}

int eip93_fake_ahead_start(struct eip93_engine_key *k, const unsigned char *cb, size_t len, int enc)
{
	struct fake_key *fk = k->priv;
	struct fake_ahead *a;

	if (fk == NULL)
		return -EBADF;
	if (fk->mode != EIP93_EMODE_CTR || fk->skc == NULL || cb == NULL || len == 0 ||
	    len % EIP93_FAKE_BLOCK != 0 || len > EIP93_AHEAD_MAX)
		return -EINVAL;
	a = ahead_get(fk);
	if (a == NULL)
		return -ENOMEM;
	if (a->pid == getpid() && (a->state == AHEAD_STARTED || a->state == AHEAD_DONE))
		return -EBUSY;
	forget(a);
	eip93_fake_count_ahead();
	memcpy(a->cb, cb, sizeof(a->cb));
	a->len = len;
	a->enc = enc;
	a->pid = getpid();
	a->state = AHEAD_STARTED;
	if (eager())
		compute(k, a);
	return 0;
}

int eip93_fake_ahead_wait(struct eip93_engine_key *k, unsigned char **ks,
			  struct eip93_engine_pages *pg)
{
	struct fake_key *fk = k->priv;
	struct fake_ahead *a = fk != NULL ? fk->ahead : NULL;
	int r;

	*ks = NULL;
	if (a == NULL || a->state == AHEAD_NONE || a->pid != getpid())
		return -ENOENT; /* none started, already waited for, or a parent's */
	if (a->state == AHEAD_STARTED)
		compute(k, a);
	r = a->err;
	a->state = AHEAD_NONE; /* returned: the caller's to read until drop or the next start */
	if (r != 0)
		return r;
	for (unsigned int i = 0; i < a->pg.n; i++)
		eip93_engine_pages_add(pg, a->pg.q[i]);
	*ks = a->buf;
	return 0;
}

void eip93_fake_ahead_drop(struct eip93_engine_key *k)
{
	struct fake_key *fk = k->priv;

	if (fk != NULL && fk->ahead != NULL)
		forget(fk->ahead);
}

void eip93_fake_ahead_free(struct fake_key *fk)
{
	struct fake_ahead *a = fk->ahead;

	if (a == NULL)
		return;
	forget(a);
	munmap(a->buf, EIP93_AHEAD_MAX);
	OPENSSL_clear_free(a, sizeof(*a));
	fk->ahead = NULL;
}
