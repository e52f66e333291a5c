// SPDX-License-Identifier: Apache-2.0
/*
 * The key checks' verdicts, kept per provider instance, so that a context
 * whose key bytes passed the known-answer check in another context of this
 * process (a copy of a keyed template that never ran a message, a second
 * context keyed with the same bytes) does not run the check again.
 *
 * An entry is not the key: it is HMAC-SHA256, under a secret drawn from
 * getrandom() once per instance (not from the DRBG the application sees),
 * of the key's length and bytes, the kernel algorithm the instance bound
 * and its backend's name.  Only passes are kept.  An entry counts
 *   - only in the process that reached it: the table is stamped with the
 *     process id and the fork count (pthread_atfork), and a forked child
 *     finds its entries wiped, so it checks again;
 *   - only while the instance has counted no engine error and no engine
 *     fault since its check began (eip93-engine-errors, eip93-engine-faults):
 *     after either, the next context with those bytes checks them again.
 * A failed check removes its key's entry.  SLOTS entries, the least
 * recently used one overwritten; an entry is cleansed when it is
 * overwritten or removed, every entry when a child wipes them, the whole
 * table (the keyed HMAC state included) when the instance is freed.  One lock for every instance's table, held
 * for a few comparisons, never across a libcrypto call, and taken around a
 * fork, so a child never inherits it held.
 */
#include "verdict.h"

#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#define SLOTS 16
#define SECRET_LEN 32

struct verdict {
	unsigned char tag[EIP93_VERDICT_TAGLEN];
	uint64_t trouble; /* the instance's engine errors + faults when its check began */
	uint64_t used;	  /* the table's clock at its last use; 0: empty */
};

struct eip93_verdicts {
	EVP_MAC_CTX *mac; /* HMAC-SHA256 keyed with the secret (NULL: nothing is kept) */
	/* What follows belongs to one process (pid, forks); wiped in another. */
	int pid;
	unsigned int forks; /* the fork count it was stamped with */
	uint64_t serial;    /* wipes so far: a query holds to the entries it started on */
	uint64_t clock;
	struct verdict v[SLOTS];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static unsigned int forks; /* forks this process descends through (under the lock) */

static void atfork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

/* In the child: every table it inherited belongs to its parent. */
static void atfork_child(void)
{
	forks++;
	pthread_mutex_unlock(&lock);
}

static void atfork_register(void)
{
	(void)pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

static uint64_t trouble(struct eip93_alg_env *env)
{
	return eip93_stat_get(&env->stats->engine_errors) +
	       eip93_stat_get(&env->stats->engine_faults);
}

/* Under the lock: @t's entries as this process may use them (wiped if another's). */
static void table_own(struct eip93_verdicts *t, int pid)
{
	if (t->pid == pid && t->forks == forks)
		return;
	OPENSSL_cleanse(t->v, sizeof(t->v));
	t->clock = 0;
	t->serial++;
	t->pid = pid;
	t->forks = forks;
}

/* HMAC-SHA256 keyed with a secret drawn now (NULL: no secret or no HMAC). */
static EVP_MAC_CTX *keyed_mac(struct eip93_alg_env *env)
{
	unsigned char secret[SECRET_LEN];
	char digest[] = "SHA256";
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
			    OSSL_PARAM_construct_end() };
	EVP_MAC *mac;
	EVP_MAC_CTX *m = NULL;
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(secret)) {
		n = getrandom(secret + got, sizeof(secret) - got, GRND_NONBLOCK);
		if (n <= 0)
			goto out;
		got += (size_t)n;
	}
	mac = EVP_MAC_fetch(env->libctx, "HMAC", NULL);
	m = mac == NULL ? NULL : EVP_MAC_CTX_new(mac);
	EVP_MAC_free(mac); /* the context holds its own reference */
	if (m != NULL && !EVP_MAC_init(m, secret, sizeof(secret), p)) {
		EVP_MAC_CTX_free(m);
		m = NULL;
	}
out:
	OPENSSL_cleanse(secret, sizeof(secret));
	return m;
}

/* The instance's table, made at its first use (NULL: none, nothing kept). */
static struct eip93_verdicts *table_get(struct eip93_alg_env *env)
{
	struct eip93_verdicts *t, *made;

	pthread_mutex_lock(&lock);
	t = env->verdicts;
	pthread_mutex_unlock(&lock);
	if (t != NULL)
		return t;
	made = OPENSSL_zalloc(sizeof(*made));
	if (made == NULL)
		return NULL;
	made->mac = keyed_mac(env);
	pthread_mutex_lock(&lock);
	if (env->verdicts == NULL) {
		env->verdicts = made;
		made = NULL;
	}
	t = env->verdicts;
	pthread_mutex_unlock(&lock);
	if (made != NULL) { /* another thread was first */
		EVP_MAC_CTX_free(made->mac);
		OPENSSL_free(made);
	}
	return t;
}

/* The tag of @ctx's key: 1, or 0 (libcrypto failed). */
static int key_tag(struct eip93_cctx *ctx, const EVP_MAC_CTX *keyed, unsigned char *tag)
{
	const struct eip93_alg_env *env = ctx->env;
	const char *be = env->engine->name;
	unsigned char len = (unsigned char)ctx->key.len;
	EVP_MAC_CTX *m = EVP_MAC_CTX_dup(keyed); /* the keyed state, read by every thread */
	size_t n = 0;
	int ok;

	ok = m != NULL && EVP_MAC_update(m, &len, 1) &&
	     EVP_MAC_update(m, ctx->key.bytes, ctx->key.len) &&
	     EVP_MAC_update(m, (const unsigned char *)env->kalg, strlen(env->kalg) + 1) &&
	     EVP_MAC_update(m, (const unsigned char *)be, strlen(be) + 1) &&
	     EVP_MAC_final(m, tag, &n, EIP93_VERDICT_TAGLEN) && n == EIP93_VERDICT_TAGLEN;
	EVP_MAC_CTX_free(m); /* HMAC's state is cleansed when freed */
	return ok;
}

/* Under the lock: @t's entry for @tag, or NULL. */
static struct verdict *slot_find(struct eip93_verdicts *t, const unsigned char *tag)
{
	for (size_t i = 0; i < SLOTS; i++)
		if (t->v[i].used != 0 && CRYPTO_memcmp(t->v[i].tag, tag, EIP93_VERDICT_TAGLEN) == 0)
			return &t->v[i];
	return NULL;
}

int eip93_verdict_find(struct eip93_cctx *ctx, struct eip93_verdict_query *q)
{
	struct eip93_verdicts *t;
	struct verdict *v;
	int pid = (int)getpid(), hit = 0;

	memset(q, 0, sizeof(*q));
	q->trouble = trouble(ctx->env); /* before the check that may follow */
	t = table_get(ctx->env);
	if (t == NULL || t->mac == NULL)
		return 0;
	pthread_once(&atfork_once, atfork_register);
	q->ok = key_tag(ctx, t->mac, q->tag);
	if (!q->ok)
		return 0;
	pthread_mutex_lock(&lock);
	table_own(t, pid);
	q->serial = t->serial;
	v = slot_find(t, q->tag);
	if (v != NULL && v->trouble == q->trouble) {
		v->used = ++t->clock;
		hit = 1;
	}
	pthread_mutex_unlock(&lock);
	return hit;
}

void eip93_verdict_keep(struct eip93_cctx *ctx, struct eip93_verdict_query *q, int passed)
{
	struct eip93_verdicts *t;
	struct verdict *v;

	if (!q->ok) /* no tag: nothing was found, nothing to keep */
		goto out;
	t = table_get(ctx->env); /* there since the query */
	if (t == NULL)
		goto out;
	pthread_mutex_lock(&lock);
	table_own(t, (int)getpid());
	if (t->serial == q->serial) {
		v = slot_find(t, q->tag);
		if (v == NULL && passed) {
			v = &t->v[0];
			for (size_t i = 1; i < SLOTS; i++)
				if (t->v[i].used < v->used)
					v = &t->v[i]; /* an empty one, else the least recently used */
		}
		if (v != NULL) {
			OPENSSL_cleanse(v, sizeof(*v));
			if (passed) {
				memcpy(v->tag, q->tag, EIP93_VERDICT_TAGLEN);
				v->trouble = q->trouble;
				v->used = ++t->clock;
			}
		}
	}
	pthread_mutex_unlock(&lock);
out:
	OPENSSL_cleanse(q, sizeof(*q));
}

void eip93_verdict_free(struct eip93_alg_env *env)
{
	struct eip93_verdicts *t;

	pthread_mutex_lock(&lock);
	t = env->verdicts;
	env->verdicts = NULL;
	pthread_mutex_unlock(&lock);
	if (t == NULL)
		return;
	EVP_MAC_CTX_free(t->mac);
	OPENSSL_clear_free(t, sizeof(*t));
}
