// SPDX-License-Identifier: Apache-2.0
/*
 * Test builds only: the software fake of the engine (see fake.h).  Each key
 * holds a copy of its bytes and a fetched AES-GCM; a message computes the
 * CTR keystream (AES-GCM over zeros), lets the fault plan change it, and
 * then produces exactly what the kernel's gcm_base would with that
 * keystream: sealing, ciphertext = plaintext XOR keystream and the tag over
 * that ciphertext; opening, the tag checked over the input ciphertext and
 * plaintext = ciphertext XOR keystream.
 */
#include "fake.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "engine.h"

#define BLOCK EIP93_FAKE_BLOCK
/* The driver the fake stands in for: the EIP93's AES-CTR and AES-CBC, the kernel GCMs over CTR. */
#define FAKE_DRIVER_CTR "ctr(aes-eip93)"
#define FAKE_DRIVER_CBC "cbc(aes-eip93)"
#define FAKE_DRIVER_ECB "ecb(aes-eip93)"
#define FAKE_GCM_PREFIX "gcm_base(" FAKE_DRIVER_CTR ","
#define FAKE_QCE_GCM_PREFIX "gcm_base(ctr-aes-qce,"

/*
 * The skcipher drivers the fake stands in for: the EIP93's, and the other
 * SoC rows' (provider/soc.c), so that each row's gate and compositions run
 * on the host.
 */
static const char *const fake_skcs[] = {
	FAKE_DRIVER_CTR,
	FAKE_DRIVER_CBC,
	FAKE_DRIVER_ECB,
	"mv-ecb-aes",
	"mv-cbc-aes",
	"ecb-aes-qce",
	"cbc-aes-qce",
	"ctr-aes-qce",
	"ecb-aes-sun8i-ce",
	"cbc-aes-sun8i-ce",
	"__driver-ecb-aes-spacemit-ce1",
	"__driver-cbc-aes-spacemit-ce1",
};

static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
static struct eip93_fake_plan plan; /* site NONE: no faults */
static unsigned long site_calls;    /* calls at plan.site since the plan was set */
static int plan_from_env_done;
static atomic_ulong n_probes, n_opens, n_seals, n_unseals, n_ctrs, n_aheads, n_faults, n_keys;

void eip93_fake_count_skc(void)
{
	atomic_fetch_add(&n_ctrs, 1);
}

void eip93_fake_count_ahead(void)
{
	atomic_fetch_add(&n_aheads, 1);
}

void eip93_fake_set_plan(const struct eip93_fake_plan *p)
{
	pthread_mutex_lock(&plan_lock);
	memset(&plan, 0, sizeof(plan));
	if (p != NULL)
		plan = *p;
	site_calls = 0;
	plan_from_env_done = 1;
	atomic_store(&n_probes, 0);
	atomic_store(&n_opens, 0);
	atomic_store(&n_seals, 0);
	atomic_store(&n_unseals, 0);
	atomic_store(&n_ctrs, 0);
	atomic_store(&n_aheads, 0);
	eip93_fake_bugs_reset();
	atomic_store(&n_faults, 0);
	pthread_mutex_unlock(&plan_lock);
}

void eip93_fake_get_stats(struct eip93_fake_stats *s)
{
	s->probes = atomic_load(&n_probes);
	s->opens = atomic_load(&n_opens);
	s->seals = atomic_load(&n_seals);
	s->unseals = atomic_load(&n_unseals);
	s->ctrs = atomic_load(&n_ctrs);
	s->aheads = atomic_load(&n_aheads);
	s->faults = atomic_load(&n_faults);
	s->open_keys = atomic_load(&n_keys);
}

static int parse_enum(const char *v, size_t n, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (names[i] != NULL && strlen(names[i]) == n && strncmp(v, names[i], n) == 0)
			return i;
	return -1;
}

#define KEY(s, eq, k) ((size_t)((eq) - (s)) == strlen(k) && strncmp((s), (k), strlen(k)) == 0)

/* A numeric key = value; 0 or -EINVAL (unknown key). */
static int set_num(struct eip93_fake_plan *p, const char *s, const char *eq, long num)
{
	if (KEY(s, eq, "err"))
		p->err = (int)num;
	else if (KEY(s, eq, "nth"))
		p->nth = (unsigned long)num;
	else if (KEY(s, eq, "every"))
		p->every = num != 0;
	else if (KEY(s, eq, "block"))
		p->block = num;
	else if (KEY(s, eq, "count"))
		p->count = (unsigned long)num;
	else if (KEY(s, eq, "mask"))
		p->mask = (unsigned char)num;
	else if (KEY(s, eq, "byte") && num >= 0 && num <= 16)
		p->byte = (unsigned long)num;
	else if (KEY(s, eq, "at"))
		p->at = num;
	else if (KEY(s, eq, "page") && num >= 0)
		p->page = (unsigned long)num;
	else
		return -EINVAL;
	return 0;
}

int eip93_fake_parse(const char *s, struct eip93_fake_plan *p)
{
	static const char *const sites[] = { "none",   "probe", "open", "seal",
					     "unseal", "data",	"ahead" };
	static const char *const kinds[] = { "errno", "short", "badmsg",  "keystream", "nowrite",
					     "tail",  "page",  "tagmask", "skip" };
	static const char *const bufs[] = { "out", "in", "tx" };

	memset(p, 0, sizeof(*p));
	while (*s != '\0') {
		const char *eq = strchr(s, '='), *end = strchr(s, ',');
		size_t vlen;
		char *num_end;
		long num;
		int v;

		if (end == NULL)
			end = s + strlen(s);
		if (eq == NULL || eq > end)
			return -EINVAL;
		vlen = (size_t)(end - eq - 1);
		num = strtol(eq + 1, &num_end, 0);
		if (KEY(s, eq, "site")) {
			v = parse_enum(eq + 1, vlen, sites, 7);
			if (v < 0)
				return -EINVAL;
			p->site = (enum eip93_fake_site)v;
		} else if (KEY(s, eq, "kind")) {
			v = parse_enum(eq + 1, vlen, kinds, 9);
			if (v < 0)
				return -EINVAL;
			p->kind = (enum eip93_fake_kind)v;
		} else if (KEY(s, eq, "buf")) {
			v = parse_enum(eq + 1, vlen, bufs, 3);
			if (v < 0)
				return -EINVAL;
			p->buf = (enum eip93_fake_buf)v;
		} else if (num_end != end || set_num(p, s, eq, num) < 0) {
			return -EINVAL;
		}
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}

#undef KEY

/* Does this call at @site fail or go wrong?  Copies the plan into @out. */
int eip93_fake_planned(enum eip93_fake_site site, struct eip93_fake_plan *out)
{
	int hit = 0;

	pthread_mutex_lock(&plan_lock);
	if (!plan_from_env_done) {
		const char *v = getenv("EIP93_TEST_FAKE");

		plan_from_env_done = 1;
		if (v != NULL && eip93_fake_parse(v, &plan) < 0)
			memset(&plan, 0, sizeof(plan));
	}
	if (plan.site == site || (plan.site == EIP93_FAKE_DATA &&
				  (site == EIP93_FAKE_SEAL || site == EIP93_FAKE_UNSEAL))) {
		unsigned long nth = plan.nth == 0 ? 1 : plan.nth;

		site_calls++;
		hit = plan.every ? site_calls >= nth : site_calls == nth;
		*out = plan;
	}
	pthread_mutex_unlock(&plan_lock);
	if (hit)
		atomic_fetch_add(&n_faults, 1);
	return hit;
}

static int fake_probe(const char *kalg)
{
	struct eip93_fake_plan p;

	atomic_fetch_add(&n_probes, 1);
	if (eip93_fake_planned(EIP93_FAKE_PROBE, &p))
		return p.kind == EIP93_FAKE_ERRNO && p.err != 0 ? -p.err : -ENOENT;
	if (strncmp(kalg, FAKE_GCM_PREFIX, sizeof(FAKE_GCM_PREFIX) - 1) == 0 ||
	    strncmp(kalg, FAKE_QCE_GCM_PREFIX, sizeof(FAKE_QCE_GCM_PREFIX) - 1) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(fake_skcs) / sizeof(fake_skcs[0]); i++)
		if (strcmp(kalg, fake_skcs[i]) == 0)
			return 0;
	return -ENOENT;
}

static void fake_close(struct eip93_engine_key *k)
{
	struct fake_key *fk = k->priv;

	if (fk == NULL)
		return;
	eip93_fake_ahead_free(fk);
	EVP_CIPHER_free(fk->gcm);
	EVP_CIPHER_free(fk->skc);
	OPENSSL_clear_free(fk, sizeof(*fk));
	k->priv = NULL;
	atomic_fetch_sub(&n_keys, 1);
}

static unsigned int fake_resources(void)
{
	return (unsigned int)atomic_load(&n_keys) * 2; /* as AF_ALG: two sockets a key */
}

static int fake_open(struct eip93_engine_key *k, const struct eip93_engine_cfg *c,
		     const unsigned char *key, size_t keylen)
{
	static const char *const names[] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };
	static const char *const skcs[3][3] = {
		{ "AES-128-CTR", "AES-192-CTR", "AES-256-CTR" },
		{ "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" },
		{ "AES-128-ECB", "AES-192-ECB", "AES-256-ECB" },
	};
	struct eip93_fake_plan p;
	struct fake_key *fk;
	unsigned long cur;

	fake_close(k);
	atomic_fetch_add(&n_opens, 1);
	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	if (eip93_fake_planned(EIP93_FAKE_OPEN, &p))
		return -(p.err != 0 ? p.err : EIO);
	cur = atomic_load(&n_keys);
	do {
		if ((cur + 1) * 2 > c->max_sockets)
			return -EMFILE;
	} while (!atomic_compare_exchange_weak(&n_keys, &cur, cur + 1));
	eip93_engine_key_mode(k, c->kalg);
	fk = OPENSSL_zalloc(sizeof(*fk));
	if (fk != NULL)
		fk->gcm = EVP_CIPHER_fetch(c->libctx, names[keylen / 8 - 2], NULL);
	if (fk != NULL && k->mode != EIP93_EMODE_AEAD)
		fk->skc = EVP_CIPHER_fetch(c->libctx,
					   skcs[k->mode - EIP93_EMODE_CTR][keylen / 8 - 2], NULL);
	if (fk == NULL || fk->gcm == NULL || (k->mode != EIP93_EMODE_AEAD && fk->skc == NULL)) {
		if (fk != NULL) {
			EVP_CIPHER_free(fk->gcm);
			EVP_CIPHER_free(fk->skc);
		}
		OPENSSL_free(fk);
		atomic_fetch_sub(&n_keys, 1);
		return -ENOMEM;
	}
	memcpy(fk->key, key, keylen);
	fk->keylen = keylen;
	fk->mode = k->mode;
	k->priv = fk;
	return 0;
}

static int fake_is_open(const struct eip93_engine_key *k)
{
	return k->priv != NULL;
}

/* AES-GCM encryption of @in into @out (may alias) with @aad; the tag into @tag. */
static int gcm_seal(const struct fake_key *fk, const unsigned char *iv, const unsigned char *aad,
		    size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		    unsigned char *tag)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n, ok;

	ok = c != NULL && EVP_EncryptInit_ex2(c, fk->gcm, fk->key, iv, NULL) &&
	     (aadlen == 0 || EVP_EncryptUpdate(c, NULL, &n, aad, (int)aadlen)) &&
	     (len == 0 || EVP_EncryptUpdate(c, out, &n, in, (int)len)) &&
	     EVP_EncryptFinal_ex(c, out, &n) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, EIP93_ENGINE_TAGLEN, tag);
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -ENOMEM;
}

/* AES-GCM decryption; 0, -EBADMSG or -ENOMEM. */
static int gcm_unseal(const struct fake_key *fk, const unsigned char *iv, const unsigned char *aad,
		      size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		      const unsigned char *tag)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n, ok;

	ok = c != NULL && EVP_DecryptInit_ex2(c, fk->gcm, fk->key, iv, NULL) &&
	     (aadlen == 0 || EVP_DecryptUpdate(c, NULL, &n, aad, (int)aadlen)) &&
	     (len == 0 || EVP_DecryptUpdate(c, out, &n, in, (int)len)) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, EIP93_ENGINE_TAGLEN, (void *)tag);
	if (!ok) {
		EVP_CIPHER_CTX_free(c);
		return -ENOMEM;
	}
	ok = EVP_DecryptFinal_ex(c, out + len, &n);
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -EBADMSG;
}

/*
 * The keystream difference the plan puts in @d (len bytes, zero = correct
 * keystream): KEYSTREAM XORs the mask into the first byte of each chosen
 * block; NOWRITE cancels the keystream there (@ks: the true keystream);
 * TAIL XORs the mask into one byte of the last 16 (a fault that hits the
 * end of the buffer by bytes, not by blocks); PAGE into the byte @at bytes
 * from the chosen page boundary of the request's source, destination or a
 * kernel buffer filled from payload offset 0 (@m).
 */
static int chosen_blocks(const struct eip93_fake_plan *p, size_t len, size_t *first, size_t *last)
{
	size_t nblocks = (len + BLOCK - 1) / BLOCK;
	long b = p->block < 0 ? (long)nblocks + p->block : p->block;

	if (nblocks == 0 || b < 0 || (size_t)b >= nblocks)
		return 0;
	*first = (size_t)b;
	*last = p->count == 0 || *first + p->count > nblocks ? nblocks : *first + p->count;
	return 1;
}

/* SKIP: what the destination held before the request (@len + 1 bytes allocated), or NULL. */
unsigned char *eip93_fake_snapshot(const unsigned char *out, size_t len)
{
	unsigned char *p = OPENSSL_malloc(len + 1);

	if (p != NULL)
		memcpy(p, out, len);
	return p;
}

/* SKIP: the chosen blocks of @out get back what @prior says they held before. */
void eip93_fake_unwrite(const struct eip93_fake_plan *p, const unsigned char *prior,
			unsigned char *out, size_t len)
{
	size_t first, last;

	if (prior != NULL && chosen_blocks(p, len, &first, &last))
		memcpy(out + first * BLOCK, prior + first * BLOCK,
		       (last * BLOCK > len ? len : last * BLOCK) - first * BLOCK);
}

void eip93_fake_keystream_fault(const struct eip93_fake_plan *p, const unsigned char *ks,
				unsigned char *d, size_t len, const struct eip93_engine_msg *m)
{
	size_t first, last;
	unsigned char mask = p->mask != 0 ? p->mask : 0x01;

	if (p->kind == EIP93_FAKE_TAIL) {
		size_t back = p->byte == 0 ? BLOCK : p->byte;

		if (len >= back)
			d[len - back] ^= mask;
		return;
	}
	if (p->kind == EIP93_FAKE_PAGE) {
		const unsigned char *buf = p->buf == EIP93_FAKE_BUF_IN ? m->in : m->out;
		size_t edge = p->buf == EIP93_FAKE_BUF_TX ? 4096 : 4096 - (uintptr_t)buf % 4096;
		long at = (long)(edge + 4096 * (p->page > 1 ? p->page - 1 : 0)) + p->at;

		if (at >= 0 && (size_t)at < len)
			d[at] ^= mask;
		return;
	}
	if (!chosen_blocks(p, len, &first, &last))
		return;
	for (size_t i = first; i < last; i++) {
		size_t off = i * BLOCK, n = len - off < BLOCK ? len - off : BLOCK;

		if (p->kind == EIP93_FAKE_NOWRITE || p->kind == EIP93_FAKE_SKIP)
			memcpy(d + off, ks + off, n);
		else
			d[off] ^= p->mask != 0 ? p->mask : 0x01;
	}
}

static void scribble(unsigned char *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (unsigned char)(0xa5 ^ i);
}

/* The plan's errno and short-read faults: the output scribbled on, and the error (else 0). */
int eip93_fake_failed_call(const struct eip93_fake_plan *p, const struct eip93_engine_msg *m)
{
	if (p->kind == EIP93_FAKE_ERRNO) {
		scribble(m->out, m->len);
		return -(p->err != 0 ? p->err : EIO);
	}
	if (p->kind == EIP93_FAKE_SHORT) {
		scribble(m->out, m->len / 2);
		return -EIO;
	}
	return 0;
}

static int fake_msg(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc)
{
	const struct fake_key *fk = k->priv;
	unsigned char *tmp = NULL, *ks = NULL, *d = NULL, *prior = NULL, scratch[BLOCK];
	struct eip93_fake_plan p;
	int r, hit;

	atomic_fetch_add(enc ? &n_seals : &n_unseals, 1);
	if (fk == NULL)
		return -EBADF;
	if (m->aadlen > EIP93_ENGINE_MAX_AAD)
		return -EINVAL;
	hit = eip93_fake_planned(enc ? EIP93_FAKE_SEAL : EIP93_FAKE_UNSEAL, &p);
	r = hit ? eip93_fake_failed_call(&p, m) : 0;
	if (r != 0)
		return r;
	tmp = OPENSSL_malloc(m->len + BLOCK);
	ks = OPENSSL_zalloc(m->len + BLOCK);
	d = OPENSSL_zalloc(m->len + BLOCK);
	if (hit && p.kind == EIP93_FAKE_SKIP)
		prior = eip93_fake_snapshot(m->out, m->len);
	r = -ENOMEM;
	if (tmp == NULL || ks == NULL || d == NULL || (hit && p.kind == EIP93_FAKE_SKIP && !prior))
		goto out;
	if (fk->skc != NULL) {
		r = -EINVAL; /* an skcipher key has no AEAD operation, as with AF_ALG */
		goto out;
	}
	if (hit &&
	    (p.kind == EIP93_FAKE_KEYSTREAM || p.kind == EIP93_FAKE_NOWRITE ||
	     p.kind == EIP93_FAKE_TAIL || p.kind == EIP93_FAKE_PAGE || p.kind == EIP93_FAKE_SKIP)) {
		/* The true keystream: AES-GCM over zeros. */
		r = gcm_seal(fk, m->iv, NULL, 0, d, m->len, ks, scratch);
		if (r < 0)
			goto out;
		eip93_fake_keystream_fault(&p, ks, d, m->len, m);
	}
	if (enc) {
		/* Ciphertext with the engine's keystream; the tag over that ciphertext. */
		for (size_t i = 0; i < m->len; i++)
			tmp[i] = m->in[i] ^ d[i];
		r = gcm_seal(fk, m->iv, m->aad, m->aadlen, tmp, m->len, tmp, m->tag);
		if (r == 0)
			memcpy(m->out, tmp, m->len);
		if (r == 0 && hit && p.kind == EIP93_FAKE_TAGMASK)
			m->tag[0] ^= p.mask != 0 ? p.mask : 0x01; /* E_K(J0) wrong: the tag is */
	} else {
		r = gcm_unseal(fk, m->iv, m->aad, m->aadlen, m->in, m->len, tmp, m->tag);
		if (r == 0 && hit && (p.kind == EIP93_FAKE_BADMSG || p.kind == EIP93_FAKE_TAGMASK))
			r = -EBADMSG; /* TAGMASK: the tag it computes is wrong, the right one refused */
		for (size_t i = 0; i < m->len; i++)
			m->out[i] = tmp[i] ^ d[i];
		if (r == -EBADMSG)
			scribble(m->out, m->len); /* unauthenticated: make any release visible */
	}
	if (r == 0 && hit && p.kind == EIP93_FAKE_SKIP)
		eip93_fake_unwrite(&p, prior, m->out, m->len);
	if (r == 0) { /* AF_ALG's AEAD: the send buffer from the AAD on and the destination;
		       * /dev/crypto's: the source and the destination */
		eip93_engine_pages_add(m->pages, EIP93_ENGINE_PAGE - m->aadlen % EIP93_ENGINE_PAGE);
		eip93_engine_pages_buf(m->pages, m->in);
		eip93_engine_pages_buf(m->pages, m->out);
	}
out:
	OPENSSL_clear_free(prior, m->len + 1);
	OPENSSL_clear_free(tmp, m->len + BLOCK);
	OPENSSL_clear_free(ks, m->len + BLOCK);
	OPENSSL_clear_free(d, m->len + BLOCK);
	return r;
}

static int fake_seal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return fake_msg(k, m, 1);
}

static int fake_unseal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return fake_msg(k, m, 0);
}

const struct eip93_engine_ops eip93_engine_fake = {
	.name = "fake",
	.probe = fake_probe,
	.key_open = fake_open,
	.key_close = fake_close,
	.key_is_open = fake_is_open,
	.seal = fake_seal,
	.unseal = fake_unseal,
	.skc = eip93_fake_skc,
	.resources = fake_resources,
	.ahead_start = eip93_fake_ahead_start,
	.ahead_wait = eip93_fake_ahead_wait,
	.ahead_drop = eip93_fake_ahead_drop,
};

static int fake_row_probe(const char *kalg, char *driver, size_t n)
{
	(void)driver;
	(void)n;
	return fake_probe(kalg);
}

/* The fake stands in for AF_ALG: its row, with AF_ALG's words. */
const struct eip93_engine_row eip93_engine_row_fake = {
	.id = EIP93_BACKEND_AFALG,
	.name = "afalg",
	.road = "AF_ALG",
	.via = "",
	.ops = &eip93_engine_fake,
	.probe = fake_row_probe,
	.dead = eip93_afalg_dead,
	.tried = eip93_afalg_tried,
	.why = eip93_afalg_why,
};
