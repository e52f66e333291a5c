// SPDX-License-Identifier: Apache-2.0
/* Parked worker threads taking turns in slices (see adapt_pool.h). */
#include "adapt_pool.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t pool_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int pool_one(EVP_CIPHER_CTX *x, const EVP_CIPHER *c, unsigned char *buf, size_t len, uint64_t *ctr)
{
	static const unsigned char key[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
	unsigned char iv[12] = { 0 }, tag[16];
	int n = 0, m = 0;

	if (EVP_CIPHER_CTX_get0_cipher(x) == NULL && !EVP_EncryptInit_ex2(x, c, key, NULL, NULL))
		return -1;
	(*ctr)++;
	memcpy(iv + 4, ctr, sizeof(*ctr));
	return EVP_EncryptInit_ex2(x, NULL, NULL, iv, NULL) &&
			       EVP_EncryptUpdate(x, buf, &n, buf, (int)len) &&
			       EVP_EncryptFinal_ex(x, buf, &m) &&
			       EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag)
		       ? 0
		       : -1;
}

/* The share of a message run from @s to @e (ns) that falls inside the slice. */
static double inside(const struct pool *p, uint64_t s, uint64_t e)
{
	uint64_t t0 = atomic_load(&p->t0), t1 = atomic_load(&p->t1);
	uint64_t lo = s > t0 ? s : t0, hi = e < t1 ? e : t1;

	if (hi <= lo)
		return e == s && s >= t0 && s < t1 ? 1.0 : 0.0;
	return (double)(hi - lo) / (double)(e - s);
}

static void *pool_work(void *arg)
{
	struct pool_worker *w = arg;
	struct pool *p = w->p;
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned char *buf = calloc(1, p->len);
	uint64_t ctr = (uint64_t)(uintptr_t)w << 20, s, e;
	unsigned int gen = 0;

	w->err = x == NULL || buf == NULL;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		p->parked++;
		pthread_cond_signal(&p->done);
		while (p->gen == gen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		if (p->quit)
			break;
		gen = p->gen;
		p->parked--;
		pthread_mutex_unlock(&p->mu);
		while (!w->err && atomic_load(&p->on)) {
			s = pool_now_ns();
			if (pool_one(x, p->c, buf, p->len, &ctr) < 0) {
				w->err = 1;
				break;
			}
			e = pool_now_ns();
			w->credit += (double)p->len * inside(p, s, e);
		}
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	EVP_CIPHER_CTX_free(x);
	free(buf);
	return NULL;
}

/* Wait, holding p->mu, until every thread is parked. */
static void wait_parked(struct pool *p)
{
	while (p->parked < p->nt)
		pthread_cond_wait(&p->done, &p->mu);
}

int pool_open(struct pool *p, const EVP_CIPHER *c, int nt, size_t len)
{
	memset(p, 0, sizeof(*p));
	if (nt < 1 || nt > POOL_MAXT)
		return -1;
	p->c = c;
	p->len = len;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	for (int i = 0; i < nt; i++) {
		p->w[i].p = p;
		if (pthread_create(&p->w[i].t, NULL, pool_work, &p->w[i]) != 0) {
			pool_close(p);
			return -1;
		}
		p->nt = i + 1;
	}
	return 0;
}

double pool_slice(struct pool *p, int ms, double *secs)
{
	double bytes = 0;
	uint64_t t0, t1;
	int err = 0;

	pthread_mutex_lock(&p->mu);
	wait_parked(p);
	for (int i = 0; i < p->nt; i++)
		p->w[i].credit = 0;
	t0 = pool_now_ns();
	atomic_store(&p->t0, t0);
	atomic_store(&p->t1, UINT64_MAX);
	atomic_store(&p->on, 1);
	p->gen++;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	usleep((useconds_t)ms * 1000);
	t1 = pool_now_ns();
	atomic_store(&p->t1, t1);
	atomic_store(&p->on, 0);
	/* the messages still running finish outside the slice: each keeps its share */
	pthread_mutex_lock(&p->mu);
	wait_parked(p);
	for (int i = 0; i < p->nt; i++) {
		bytes += p->w[i].credit;
		err |= p->w[i].err;
	}
	pthread_mutex_unlock(&p->mu);
	*secs = (double)(t1 - t0) / 1e9;
	return err ? -1 : bytes;
}

double pool_mbs(struct pool *p, int ms)
{
	double secs, bytes = pool_slice(p, ms, &secs);

	return bytes < 0 || secs <= 0 ? -1 : bytes / secs / 1e6;
}

void pool_close(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	wait_parked(p);
	p->quit = 1;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->nt; i++)
		pthread_join(p->w[i].t, NULL);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	p->nt = 0;
}
