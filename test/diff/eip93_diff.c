// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-diff: differential test of the eip93 provider's AES-GCM.
 *
 * The provider must be indistinguishable from the default provider's AES-GCM
 * for every input shape, and must agree with the kernel's own gcm(aes)
 * (through libkcapi: an implementation independent of OpenSSL) for the shapes
 * the kernel supports.
 *
 * How it compares: each implementation runs the same script of EVP calls,
 * and every call's return value, output length and output bytes go into a
 * transcript; the two transcripts must be identical.  Expected results are
 * not hard-coded: whatever the default provider does is the contract.  The
 * only fixed expectations are harness sanity checks on the reference itself
 * (a valid ciphertext must decrypt) and the comparisons with the kernel.
 *
 * Every case is generated from the seed and its case number alone, so one
 * case can be replayed with `--seed S --case N`.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <kcapi.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif

#define DEFAULT_CASES 10000UL
#define MAX_IV 64  /* IV lengths drawn for random shapes */
#define IV_BUF 128 /* GCM accepts IVs up to 128 bytes */
#define MAX_CHUNKS 8
#define MAX_OPS 40
#define MAX_REC 12
#define MAX_STEPS 6
#define TAG_MAX 16
#define TAG_BUF 32
#define SHAPE_MAX 8192
#define DETAIL_MAX 10	/* failing cases reported in full */
#define LIST_MAX 100	/* failing cases listed at all */
#define MSGS_PER_CASE 6 /* divergences printed per failing case */
#define ENGINE_MIN 4096 /* the provider's default engine window */
#define ENGINE_MAX 32768
#define ENGINE_AAD_MAX 512
#define TLS_EIV 8   /* TLS 1.2 GCM explicit nonce */
#define TLS_FIXED 4 /* TLS 1.2 GCM fixed (implicit) nonce part */
#define TLS_TAG 16
#define TLS12_AAD 13
#define TLS13_HDR 5

static const char *const cipher_names[3] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };
static const size_t key_lens[3] = { 16, 24, 32 };

/* Sizes every default run must contain (generic messages, forced cases). */
static const size_t boundaries[] = { 0,	   1,	  15,	 16,	17,    4095, 4096,
				     4097, 16384, 32767, 32768, 32769, 65536 };
#define N_BOUND (sizeof(boundaries) / sizeof(boundaries[0]))

static const char *const counter_names[] = { "eip93-engine-messages",	"eip93-engine-bytes",
					     "eip93-software-messages", "eip93-key-checks-passed",
					     "eip93-key-checks-failed", "eip93-engine-errors" };
#define N_COUNTERS (sizeof(counter_names) / sizeof(counter_names[0]))

/* ------------------------------------------------------------------ */
/* Small utilities                                                      */
/* ------------------------------------------------------------------ */

/* Zeroed, so that no output ever depends on uninitialised memory. */
static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p == NULL) {
		fputs("eip93-diff: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL) {
		fputs("eip93-diff: out of memory\n", stderr);
		exit(2);
	}
	return q;
}

static void copy_bytes(void *dst, const void *src, size_t n)
{
	if (n != 0)
		memcpy(dst, src, n);
}

static void *xmemdup(const void *src, size_t n)
{
	void *p = xmalloc(n);

	copy_bytes(p, src, n);
	return p;
}

static void put_be16(unsigned char *p, size_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static uint64_t get_be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ */
/* Seeded PRNG: splitmix64 seeding a xoshiro256** state per case        */
/* ------------------------------------------------------------------ */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (0xd1342543de82ef95ULL * (stream + 1));

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl64(uint64_t v, int k)
{
	return (v << k) | (v >> (64 - k));
}

static uint64_t rng_u64(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return out;
}

static size_t rng_below(struct rng *r, size_t n)
{
	return n == 0 ? 0 : (size_t)(rng_u64(r) % n);
}

static size_t rng_range(struct rng *r, size_t lo, size_t hi)
{
	return lo + rng_below(r, hi - lo + 1);
}

static int rng_pct(struct rng *r, unsigned int pct)
{
	return rng_below(r, 100) < pct;
}

static void rng_fill(struct rng *r, unsigned char *p, size_t n)
{
	while (n > 0) {
		uint64_t v = rng_u64(r);
		size_t k = n < 8 ? n : 8;

		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
}

static unsigned char rng_nonzero_byte(struct rng *r)
{
	return (unsigned char)rng_range(r, 1, 255);
}

/* ------------------------------------------------------------------ */
/* Transcripts                                                          */
/* ------------------------------------------------------------------ */

struct tr_entry {
	char what[72];
	long long ret;
	long long len;
	size_t off;
	size_t n;
	int untrusted; /* bytes not compared: random or unauthenticated */
};

struct tr {
	struct tr_entry *e;
	size_t ne, cape;
	unsigned char *buf;
	size_t nbuf, capbuf;
};

static void tr_reset(struct tr *t)
{
	t->ne = 0;
	t->nbuf = 0;
}

static void tr_free(struct tr *t)
{
	free(t->e);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

static void tr_log(struct tr *t, const char *what, long long ret, long long len, const void *bytes,
		   size_t n, int untrusted)
{
	struct tr_entry *e;

	if (t->ne == t->cape) {
		t->cape = t->cape ? 2 * t->cape : 64;
		t->e = xrealloc(t->e, t->cape * sizeof(*t->e));
	}
	e = &t->e[t->ne++];
	snprintf(e->what, sizeof(e->what), "%s", what);
	e->ret = ret;
	e->len = len;
	e->off = t->nbuf;
	e->n = bytes != NULL ? n : 0;
	e->untrusted = untrusted;
	if (e->n == 0)
		return;
	if (t->nbuf + n > t->capbuf) {
		while (t->nbuf + n > t->capbuf)
			t->capbuf = t->capbuf ? 2 * t->capbuf : 65536;
		t->buf = xrealloc(t->buf, t->capbuf);
	}
	memcpy(t->buf + t->nbuf, bytes, n);
	t->nbuf += n;
}

/* Returns 0 when both transcripts agree, else 1 with a description. */
static int tr_compare(const struct tr *a, const struct tr *b, const char *la, const char *lb,
		      char *msg, size_t msglen)
{
	size_t n = a->ne < b->ne ? a->ne : b->ne;

	for (size_t i = 0; i < n; i++) {
		const struct tr_entry *x = &a->e[i], *y = &b->e[i];

		if (strcmp(x->what, y->what) != 0) {
			snprintf(msg, msglen,
				 "step %zu: call sequence differs (%s: '%s', %s: '%s')", i, la,
				 x->what, lb, y->what);
			return 1;
		}
		if (x->ret != y->ret || x->len != y->len) {
			snprintf(msg, msglen,
				 "step %zu '%s': %s returned %lld (length %lld), "
				 "%s returned %lld (length %lld)",
				 i, x->what, la, x->ret, x->len, lb, y->ret, y->len);
			return 1;
		}
		if (x->n != y->n) {
			snprintf(msg, msglen,
				 "step %zu '%s': %s output %zu bytes, %s output %zu bytes", i,
				 x->what, la, x->n, lb, y->n);
			return 1;
		}
		if (x->untrusted || y->untrusted || x->n == 0)
			continue;
		if (memcmp(a->buf + x->off, b->buf + y->off, x->n) != 0) {
			size_t j = 0;

			while (a->buf[x->off + j] == b->buf[y->off + j])
				j++;
			snprintf(msg, msglen,
				 "step %zu '%s': output bytes differ at offset %zu of "
				 "%zu (%s 0x%02x, %s 0x%02x)",
				 i, x->what, j, x->n, la, a->buf[x->off + j], lb,
				 b->buf[y->off + j]);
			return 1;
		}
	}
	if (a->ne != b->ne) {
		const struct tr *longer = a->ne > b->ne ? a : b;

		snprintf(msg, msglen,
			 "transcripts differ in length: %s %zu calls, %s %zu calls "
			 "(first extra: '%s')",
			 la, a->ne, lb, b->ne, longer->e[n].what);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Harness state and reporting                                          */
/* ------------------------------------------------------------------ */

enum ctype {
	CT_STATIC,
	CT_GENERIC,
	CT_REINIT,
	CT_ERRORS,
	CT_IVGEN,
	CT_TLS12,
	CT_TLS13,
	CT_NAMED, /* --script only */
	CT_N
};

static const char *const ctype_names[CT_N] = { "static", "generic", "reinit", "errors",
					       "ivgen",	 "tls12",   "tls13",  "named" };

/* Relative weights of randomly drawn case types (CT_STATIC is forced only). */
static const unsigned int ctype_weight[CT_N] = { 0, 72, 7, 7, 3, 7, 4, 0 };

struct impl {
	const char *label;
	const char *props;
	EVP_CIPHER *c[3];
};

struct stats {
	unsigned long per_type[CT_N];
	double secs_by_type[CT_N];
	unsigned long long bytes_by_type[CT_N];
	unsigned long messages;	     /* messages through the implementation */
	unsigned long engine_shaped; /* of which in the engine's window */
	unsigned long kc_enc, kc_dec;
	unsigned long kc_skipped;
	unsigned long long bytes;
	unsigned long bound_hits[N_BOUND];
	unsigned long tls12_records, tls13_records;
	unsigned long corrupted;
	unsigned long copies;
};

struct harness {
	OSSL_LIB_CTX *lib;
	OSSL_PROVIDER *prov_test;
	OSSL_PROVIDER *prov_default;
	struct impl test, ref;
	int self_check;
	int kernel;
	const char *kernel_alg; /* the kernel AEAD compared against */
	int verbose;
	int require_engine;
	int no_kernel; /* --no-kernel: no comparisons with the kernel */
	int script;    /* --script: index of a named script, -2 all, -1 none */
	uint64_t seed;
	unsigned long caseno;
	enum ctype ctype;
	char shape[SHAPE_MAX];
	size_t shape_len;
	int case_failed;
	int case_msgs;
	unsigned long passed, failed, reported;
	struct tr ta, tb, tc;
	struct stats st;
};

static void shape_add(struct harness *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void shape_add(struct harness *h, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (h->shape_len >= sizeof(h->shape) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(h->shape + h->shape_len, sizeof(h->shape) - h->shape_len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	h->shape_len += (size_t)n;
	if (h->shape_len > sizeof(h->shape) - 1)
		h->shape_len = sizeof(h->shape) - 1;
}

static void shape_hex(struct harness *h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		shape_add(h, "%02x", p[i]);
}

static void failf(struct harness *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void failf(struct harness *h, const char *fmt, ...)
{
	if (!h->case_failed) {
		h->case_failed = 1;
		h->reported++;
		if (h->reported <= DETAIL_MAX) {
			printf("FAIL seed=%" PRIu64 " case=%lu type=%s"
			       " (replay: eip93-diff%s --seed %" PRIu64 " --case %lu)\n",
			       h->seed, h->caseno, ctype_names[h->ctype],
			       h->self_check ? " --self-check" : "", h->seed, h->caseno);
			printf("  shape: %s\n", h->shape);
		} else if (h->reported <= LIST_MAX) {
			printf("FAIL seed=%" PRIu64 " case=%lu type=%s\n", h->seed, h->caseno,
			       ctype_names[h->ctype]);
		} else if (h->reported == LIST_MAX + 1) {
			printf("(further failing cases are counted, not listed)\n");
		}
	}
	if (h->reported <= DETAIL_MAX && h->case_msgs < MSGS_PER_CASE) {
		va_list ap;

		printf("  - ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	h->case_msgs++;
	fflush(stdout);
}

static void compare_tr(struct harness *h, const char *what, const struct tr *x, const char *lx,
		       const struct tr *y, const char *ly)
{
	char msg[640];

	if (tr_compare(x, y, lx, ly, msg, sizeof(msg)))
		failf(h, "%s: %s", what, msg);
}

static int engine_shaped(size_t ivlen, size_t taglen, size_t aadlen, size_t len)
{
	return ivlen == 12 && taglen == TAG_MAX && aadlen <= ENGINE_AAD_MAX && len >= ENGINE_MIN &&
	       len <= ENGINE_MAX;
}

static void count_message(struct harness *h, size_t ivlen, size_t taglen, size_t aadlen, size_t len,
			  int overlap)
{
	h->st.messages++;
	h->st.bytes += len;
	if (!overlap && engine_shaped(ivlen, taglen, aadlen, len))
		h->st.engine_shaped++;
}

/* ------------------------------------------------------------------ */
/* The kernel's gcm(aes) through libkcapi                               */
/* ------------------------------------------------------------------ */

/* libkcapi refuses one-shot AEAD input larger than ALG_MAX_PAGES pages. */
static size_t kc_limit(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return (size_t)(p > 0 ? p : 4096) * 16;
}

static int kc_taglen_ok(size_t t)
{
	return t == 4 || t == 8 || (t >= 12 && t <= 16);
}

static int kc_usable(struct harness *h, size_t ivlen, size_t taglen, size_t aadlen, size_t len)
{
	if (!h->kernel)
		return 0;
	if (ivlen != 12 || !kc_taglen_ok(taglen) || aadlen + len + taglen > kc_limit()) {
		h->st.kc_skipped++;
		return 0;
	}
	return 1;
}

/*
 * One AEAD operation in the kernel. Returns 1 when done, 0 on an
 * authentication failure (decryption), or a negative errno.
 * enc: out receives ct||tag (inlen + taglen); decrypt: out receives pt.
 */
static int kc_aead(const char *alg, int enc, const unsigned char *key, size_t keylen,
		   const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		   const unsigned char *in, size_t inlen, const unsigned char *tag, size_t taglen,
		   unsigned char *out)
{
	struct kcapi_handle *kh = NULL;
	size_t ilen = aadlen + inlen + (enc ? 0 : taglen);
	size_t olen = aadlen + inlen + (enc ? taglen : 0);
	unsigned char *ib = xmalloc(ilen);
	unsigned char *ob = xmalloc(olen);
	ssize_t n;
	int rc;

	copy_bytes(ib, aad, aadlen);
	copy_bytes(ib + aadlen, in, inlen);
	if (!enc)
		copy_bytes(ib + aadlen + inlen, tag, taglen);
	rc = kcapi_aead_init(&kh, alg, 0);
	if (rc < 0) {
		kh = NULL;
		goto done;
	}
	rc = kcapi_aead_setkey(kh, key, (uint32_t)keylen);
	if (rc < 0)
		goto done;
	rc = kcapi_aead_settaglen(kh, (uint32_t)taglen);
	if (rc < 0)
		goto done;
	kcapi_aead_setassoclen(kh, aadlen);
	if (enc)
		n = kcapi_aead_encrypt(kh, ib, ilen, iv, ob, olen ? olen : 1, KCAPI_ACCESS_SENDMSG);
	else
		n = kcapi_aead_decrypt(kh, ib, ilen, iv, ob, olen ? olen : 1, KCAPI_ACCESS_SENDMSG);
	if (!enc && n == -EBADMSG) {
		rc = 0;
	} else if (n < 0) {
		rc = (int)n;
	} else if ((size_t)n != olen) {
		rc = -EMSGSIZE;
	} else {
		copy_bytes(out, ob + aadlen, olen - aadlen);
		rc = 1;
	}
done:
	if (kh != NULL)
		kcapi_aead_destroy(kh);
	free(ib);
	free(ob);
	return rc;
}

static void kc_check_enc(struct harness *h, const char *what, int kidx, const unsigned char *key,
			 const unsigned char *iv, const unsigned char *aad, size_t aadlen,
			 const unsigned char *pt, size_t len, const unsigned char *ct,
			 const unsigned char *tag, size_t taglen)
{
	unsigned char *o;
	int rc;

	if (!kc_usable(h, 12, taglen, aadlen, len))
		return;
	o = xmalloc(len + taglen);
	rc = kc_aead(h->kernel_alg, 1, key, key_lens[kidx], iv, aad, aadlen, pt, len, NULL, taglen,
		     o);
	h->st.kc_enc++;
	if (rc != 1) {
		failf(h, "%s: kernel %s encryption failed: %d (%s)", what, h->kernel_alg, rc,
		      strerror(-rc));
	} else if (len != 0 && memcmp(o, ct, len) != 0) {
		size_t j = 0;

		while (o[j] == ct[j])
			j++;
		failf(h, "%s: ciphertext differs from kernel %s at offset %zu", what, h->kernel_alg,
		      j);
	} else if (memcmp(o + len, tag, taglen) != 0) {
		failf(h, "%s: tag differs from kernel %s", what, h->kernel_alg);
	}
	free(o);
}

static void kc_check_dec(struct harness *h, const char *what, int kidx, const unsigned char *key,
			 const unsigned char *iv, const unsigned char *aad, size_t aadlen,
			 const unsigned char *ct, size_t len, const unsigned char *tag,
			 size_t taglen, int ossl_ok, const unsigned char *ossl_pt)
{
	unsigned char *o;
	int rc;

	if (!kc_usable(h, 12, taglen, aadlen, len))
		return;
	o = xmalloc(len);
	rc = kc_aead(h->kernel_alg, 0, key, key_lens[kidx], iv, aad, aadlen, ct, len, tag, taglen,
		     o);
	h->st.kc_dec++;
	if (rc < 0)
		failf(h, "%s: kernel %s decryption error: %d (%s)", what, h->kernel_alg, rc,
		      strerror(-rc));
	else if (rc != ossl_ok)
		failf(h, "%s: kernel %s %s, OpenSSL %s", what, h->kernel_alg,
		      rc ? "authenticates" : "rejects (EBADMSG)",
		      ossl_ok ? "authenticates" : "rejects");
	else if (rc == 1 && len != 0 && memcmp(o, ossl_pt, len) != 0)
		failf(h, "%s: plaintext differs from kernel %s", what, h->kernel_alg);
	free(o);
}

/* ------------------------------------------------------------------ */
/* Logged EVP calls                                                     */
/* ------------------------------------------------------------------ */

enum api { API_UPDATE, API_ENCDEC, API_CIPHER, API_N };
static const char *const api_names[API_N] = { "CipherUpdate", "Enc/DecUpdate", "EVP_Cipher" };

static int L_init(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
		  const unsigned char *key, const unsigned char *iv, int enc)
{
	int r = EVP_CipherInit_ex(x, c, NULL, key, iv, enc);

	tr_log(t, what, r, -1, NULL, 0, 0);
	return r;
}

/* A ctrl call; on success nout bytes at ptr are part of the output. */
static int L_ctrl(struct tr *t, const char *what, EVP_CIPHER_CTX *x, int type, int arg, void *ptr,
		  size_t nout, int untrusted)
{
	int r = EVP_CIPHER_CTX_ctrl(x, type, arg, ptr);

	tr_log(t, what, r, -1, r > 0 ? ptr : NULL, r > 0 ? nout : 0, untrusted);
	return r;
}

static int L_set_params(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const OSSL_PARAM *p)
{
	int r = EVP_CIPHER_CTX_set_params(x, p);

	tr_log(t, what, r, -1, NULL, 0, 0);
	return r;
}

/*
 * AAD (out == NULL) or data update through the chosen API. Returns 1 on
 * success with *outl set.
 */
static int L_update(struct tr *t, const char *what, EVP_CIPHER_CTX *x, enum api api, int enc,
		    unsigned char *out, const unsigned char *in, size_t inl, int untrusted,
		    int *outl)
{
	int r, ol = -7;

	if (api == API_CIPHER) {
		r = EVP_Cipher(x, out, in, (unsigned int)inl);
		tr_log(t, what, r, -1, out,
		       (r > 0 && out != NULL && (size_t)r <= inl) ? (size_t)r : 0, untrusted);
		*outl = r;
		return r >= 0;
	}
	if (api == API_ENCDEC)
		r = enc ? EVP_EncryptUpdate(x, out, &ol, in, (int)inl)
			: EVP_DecryptUpdate(x, out, &ol, in, (int)inl);
	else
		r = EVP_CipherUpdate(x, out, &ol, in, (int)inl);
	tr_log(t, what, r, ol, out,
	       (r > 0 && out != NULL && ol > 0 && (size_t)ol <= inl) ? (size_t)ol : 0, untrusted);
	*outl = ol;
	return r > 0;
}

static int L_final(struct tr *t, const char *what, EVP_CIPHER_CTX *x, enum api api, int enc)
{
	unsigned char scratch[64];
	int r, ol = -7;

	if (api == API_CIPHER) {
		r = EVP_Cipher(x, NULL, NULL, 0);
		tr_log(t, what, r, -1, NULL, 0, 0);
		return r >= 0;
	}
	if (api == API_ENCDEC)
		r = enc ? EVP_EncryptFinal_ex(x, scratch, &ol)
			: EVP_DecryptFinal_ex(x, scratch, &ol);
	else
		r = EVP_CipherFinal_ex(x, scratch, &ol);
	tr_log(t, what, r, ol, scratch,
	       (r > 0 && ol > 0 && (size_t)ol <= sizeof(scratch)) ? (size_t)ol : 0, 0);
	return r > 0;
}

static void log_size_param(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const char *name)
{
	char w[72];
	size_t v = 0xdead;
	OSSL_PARAM p[2];
	int r;

	p[0] = OSSL_PARAM_construct_size_t(name, &v);
	p[1] = OSSL_PARAM_construct_end();
	r = EVP_CIPHER_CTX_get_params(x, p);
	snprintf(w, sizeof(w), "%sget(%s)", pfx, name);
	tr_log(t, w, r, OSSL_PARAM_modified(&p[0]) ? (long long)v : -1, NULL, 0, 0);
}

static void log_octet_param(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const char *name,
			    size_t bufsize)
{
	unsigned char buf[IV_BUF + 16];
	char w[72];
	OSSL_PARAM p[2];
	int r;

	if (bufsize > sizeof(buf))
		bufsize = sizeof(buf);
	memset(buf, 0xa5, sizeof(buf));
	p[0] = OSSL_PARAM_construct_octet_string(name, buf, bufsize);
	p[1] = OSSL_PARAM_construct_end();
	r = EVP_CIPHER_CTX_get_params(x, p);
	snprintf(w, sizeof(w), "%sget(%s,%zu)", pfx, name, bufsize);
	if (OSSL_PARAM_modified(&p[0]) && p[0].return_size <= bufsize)
		tr_log(t, w, r, (long long)p[0].return_size, r > 0 ? buf : NULL, p[0].return_size,
		       0);
	else
		tr_log(t, w, r, -1, NULL, 0, 0);
}

/*
 * Every context parameter the default AES-GCM offers for reading that does
 * not change state, each read on its own so the order of evaluation inside
 * an implementation cannot matter; plus the EVP accessors built on them.
 */
static void query_params(struct tr *t, EVP_CIPHER_CTX *x, const char *pfx)
{
	unsigned char buf[IV_BUF];
	char w[72];
	int r;

	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_iv_length", pfx);
	tr_log(t, w, EVP_CIPHER_CTX_get_iv_length(x), -1, NULL, 0, 0);
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_key_length", pfx);
	tr_log(t, w, EVP_CIPHER_CTX_get_key_length(x), -1, NULL, 0, 0);
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_tag_length", pfx);
	tr_log(t, w, EVP_CIPHER_CTX_get_tag_length(x), -1, NULL, 0, 0);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_IVLEN);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_KEYLEN);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD);
	log_octet_param(t, pfx, x, OSSL_CIPHER_PARAM_IV, IV_BUF);
	log_octet_param(t, pfx, x, OSSL_CIPHER_PARAM_UPDATED_IV, IV_BUF);
	memset(buf, 0, sizeof(buf));
	r = EVP_CIPHER_CTX_get_updated_iv(x, buf, sizeof(buf));
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_updated_iv", pfx);
	tr_log(t, w, r, -1, buf, sizeof(buf), 0);
	memset(buf, 0, sizeof(buf));
	r = EVP_CIPHER_CTX_get_original_iv(x, buf, sizeof(buf));
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_original_iv", pfx);
	tr_log(t, w, r, -1, buf, sizeof(buf), 0);
}

/*
 * One whole message on an initialised context: one AAD update, the data in
 * one or two updates, the tag set (decrypt) before final, final, and the tag
 * read (encrypt). Returns 1 if every step succeeded. Decrypted bytes are
 * compared only after authentication (a final that succeeded).
 */
struct msg {
	const unsigned char *aad;
	size_t aadlen;
	const unsigned char *in;
	size_t len;
	unsigned char *out;
	unsigned char *tag; /* encrypt: receives taglen bytes; decrypt: input */
	size_t taglen;
	int set_tag;   /* decrypt: set the tag before final */
	int split;     /* data in two updates */
	int stop_mid;  /* abandon after the first half of the data */
	int untrusted; /* output bytes are random or unauthenticated */
	enum api api;
};

static int msg_run(struct tr *t, EVP_CIPHER_CTX *x, int enc, const struct msg *m, const char *pfx)
{
	char w[72];
	int ok = 1, ol;
	size_t half = m->split ? m->len / 2 : m->len;

	snprintf(w, sizeof(w), "%saad", pfx);
	ok &= L_update(t, w, x, m->api, enc, NULL, m->aad, m->aadlen, 0, &ol);
	snprintf(w, sizeof(w), "%sdata1", pfx);
	ok &= L_update(t, w, x, m->api, enc, m->out, m->in, half, m->untrusted || !enc, &ol);
	if (m->stop_mid)
		return 0;
	if (half < m->len) {
		snprintf(w, sizeof(w), "%sdata2", pfx);
		ok &= L_update(t, w, x, m->api, enc, m->out + half, m->in + half, m->len - half,
			       m->untrusted || !enc, &ol);
	}
	if (!enc && m->set_tag) {
		snprintf(w, sizeof(w), "%sSET_TAG(%zu)", pfx, m->taglen);
		ok &= L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen, m->tag, 0, 0) > 0;
	}
	snprintf(w, sizeof(w), "%sfinal", pfx);
	ok &= L_final(t, w, x, m->api, enc);
	if (enc) {
		snprintf(w, sizeof(w), "%sGET_TAG(%zu)", pfx, m->taglen);
		ok &= L_ctrl(t, w, x, EVP_CTRL_AEAD_GET_TAG, (int)m->taglen, m->tag, m->taglen,
			     m->untrusted) > 0;
	} else {
		/* plaintext counts only once authenticated */
		snprintf(w, sizeof(w), "%splaintext", pfx);
		tr_log(t, w, ok, -1, m->out, m->len, m->untrusted || !ok);
	}
	return ok;
}

/* Straightforward AES-GCM seal with the reference implementation. */
static int ref_seal(const EVP_CIPHER *c, const unsigned char *key, const unsigned char *iv,
		    size_t ivlen, const unsigned char *aad, size_t aadlen, const unsigned char *pt,
		    size_t len, unsigned char *ct, unsigned char *tag, size_t taglen)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned char fin[32];
	int ol = 0, ok;

	ok = x != NULL && EVP_EncryptInit_ex(x, c, NULL, NULL, NULL) > 0 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) > 0 &&
	     EVP_EncryptInit_ex(x, NULL, NULL, key, iv) > 0 &&
	     EVP_EncryptUpdate(x, NULL, &ol, aad, (int)aadlen) > 0 &&
	     EVP_EncryptUpdate(x, ct, &ol, pt, (int)len) > 0 &&
	     EVP_EncryptFinal_ex(x, fin, &ol) > 0 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag) > 0;
	EVP_CIPHER_CTX_free(x);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Shape pickers                                                        */
/* ------------------------------------------------------------------ */

static size_t pick_data_len(struct rng *r)
{
	static const size_t small[] = { 0,  1,	2,  15,	 16,  17,  31,	 32,   33,
					63, 64, 65, 255, 256, 257, 1023, 1024, 1025 };
	static const size_t big[] = { 4095,  4096,  4097,  8191,  8192,	 8193,
				      16383, 16384, 16385, 32767, 32768, 32769 };
	size_t p = rng_below(r, 1000);

	if (p < 330)
		return rng_range(r, 0, 64);
	if (p < 430)
		return small[rng_below(r, sizeof(small) / sizeof(small[0]))];
	if (p < 730)
		return rng_range(r, 65, 2048);
	if (p < 840)
		return rng_range(r, 2049, 4094);
	if (p < 865)
		return big[rng_below(r, 3)];
	if (p < 957) {
		/* the engine window, denser at its small end */
		static const size_t e[] = { 12, 12, 13, 14 };
		size_t k = e[rng_below(r, 4)];

		return rng_range(r, (size_t)1 << k, ((size_t)1 << (k + 1)) - 1);
	}
	if (p < 990)
		return big[rng_below(r, sizeof(big) / sizeof(big[0]))];
	if (p < 997)
		return rng_range(r, 32770, 65535);
	return 65536;
}

static size_t pick_ivlen(struct rng *r)
{
	static const size_t b[] = { 1, 8, 11, 13, 16, 32, 60, 64 };
	size_t p = rng_below(r, 100);

	if (p < 70)
		return 12;
	if (p < 80)
		return b[rng_below(r, sizeof(b) / sizeof(b[0]))];
	return rng_range(r, 1, MAX_IV);
}

static size_t pick_taglen(struct rng *r)
{
	size_t p = rng_below(r, 100);

	if (p < 70)
		return 16;
	if (p < 97)
		return rng_range(r, 4, 15);
	return rng_range(r, 1, 3);
}

static size_t pick_aadlen(struct rng *r)
{
	size_t p = rng_below(r, 100);

	if (p < 25)
		return 0;
	if (p < 50)
		return rng_range(r, 1, 32);
	if (p < 60)
		return rng_pct(r, 50) ? 13 : 5;
	if (p < 88)
		return rng_range(r, 33, ENGINE_AAD_MAX);
	return rng_range(r, ENGINE_AAD_MAX + 1, 600);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Split total into 1..MAX_CHUNKS pieces (zero-length pieces allowed). */
static int split_len(struct rng *r, size_t total, size_t *chunks)
{
	size_t cuts[MAX_CHUNKS] = { 0 };
	int n;

	if (rng_pct(r, 55))
		n = 1;
	else if (rng_pct(r, 60))
		n = 2;
	else
		n = (int)rng_range(r, 3, MAX_CHUNKS);
	for (int i = 0; i < n - 1; i++) {
		cuts[i] = rng_range(r, 0, total);
		if (rng_pct(r, 30))
			cuts[i] &= ~(size_t)15;
	}
	qsort(cuts, (size_t)(n - 1), sizeof(cuts[0]), cmp_size);
	for (int i = 0; i < n; i++) {
		size_t lo = i == 0 ? 0 : cuts[i - 1];
		size_t hi = i == n - 1 ? total : cuts[i];

		chunks[i] = hi - lo;
	}
	return n;
}

static void shape_chunks(struct harness *h, const size_t *c, int n)
{
	shape_add(h, "[");
	for (int i = 0; i < n; i++)
		shape_add(h, "%s%zu", i ? "+" : "", c[i]);
	shape_add(h, "]");
}

/* ------------------------------------------------------------------ */
/* Generic messages                                                     */
/* ------------------------------------------------------------------ */

enum setup {
	SETUP_DIRECT,	/* init(c,key,iv,enc): default IV length only */
	SETUP_CTRL,	/* init(c); SET_IVLEN; init(key,iv) */
	SETUP_SPLIT,	/* init(c); SET_IVLEN; init(key); init(iv) */
	SETUP_IVFIRST,	/* init(c); SET_IVLEN; init(iv); init(key) */
	SETUP_KEYFIRST, /* init(c,key); set_params(ivlen); init(iv) */
	SETUP_EX2,	/* init_ex2(c,key,{ivlen}); init_ex2(iv) */
	SETUP_N
};
static const char *const setup_names[SETUP_N] = { "init(c,key,iv)",
						  "init(c);SET_IVLEN;init(key,iv)",
						  "init(c);SET_IVLEN;init(key);init(iv)",
						  "init(c);SET_IVLEN;init(iv);init(key)",
						  "init(c,key);set_params(ivlen);init(iv)",
						  "init_ex2(c,key,{ivlen});init_ex2(iv)" };

enum bufmode { BUF_SEPARATE, BUF_INPLACE, BUF_BEHIND, BUF_N };
static const char *const buf_names[BUF_N] = { "separate", "in-place", "out-behind-in" };

enum tagwhen { TAG_FIRST, TAG_AFTER_AAD, TAG_LAST, TAG_PARAMS, TAG_N };
static const char *const tagwhen_names[TAG_N] = { "before-aad", "after-aad", "after-data",
						  "after-data-via-params" };

enum corrupt { C_NONE, C_TAG, C_AAD, C_DATA, C_TRUNC, C_N };
static const char *const corrupt_names[C_N] = { "none", "tag", "aad", "ciphertext",
						"truncated-tag" };

enum opkind { OP_AAD, OP_DATA, OP_SETTAG, OP_FINAL, OP_GETTAG, OP_PARAMS };

struct op {
	enum opkind kind;
	size_t off, len;
};

struct gshape {
	int kidx;
	unsigned char key[32];
	size_t ivlen;
	unsigned char iv[MAX_IV];
	size_t taglen;
	size_t aadlen, datalen;
	size_t aad_chunks[MAX_CHUNKS];
	int n_aad;
	size_t data_chunks[MAX_CHUNKS];
	int n_data;
	enum setup setup;
	enum api api;
	enum bufmode bufmode;
	size_t behind;
	enum tagwhen tag_when;
	enum corrupt corrupt;
	size_t corrupt_at;
	unsigned char corrupt_xor;
	size_t dec_taglen;
	int copy_permille; /* -1: no copy; else where in the op list */
	int interleave;
	unsigned int params_mask;
	int zero_updates;
};

static size_t build_ops(const struct gshape *s, int enc, struct op *ops)
{
	size_t n = 0, off;

	if (s->params_mask & 1)
		ops[n++] = (struct op){ OP_PARAMS, 0, 0 };
	if (!enc && s->tag_when == TAG_FIRST)
		ops[n++] = (struct op){ OP_SETTAG, 0, 0 };
	off = 0;
	for (int i = 0; i < s->n_aad; i++) {
		ops[n++] = (struct op){ OP_AAD, off, s->aad_chunks[i] };
		off += s->aad_chunks[i];
	}
	if (s->zero_updates)
		ops[n++] = (struct op){ OP_AAD, off, 0 };
	if (s->params_mask & 2)
		ops[n++] = (struct op){ OP_PARAMS, 0, 0 };
	if (!enc && s->tag_when == TAG_AFTER_AAD)
		ops[n++] = (struct op){ OP_SETTAG, 0, 0 };
	off = 0;
	for (int i = 0; i < s->n_data; i++) {
		ops[n++] = (struct op){ OP_DATA, off, s->data_chunks[i] };
		off += s->data_chunks[i];
		if (s->zero_updates && i == 0)
			ops[n++] = (struct op){ OP_DATA, off, 0 };
	}
	if (!enc && (s->tag_when == TAG_LAST || s->tag_when == TAG_PARAMS))
		ops[n++] = (struct op){ OP_SETTAG, 0, 0 };
	ops[n++] = (struct op){ OP_FINAL, 0, 0 };
	if (enc)
		ops[n++] = (struct op){ OP_GETTAG, 0, 0 };
	if (s->params_mask & 4)
		ops[n++] = (struct op){ OP_PARAMS, 0, 0 };
	return n;
}

struct gforce {
	size_t len;
	int engine; /* the engine's shape: 12-byte IV, 16-byte tag, one shot */
};

static void gen_shape(struct rng *r, struct gshape *s, const struct gforce *f)
{
	memset(s, 0, sizeof(*s));
	s->kidx = (int)rng_below(r, 3);
	rng_fill(r, s->key, sizeof(s->key));
	if (f != NULL && f->engine) {
		s->ivlen = 12;
		s->taglen = 16;
		s->aadlen = rng_pct(r, 50) ? rng_range(r, 0, ENGINE_AAD_MAX)
					   : (rng_pct(r, 50) ? 13 : 5);
	} else {
		s->ivlen = pick_ivlen(r);
		s->taglen = pick_taglen(r);
		s->aadlen = pick_aadlen(r);
	}
	rng_fill(r, s->iv, sizeof(s->iv));
	s->datalen = f != NULL ? f->len : pick_data_len(r);
	if (f != NULL && f->engine) {
		s->n_aad = 1;
		s->aad_chunks[0] = s->aadlen;
		s->n_data = 1;
		s->data_chunks[0] = s->datalen;
	} else {
		s->n_aad = split_len(r, s->aadlen, s->aad_chunks);
		s->n_data = split_len(r, s->datalen, s->data_chunks);
	}
	s->setup = (enum setup)rng_below(r, SETUP_N);
	if (s->setup == SETUP_DIRECT && s->ivlen != 12)
		s->setup = SETUP_CTRL;
	{
		size_t p = rng_below(r, 100);

		s->api = p < 60 ? API_UPDATE : (p < 80 ? API_ENCDEC : API_CIPHER);
		p = rng_below(r, 100);
		s->bufmode = p < 55 ? BUF_SEPARATE : (p < 95 ? BUF_INPLACE : BUF_BEHIND);
		p = rng_below(r, 100);
		s->tag_when = p < 40   ? TAG_FIRST
			      : p < 55 ? TAG_AFTER_AAD
			      : p < 90 ? TAG_LAST
				       : TAG_PARAMS;
		p = rng_below(r, 100);
		s->corrupt = p < 58   ? C_NONE
			     : p < 72 ? C_TAG
			     : p < 80 ? C_AAD
			     : p < 94 ? C_DATA
				      : C_TRUNC;
	}
	if (f != NULL && f->engine) {
		s->api = API_UPDATE;
		if (s->bufmode == BUF_BEHIND)
			s->bufmode = BUF_INPLACE;
	}
	s->behind = rng_range(r, 1, 48);
	if (s->corrupt == C_AAD && s->aadlen == 0)
		s->corrupt = C_TAG;
	if (s->corrupt == C_DATA && s->datalen == 0)
		s->corrupt = C_TAG;
	if (s->corrupt == C_TRUNC && s->taglen < 2)
		s->corrupt = C_NONE;
	s->dec_taglen = s->taglen;
	switch (s->corrupt) {
	case C_TAG:
		s->corrupt_at = rng_below(r, s->taglen);
		break;
	case C_AAD:
		s->corrupt_at = rng_below(r, s->aadlen);
		break;
	case C_DATA:
		s->corrupt_at = rng_below(r, s->datalen);
		break;
	case C_TRUNC:
		s->dec_taglen = rng_range(r, 1, s->taglen - 1);
		break;
	default:
		break;
	}
	s->corrupt_xor = rng_nonzero_byte(r);
	s->copy_permille = rng_pct(r, 12) ? (int)rng_below(r, 1000) : -1;
	s->interleave = rng_pct(r, 50);
	s->params_mask = rng_pct(r, 25) ? (unsigned int)rng_range(r, 1, 7) : 0;
	s->zero_updates = rng_pct(r, 5);
	if (f != NULL && f->engine) {
		/* keep the forced engine shapes one-shot */
		s->copy_permille = -1;
		s->zero_updates = 0;
	}
}

static void describe_gshape(struct harness *h, const struct gshape *s)
{
	shape_add(h, "%s key=", cipher_names[s->kidx]);
	shape_hex(h, s->key, key_lens[s->kidx]);
	shape_add(h, " ivlen=%zu iv=", s->ivlen);
	shape_hex(h, s->iv, s->ivlen);
	shape_add(h, " taglen=%zu aad=%zu", s->taglen, s->aadlen);
	shape_chunks(h, s->aad_chunks, s->n_aad);
	shape_add(h, " data=%zu", s->datalen);
	shape_chunks(h, s->data_chunks, s->n_data);
	shape_add(h, " setup=%s api=%s buffers=%s", setup_names[s->setup], api_names[s->api],
		  buf_names[s->bufmode]);
	if (s->bufmode == BUF_BEHIND)
		shape_add(h, "(out=in-%zu)", s->behind);
	shape_add(h, " decrypt-tag=%s corrupt=%s", tagwhen_names[s->tag_when],
		  corrupt_names[s->corrupt]);
	if (s->corrupt == C_TRUNC)
		shape_add(h, "(%zu of %zu)", s->dec_taglen, s->taglen);
	else if (s->corrupt != C_NONE)
		shape_add(h, "(byte %zu ^0x%02x)", s->corrupt_at, s->corrupt_xor);
	if (s->copy_permille >= 0)
		shape_add(h, " ctx-copy@%d/1000%s", s->copy_permille,
			  s->interleave ? "(interleaved)" : "(sequential)");
	if (s->params_mask)
		shape_add(h, " param-reads=0x%x", s->params_mask);
	if (s->zero_updates)
		shape_add(h, " zero-length-updates");
}

static void gen_setup(const struct gshape *s, EVP_CIPHER_CTX *x, const EVP_CIPHER *c, int enc,
		      struct tr *t)
{
	int ivl = (int)s->ivlen;
	size_t v = s->ivlen;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &v);
	p[1] = OSSL_PARAM_construct_end();
	switch (s->setup) {
	case SETUP_DIRECT:
		L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, enc);
		break;
	case SETUP_CTRL:
		L_init(t, "init(c)", x, c, NULL, NULL, enc);
		L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL, 0, 0);
		L_init(t, "init(key,iv)", x, NULL, s->key, s->iv, -1);
		break;
	case SETUP_SPLIT:
		L_init(t, "init(c)", x, c, NULL, NULL, enc);
		L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL, 0, 0);
		L_init(t, "init(key)", x, NULL, s->key, NULL, -1);
		L_init(t, "init(iv)", x, NULL, NULL, s->iv, -1);
		break;
	case SETUP_IVFIRST:
		L_init(t, "init(c)", x, c, NULL, NULL, enc);
		L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL, 0, 0);
		L_init(t, "init(iv)", x, NULL, NULL, s->iv, -1);
		L_init(t, "init(key)", x, NULL, s->key, NULL, -1);
		break;
	case SETUP_KEYFIRST:
		L_init(t, "init(c,key)", x, c, s->key, NULL, enc);
		L_set_params(t, "set_params(ivlen)", x, p);
		L_init(t, "init(iv)", x, NULL, NULL, s->iv, -1);
		break;
	case SETUP_EX2:
	default:
		tr_log(t, "init_ex2(c,key,{ivlen})", EVP_CipherInit_ex2(x, c, s->key, NULL, enc, p),
		       -1, NULL, 0, 0);
		tr_log(t, "init_ex2(iv)", EVP_CipherInit_ex2(x, NULL, NULL, s->iv, -1, NULL), -1,
		       NULL, 0, 0);
		break;
	}
}

/* One context working through the op list, with its own buffers. */
struct gstream {
	EVP_CIPHER_CTX *x;
	unsigned char *inmem, *outmem;
	unsigned char *in, *out;
	unsigned char *result;
	unsigned char tag[TAG_BUF];
	int ok;
	const char *pfx;
};

struct gctx {
	const struct gshape *s;
	int enc;
	const unsigned char *aad;
	unsigned char *tag; /* decrypt: tag to set */
	struct tr *t;
};

static void gstream_init(struct gstream *gs, const struct gshape *s, const unsigned char *input,
			 unsigned char *result, const char *pfx)
{
	size_t n = s->datalen;

	memset(gs, 0, sizeof(*gs));
	gs->ok = 1;
	gs->result = result;
	gs->pfx = pfx;
	switch (s->bufmode) {
	case BUF_INPLACE:
		gs->inmem = xmalloc(n);
		gs->in = gs->out = gs->inmem;
		break;
	case BUF_BEHIND:
		gs->inmem = xmalloc(n + s->behind);
		gs->out = gs->inmem;
		gs->in = gs->inmem + s->behind;
		break;
	default:
		gs->inmem = xmalloc(n);
		gs->outmem = xmalloc(n);
		gs->in = gs->inmem;
		gs->out = gs->outmem;
		break;
	}
	copy_bytes(gs->in, input, n);
}

static void gstream_free(struct gstream *gs)
{
	EVP_CIPHER_CTX_free(gs->x);
	free(gs->inmem);
	free(gs->outmem);
}

static void gen_op(const struct gctx *g, struct gstream *gs, const struct op *op)
{
	const struct gshape *s = g->s;
	char w[72];
	int ol;

	switch (op->kind) {
	case OP_AAD:
		snprintf(w, sizeof(w), "%saad[%zu+%zu]", gs->pfx, op->off, op->len);
		L_update(g->t, w, gs->x, s->api, g->enc, NULL, g->aad + op->off, op->len, 0, &ol);
		break;
	case OP_DATA:
		snprintf(w, sizeof(w), "%sdata[%zu+%zu]", gs->pfx, op->off, op->len);
		if (L_update(g->t, w, gs->x, s->api, g->enc, gs->out + op->off, gs->in + op->off,
			     op->len, !g->enc, &ol) &&
		    ol == (int)op->len)
			copy_bytes(gs->result + op->off, gs->out + op->off, op->len);
		else
			gs->ok = 0;
		break;
	case OP_SETTAG:
		if (s->tag_when == TAG_PARAMS) {
			OSSL_PARAM p[2];

			p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, g->tag,
								 s->dec_taglen);
			p[1] = OSSL_PARAM_construct_end();
			snprintf(w, sizeof(w), "%sset_params(tag,%zu)", gs->pfx, s->dec_taglen);
			L_set_params(g->t, w, gs->x, p);
		} else {
			snprintf(w, sizeof(w), "%sSET_TAG(%zu)", gs->pfx, s->dec_taglen);
			L_ctrl(g->t, w, gs->x, EVP_CTRL_AEAD_SET_TAG, (int)s->dec_taglen, g->tag, 0,
			       0);
		}
		break;
	case OP_FINAL:
		snprintf(w, sizeof(w), "%sfinal", gs->pfx);
		if (!L_final(g->t, w, gs->x, s->api, g->enc))
			gs->ok = 0;
		break;
	case OP_GETTAG:
		snprintf(w, sizeof(w), "%sGET_TAG(%zu)", gs->pfx, s->taglen);
		if (L_ctrl(g->t, w, gs->x, EVP_CTRL_AEAD_GET_TAG, (int)s->taglen, gs->tag,
			   s->taglen, 0) <= 0)
			gs->ok = 0;
		break;
	case OP_PARAMS:
	default:
		query_params(g->t, gs->x, gs->pfx);
		break;
	}
}

/*
 * Run one direction of a generic shape. Returns 1 if every data update,
 * final and (encrypt) the tag read succeeded. result receives the output.
 */
static int gen_run(struct harness *h, const struct gshape *s, const EVP_CIPHER *c, int enc,
		   const unsigned char *input, const unsigned char *aad, unsigned char *tag,
		   unsigned char *result, unsigned char *tagout, struct tr *t)
{
	struct op ops[MAX_OPS];
	size_t nops = build_ops(s, enc, ops);
	struct gctx g = { s, enc, aad, tag, t };
	struct gstream a, b;
	size_t k = SIZE_MAX;
	int copied = 0, ok;
	unsigned char *result2 = xmalloc(s->datalen);

	gstream_init(&a, s, input, result, "");
	a.x = EVP_CIPHER_CTX_new();
	gen_setup(s, a.x, c, enc, t);
	if (s->copy_permille >= 0)
		k = (size_t)s->copy_permille * (nops + 1) / 1000;
	for (size_t i = 0; i <= nops; i++) {
		if (i == k) {
			EVP_CIPHER_CTX *y = EVP_CIPHER_CTX_new();
			int r = EVP_CIPHER_CTX_copy(y, a.x);

			tr_log(t, "EVP_CIPHER_CTX_copy", r, -1, NULL, 0, 0);
			if (r > 0) {
				gstream_init(&b, s, input, result2, "copy.");
				b.x = y;
				a.pfx = "orig.";
				copied = 1;
				h->st.copies++;
			} else {
				EVP_CIPHER_CTX_free(y);
			}
		}
		if (i == nops)
			break;
		gen_op(&g, &a, &ops[i]);
		if (copied && s->interleave)
			gen_op(&g, &b, &ops[i]);
	}
	if (copied && !s->interleave)
		for (size_t i = k; i < nops; i++)
			gen_op(&g, &b, &ops[i]);
	if (copied && k == nops)
		query_params(t, b.x, "copy.");
	if (!enc) {
		/* decrypted bytes count only once authenticated */
		tr_log(t, "plaintext", a.ok, -1, result, s->datalen, !a.ok);
		if (copied)
			tr_log(t, "copy.plaintext", b.ok, -1, result2, s->datalen, !b.ok);
	}
	ok = a.ok;
	if (tagout != NULL)
		memcpy(tagout, a.tag, TAG_MAX);
	gstream_free(&a);
	if (copied)
		gstream_free(&b);
	free(result2);
	return ok;
}

static void case_generic(struct harness *h, struct rng *r, const struct gforce *f)
{
	struct gshape s;
	unsigned char *pt, *aad, *daad, *ct_t, *ct_r, *cin, *pt_t, *pt_r;
	unsigned char tag_t[TAG_BUF], tag_r[TAG_BUF], dtag[TAG_BUF];
	int ok_r, untrusted;
	int overlap;

	gen_shape(r, &s, f);
	describe_gshape(h, &s);
	overlap = s.bufmode == BUF_BEHIND;
	pt = xmalloc(s.datalen);
	aad = xmalloc(s.aadlen);
	rng_fill(r, pt, s.datalen);
	rng_fill(r, aad, s.aadlen);
	ct_t = xmalloc(s.datalen);
	ct_r = xmalloc(s.datalen);
	pt_t = xmalloc(s.datalen);
	pt_r = xmalloc(s.datalen);
	memset(tag_t, 0, sizeof(tag_t));
	memset(tag_r, 0, sizeof(tag_r));
	for (size_t i = 0; i < N_BOUND; i++)
		if (boundaries[i] == s.datalen)
			h->st.bound_hits[i]++;

	/* encrypt on both */
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	gen_run(h, &s, h->test.c[s.kidx], 1, pt, aad, NULL, ct_t, tag_t, &h->ta);
	ok_r = gen_run(h, &s, h->ref.c[s.kidx], 1, pt, aad, NULL, ct_r, tag_r, &h->tb);
	compare_tr(h, "encrypt", &h->ta, h->test.label, &h->tb, h->ref.label);
	count_message(h, s.ivlen, s.taglen, s.aadlen, s.datalen, overlap);
	if (!ok_r)
		failf(h, "harness: %s could not encrypt this shape", h->ref.label);
	else if (s.ivlen == 12 && !overlap)
		kc_check_enc(h, "encrypt", s.kidx, s.key, s.iv, aad, s.aadlen, pt, s.datalen, ct_r,
			     tag_r, s.taglen);

	/* decrypt the reference ciphertext, possibly corrupted, on both */
	cin = xmemdup(ct_r, s.datalen);
	daad = xmemdup(aad, s.aadlen);
	memcpy(dtag, tag_r, sizeof(dtag));
	switch (s.corrupt) {
	case C_TAG:
		dtag[s.corrupt_at] ^= s.corrupt_xor;
		break;
	case C_AAD:
		daad[s.corrupt_at] ^= s.corrupt_xor;
		break;
	case C_DATA:
		cin[s.corrupt_at] ^= s.corrupt_xor;
		break;
	default:
		break;
	}
	untrusted = s.corrupt == C_TAG || s.corrupt == C_AAD || s.corrupt == C_DATA;
	if (untrusted)
		h->st.corrupted++;
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	gen_run(h, &s, h->test.c[s.kidx], 0, cin, daad, dtag, pt_t, NULL, &h->ta);
	ok_r = gen_run(h, &s, h->ref.c[s.kidx], 0, cin, daad, dtag, pt_r, NULL, &h->tb);
	compare_tr(h, "decrypt", &h->ta, h->test.label, &h->tb, h->ref.label);
	count_message(h, s.ivlen, s.taglen, s.aadlen, s.datalen, overlap);
	if (!untrusted && !ok_r)
		failf(h, "harness: %s rejected its own ciphertext", h->ref.label);
	else if (!untrusted && s.datalen != 0 && memcmp(pt_r, pt, s.datalen) != 0)
		failf(h, "harness: %s round trip changed the plaintext", h->ref.label);
	if (s.ivlen == 12 && !overlap && s.corrupt != C_TRUNC)
		kc_check_dec(h, "decrypt", s.kidx, s.key, s.iv, daad, s.aadlen, cin, s.datalen,
			     dtag, s.taglen, ok_r, pt_r);
	free(pt);
	free(aad);
	free(daad);
	free(ct_t);
	free(ct_r);
	free(cin);
	free(pt_t);
	free(pt_r);
}

/* ------------------------------------------------------------------ */
/* Algorithm-level checks: getters, names, parameter lists              */
/* ------------------------------------------------------------------ */

struct strv {
	char **v;
	size_t n, cap;
};

static void strv_add(struct strv *s, const char *x)
{
	size_t len = strlen(x) + 1;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n] = xmalloc(len);
	memcpy(s->v[s->n], x, len);
	s->n++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort, join with commas and log as the output of one step. */
static void strv_log(struct strv *s, struct tr *t, const char *what)
{
	size_t total = 1;
	char *out;

	if (s->n > 0)
		qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	for (size_t i = 0; i < s->n; i++)
		total += strlen(s->v[i]) + 1;
	out = xmalloc(total);
	out[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strcat(out, ",");
		strcat(out, s->v[i]);
	}
	tr_log(t, what, (long long)s->n, -1, out, strlen(out), 0);
	free(out);
}

static void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void name_cb(const char *name, void *arg)
{
	strv_add(arg, name);
}

static void log_param_list(struct tr *t, const char *what, const OSSL_PARAM *p)
{
	struct strv s = { 0 };
	char item[128];

	if (p == NULL) {
		tr_log(t, what, -1, -1, NULL, 0, 0);
		return;
	}
	for (; p->key != NULL; p++) {
		snprintf(item, sizeof(item), "%s:%u", p->key, p->data_type);
		strv_add(&s, item);
	}
	strv_log(&s, t, what);
	strv_free(&s);
}

/* Read one parameter described by desc into a buffer of its own type. */
static void log_described_get(struct tr *t, const char *pfx, const OSSL_PARAM *desc, EVP_CIPHER *c,
			      EVP_CIPHER_CTX *x)
{
	unsigned char buf[256];
	OSSL_PARAM q[2];
	char w[72];
	int r, is_ptr;

	memset(buf, 0, sizeof(buf));
	is_ptr = desc->data_type == OSSL_PARAM_UTF8_PTR || desc->data_type == OSSL_PARAM_OCTET_PTR;
	q[0].key = desc->key;
	q[0].data_type = desc->data_type;
	q[0].data = buf;
	q[0].data_size = is_ptr ? sizeof(void *)
			 : (desc->data_size != 0 && desc->data_size <= sizeof(buf))
				 ? desc->data_size
				 : sizeof(buf);
	q[0].return_size = OSSL_PARAM_UNMODIFIED;
	q[1] = OSSL_PARAM_construct_end();
	r = x != NULL ? EVP_CIPHER_CTX_get_params(x, q) : EVP_CIPHER_get_params(c, q);
	snprintf(w, sizeof(w), "%sget(%s)", pfx, desc->key);
	if (!OSSL_PARAM_modified(&q[0]))
		tr_log(t, w, r, -1, NULL, 0, 0);
	else if (is_ptr || q[0].return_size > q[0].data_size)
		tr_log(t, w, r, (long long)q[0].return_size, NULL, 0, 0);
	else
		tr_log(t, w, r, (long long)q[0].return_size, buf, q[0].return_size, 0);
}

static void static_script(struct harness *h, const struct impl *im, int kidx, struct tr *t)
{
	EVP_CIPHER *c = im->c[kidx];
	struct strv names = { 0 };
	const OSSL_PARAM *p;
	EVP_CIPHER_CTX *x;
	unsigned char key[32], iv[12];
	char w[96];
	const char *nm;

	tr_log(t, "EVP_CIPHER_get_nid", EVP_CIPHER_get_nid(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_block_size", EVP_CIPHER_get_block_size(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_key_length", EVP_CIPHER_get_key_length(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_iv_length", EVP_CIPHER_get_iv_length(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_mode", EVP_CIPHER_get_mode(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_flags", (long long)EVP_CIPHER_get_flags(c), -1, NULL, 0, 0);
	nm = EVP_CIPHER_get0_name(c);
	tr_log(t, "EVP_CIPHER_get0_name", nm != NULL, -1, nm, nm != NULL ? strlen(nm) : 0, 0);
	tr_log(t, "EVP_CIPHER_names_do_all", EVP_CIPHER_names_do_all(c, name_cb, &names), -1, NULL,
	       0, 0);
	strv_log(&names, t, "names");
	for (size_t i = 0; i < names.n; i++) {
		EVP_CIPHER *alias = EVP_CIPHER_fetch(h->lib, names.v[i], im->props);

		snprintf(w, sizeof(w), "fetch(%s)", names.v[i]);
		tr_log(t, w, alias != NULL, -1, NULL, 0, 0);
		EVP_CIPHER_free(alias);
	}
	strv_free(&names);

	log_param_list(t, "EVP_CIPHER_gettable_params", EVP_CIPHER_gettable_params(c));
	log_param_list(t, "EVP_CIPHER_gettable_ctx_params", EVP_CIPHER_gettable_ctx_params(c));
	log_param_list(t, "EVP_CIPHER_settable_ctx_params", EVP_CIPHER_settable_ctx_params(c));
	for (p = EVP_CIPHER_gettable_params(c); p != NULL && p->key != NULL; p++)
		log_described_get(t, "cipher.", p, c, NULL);

	memset(key, 0x42, sizeof(key));
	memset(iv, 0x24, sizeof(iv));
	x = EVP_CIPHER_CTX_new();
	L_init(t, "init(c,key,iv,enc)", x, c, key, iv, 1);
	log_param_list(t, "EVP_CIPHER_CTX_gettable_params", EVP_CIPHER_CTX_gettable_params(x));
	log_param_list(t, "EVP_CIPHER_CTX_settable_params", EVP_CIPHER_CTX_settable_params(x));
	for (p = EVP_CIPHER_CTX_gettable_params(x); p != NULL && p->key != NULL; p++)
		log_described_get(t, "ctx.", p, c, x);
	query_params(t, x, "ctx.");
	EVP_CIPHER_CTX_free(x);

	/* the same on a decrypting context with no key yet */
	x = EVP_CIPHER_CTX_new();
	L_init(t, "init(c,dec)", x, c, NULL, NULL, 0);
	for (p = EVP_CIPHER_CTX_gettable_params(x); p != NULL && p->key != NULL; p++)
		log_described_get(t, "dctx.", p, c, x);
	query_params(t, x, "dctx.");
	EVP_CIPHER_CTX_free(x);
}

static void case_static(struct harness *h, int kidx)
{
	shape_add(h,
		  "%s: algorithm getters, names and aliases, gettable/settable "
		  "parameter lists, every algorithm and context parameter",
		  cipher_names[kidx]);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	static_script(h, &h->test, kidx, &h->ta);
	static_script(h, &h->ref, kidx, &h->tb);
	compare_tr(h, "static", &h->ta, h->test.label, &h->tb, h->ref.label);
}

/* ------------------------------------------------------------------ */
/* Re-initialisation scripts                                            */
/* ------------------------------------------------------------------ */

enum rkind {
	R_IV,	   /* init(NULL,NULL,NULL,iv,-1) */
	R_KEY,	   /* init(NULL,NULL,key,NULL,-1) */
	R_BOTH,	   /* init(NULL,NULL,key,iv,-1) */
	R_CIPHER,  /* init(c,NULL,key,iv,enc): cipher given again */
	R_FLIP,	   /* init(NULL,NULL,NULL,iv-of-last-encryption,!enc) */
	R_SAMEKEY, /* init(NULL,NULL,same-key-bytes,iv,-1) */
	R_NOTHING, /* init(NULL,NULL,NULL,NULL,-1): an IV reuse attempt */
	R_N
};
static const char *const rkind_names[R_N] = { "iv-only",	"key-only",
					      "key+iv",		"cipher+key+iv",
					      "flip-direction", "same-key-bytes+iv",
					      "nothing" };

struct rstep {
	enum rkind kind;
	int keyi, ivi;
	size_t aadlen, len;
	int mid;    /* abandon the message half-way */
	int settag; /* decrypt: set the tag */
	int split;
	enum api api;
};

struct rshape {
	int kidx;
	size_t ivlen, taglen;
	unsigned char key[3][32];
	unsigned char iv[3][IV_BUF];
	int enc0;
	int nsteps;
	struct rstep st[MAX_STEPS];
};

static size_t pick_msg_len(struct rng *r)
{
	static const size_t b[] = { 0, 1, 16, 4095, 4096, 4097, 16384, 32768 };
	size_t p = rng_below(r, 100);

	if (p < 10)
		return b[rng_below(r, sizeof(b) / sizeof(b[0]))];
	if (p < 55)
		return rng_range(r, 0, 300);
	if (p < 72)
		return rng_range(r, 301, 4095);
	return rng_range(r, ENGINE_MIN, ENGINE_MAX);
}

static void reinit_run(struct harness *h, const struct rshape *s, const EVP_CIPHER *c,
		       unsigned char *const *pt, unsigned char *const *aad, struct tr *t, int count)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int enc = s->enc0, curkey = 0, curiv = 0, lastiv = 0;
	unsigned char *lastct = NULL;
	const unsigned char *lastaad = aad[0];
	size_t lastlen = 0, lastaadlen = 0;
	unsigned char lasttag[TAG_BUF];
	char w[72];

	memset(lasttag, 0, sizeof(lasttag));
	L_init(t, "init(c)", x, c, NULL, NULL, enc);
	L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, (int)s->ivlen, NULL, 0, 0);
	L_init(t, "init(key,iv)", x, NULL, s->key[0], s->iv[0], -1);
	for (int i = 0; i < s->nsteps; i++) {
		const struct rstep *st = &s->st[i];
		struct msg m;
		unsigned char *out;

		if (i > 0) {
			snprintf(w, sizeof(w), "step%d.reinit(%s)", i, rkind_names[st->kind]);
			switch (st->kind) {
			case R_IV:
				L_init(t, w, x, NULL, NULL, s->iv[st->ivi], -1);
				curiv = st->ivi;
				break;
			case R_KEY:
				L_init(t, w, x, NULL, s->key[st->keyi], NULL, -1);
				curkey = st->keyi;
				break;
			case R_BOTH:
				L_init(t, w, x, NULL, s->key[st->keyi], s->iv[st->ivi], -1);
				curkey = st->keyi;
				curiv = st->ivi;
				break;
			case R_CIPHER:
				L_init(t, w, x, c, s->key[st->keyi], s->iv[st->ivi], enc);
				curkey = st->keyi;
				curiv = st->ivi;
				break;
			case R_FLIP:
				enc = !enc;
				L_init(t, w, x, NULL, NULL, s->iv[lastiv], enc);
				curiv = lastiv;
				break;
			case R_SAMEKEY:
				L_init(t, w, x, NULL, s->key[curkey], s->iv[st->ivi], -1);
				curiv = st->ivi;
				break;
			case R_NOTHING:
			default:
				L_init(t, w, x, NULL, NULL, NULL, -1);
				break;
			}
		}
		memset(&m, 0, sizeof(m));
		m.taglen = s->taglen;
		m.api = st->api;
		m.split = st->split;
		m.stop_mid = st->mid;
		snprintf(w, sizeof(w), "step%d.%s.", i, enc ? "enc" : "dec");
		if (enc) {
			m.aad = aad[i];
			m.aadlen = st->aadlen;
			m.in = pt[i];
			m.len = st->len;
			out = xmalloc(m.len);
			m.out = out;
			m.tag = lasttag;
			msg_run(t, x, 1, &m, w);
			free(lastct);
			lastct = out;
			lastlen = m.len;
			lastaad = aad[i];
			lastaadlen = st->aadlen;
			lastiv = curiv;
		} else {
			/* decrypt what was encrypted last (or garbage if nothing was) */
			m.aad = lastct != NULL ? lastaad : aad[i];
			m.aadlen = lastct != NULL ? lastaadlen : st->aadlen;
			m.in = lastct != NULL ? lastct : pt[i];
			m.len = lastct != NULL ? lastlen : st->len;
			out = xmalloc(m.len);
			m.out = out;
			m.tag = lasttag;
			m.set_tag = st->settag;
			msg_run(t, x, 0, &m, w);
			free(out);
		}
		if (count)
			count_message(h, s->ivlen, s->taglen, m.aadlen, m.len, 0);
	}
	free(lastct);
	EVP_CIPHER_CTX_free(x);
}

static void case_reinit(struct harness *h, struct rng *r)
{
	struct rshape s;
	unsigned char *pt[MAX_STEPS] = { 0 }, *aad[MAX_STEPS] = { 0 };

	memset(&s, 0, sizeof(s));
	s.kidx = (int)rng_below(r, 3);
	rng_fill(r, &s.key[0][0], sizeof(s.key));
	rng_fill(r, &s.iv[0][0], sizeof(s.iv));
	s.ivlen = rng_pct(r, 75) ? 12 : pick_ivlen(r);
	s.taglen = rng_pct(r, 80) ? 16 : rng_range(r, 4, 15);
	s.enc0 = rng_pct(r, 85);
	s.nsteps = (int)rng_range(r, 2, MAX_STEPS);
	shape_add(h, "%s ivlen=%zu taglen=%zu keys=", cipher_names[s.kidx], s.ivlen, s.taglen);
	for (int k = 0; k < 3; k++) {
		shape_hex(h, s.key[k], key_lens[s.kidx]);
		shape_add(h, k < 2 ? "," : " ivs=");
	}
	for (int k = 0; k < 3; k++) {
		shape_hex(h, s.iv[k], s.ivlen);
		shape_add(h, k < 2 ? "," : "");
	}
	shape_add(h, " start=%s steps:", s.enc0 ? "encrypt" : "decrypt");
	for (int i = 0; i < s.nsteps; i++) {
		struct rstep *st = &s.st[i];
		size_t p = rng_below(r, 100);

		st->kind = (enum rkind)rng_below(r, R_N);
		st->keyi = (int)rng_below(r, 3);
		st->ivi = (int)rng_below(r, 3);
		st->aadlen = rng_pct(r, 30) ? 13 : rng_range(r, 0, 64);
		st->len = pick_msg_len(r);
		st->mid = rng_pct(r, 12);
		st->settag = rng_pct(r, 90);
		st->split = rng_pct(r, 25);
		st->api = p < 70 ? API_UPDATE : (p < 85 ? API_ENCDEC : API_CIPHER);
		pt[i] = xmalloc(st->len);
		aad[i] = xmalloc(st->aadlen);
		rng_fill(r, pt[i], st->len);
		rng_fill(r, aad[i], st->aadlen);
		shape_add(h, " [%d: %s key%d iv%d aad=%zu data=%zu%s%s%s %s]", i,
			  i == 0 ? "initial" : rkind_names[st->kind], st->keyi, st->ivi, st->aadlen,
			  st->len, st->mid ? " abandoned" : "", st->settag ? "" : " no-tag",
			  st->split ? " split" : "", api_names[st->api]);
	}
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	reinit_run(h, &s, h->test.c[s.kidx], pt, aad, &h->ta, 1);
	reinit_run(h, &s, h->ref.c[s.kidx], pt, aad, &h->tb, 0);
	compare_tr(h, "re-init script", &h->ta, h->test.label, &h->tb, h->ref.label);
	for (int i = 0; i < s.nsteps; i++) {
		free(pt[i]);
		free(aad[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Error behaviour scripts                                              */
/* ------------------------------------------------------------------ */

enum escript {
	E_IVLEN,
	E_GETTAG,
	E_SETTAG,
	E_TAG_BEFORE_FINAL,
	E_AFTER_FINAL,
	E_DEC_NO_TAG,
	E_AAD_AFTER_DATA,
	E_NO_IV,
	E_TLS_AAD,
	E_IV_FIXED,
	E_IVGEN_INV,
	E_KEYLEN,
	E_SMALL_IV_BUF,
	E_PARAM_TYPES,
	E_ONESHOT_NO_TAG,
	E_COPY_EARLY,
	E_IV_REUSE,
	E_NULL_IN,
	E_DEC_FINAL_TWICE,
	E_ENGINE_DEC_AFTER_FINAL,
	E_FAILED_REKEY,
	E_TLS_FIXED_THEN_IV,
	E_N
};
static const char *const escript_names[E_N] = { "ivlen-edges",
						"get-tag-edges",
						"set-tag-edges",
						"tag-before-final",
						"use-after-final",
						"decrypt-final-without-tag",
						"aad-after-data",
						"no-iv",
						"tls1-aad-errors",
						"iv-fixed-edges",
						"ivgen-inv-errors",
						"key-length",
						"small-iv-buffer",
						"param-types",
						"oneshot-no-tag",
						"copy-before-key",
						"iv-reuse",
						"null-input",
						"decrypt-final-twice",
						"engine-decrypt-after-final",
						"failed-rekey",
						"tls-fixed-then-iv" };

struct eshape {
	enum escript id;
	int kidx;
	unsigned char key[32], key2[32];
	unsigned char iv[IV_BUF];
	unsigned char aad[32];
	size_t aadlen;
	size_t len;
	size_t ivsel;
	unsigned char *pt;
	unsigned char *junk; /* len + 64 bytes of random data */
};

static struct msg emsg(const struct eshape *e, unsigned char *out, unsigned char *tag)
{
	struct msg m;

	memset(&m, 0, sizeof(m));
	m.aad = e->aad;
	m.aadlen = e->aadlen;
	m.in = e->pt;
	m.len = e->len;
	m.out = out;
	m.tag = tag;
	m.taglen = TAG_MAX;
	m.set_tag = 1;
	m.api = API_UPDATE;
	return m;
}

static void err_script(const struct eshape *e, const EVP_CIPHER *c, struct tr *t)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = NULL;
	unsigned char *out = xmalloc(e->len + 64);
	unsigned char *ct = xmalloc(e->len + 64);
	unsigned char tag[TAG_BUF], tag2[TAG_BUF], buf[IV_BUF + 16];
	struct msg m = emsg(e, out, tag);
	OSSL_PARAM p[3];
	char w[72];
	int ol, r;

	memset(tag, 0, sizeof(tag));
	memset(tag2, 0, sizeof(tag2));
	memset(buf, 0, sizeof(buf));
	switch (e->id) {
	case E_IVLEN: {
		static const int v[] = { 0, -1, 129, 128, 65, 64, 13, 1, 16, 12 };
		size_t z0 = 0, z129 = 129;

		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			snprintf(w, sizeof(w), "SET_IVLEN(%d)", v[i]);
			L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, v[i], NULL, 0, 0);
			log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
		}
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &z0);
		p[1] = OSSL_PARAM_construct_end();
		L_set_params(t, "set_params(ivlen=0)", x, p);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &z129);
		L_set_params(t, "set_params(ivlen=129)", x, p);
		snprintf(w, sizeof(w), "SET_IVLEN(%zu)", e->ivsel);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, (int)e->ivsel, NULL, 0, 0);
		L_init(t, "init(key,iv)", x, NULL, e->key, e->iv, -1);
		msg_run(t, x, 1, &m, "msg.");
		query_params(t, x, "after.");
		break;
	}
	case E_GETTAG: {
		static const int v[] = { 0, 17, 32, 1, 4, 12, 16 };

		L_init(t, "init(c,key,iv)", x, c, e->key, e->iv, 1);
		msg_run(t, x, 1, &m, "msg.");
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			memset(tag2, 0, sizeof(tag2));
			snprintf(w, sizeof(w), "GET_TAG(%d)", v[i]);
			L_ctrl(t, w, x, EVP_CTRL_AEAD_GET_TAG, v[i], tag2,
			       (size_t)v[i] <= sizeof(tag2) ? (size_t)v[i] : 0, 0);
		}
		break;
	}
	case E_SETTAG: {
		static const int v[] = { 0, 17, 32 };

		/* produce a valid ciphertext first, with this implementation */
		L_init(t, "enc.init", x, c, e->key, e->iv, 1);
		L_ctrl(t, "enc.SET_TAG(16)", x, EVP_CTRL_AEAD_SET_TAG, 16, tag2, 0, 0);
		m.out = ct;
		msg_run(t, x, 1, &m, "enc.");
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init", y, c, e->key, e->iv, 0);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			snprintf(w, sizeof(w), "dec.SET_TAG(%d)", v[i]);
			L_ctrl(t, w, y, EVP_CTRL_AEAD_SET_TAG, v[i], buf, 0, 0);
		}
		m.in = ct;
		m.out = out;
		msg_run(t, y, 0, &m, "dec.");
		break;
	}
	case E_TAG_BEFORE_FINAL:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		L_update(t, "aad", x, API_UPDATE, 1, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "data", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_ctrl(t, "GET_TAG-before-final", x, EVP_CTRL_AEAD_GET_TAG, 16, tag, 16, 0);
		L_final(t, "final", x, API_UPDATE, 1);
		L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, 16, tag, 16, 0);
		break;
	case E_AFTER_FINAL:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		msg_run(t, x, 1, &m, "msg.");
		L_update(t, "data-after-final", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_update(t, "aad-after-final", x, API_UPDATE, 1, NULL, e->aad, e->aadlen, 0, &ol);
		L_final(t, "final-again", x, API_UPDATE, 1);
		L_ctrl(t, "GET_TAG-again", x, EVP_CTRL_AEAD_GET_TAG, 16, tag2, 16, 0);
		L_update(t, "EVP_Cipher-after-final", x, API_CIPHER, 1, out, e->pt, e->len, 0, &ol);
		L_final(t, "EVP_Cipher-final-again", x, API_CIPHER, 1);
		break;
	case E_DEC_NO_TAG:
		L_init(t, "init", x, c, e->key, e->iv, 0);
		L_update(t, "aad", x, API_UPDATE, 0, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "data", x, API_UPDATE, 0, out, e->junk, e->len, 1, &ol);
		L_final(t, "final-without-tag", x, API_UPDATE, 0);
		L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, 16, e->junk, 0, 0);
		L_final(t, "final-with-wrong-tag", x, API_UPDATE, 0);
		break;
	case E_AAD_AFTER_DATA:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		L_update(t, "aad", x, API_UPDATE, 1, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "data1", x, API_UPDATE, 1, out, e->pt, e->len / 2, 0, &ol);
		L_update(t, "aad-after-data", x, API_UPDATE, 1, NULL, e->aad, 7, 0, &ol);
		L_update(t, "data2", x, API_UPDATE, 1, out + e->len / 2, e->pt + e->len / 2,
			 e->len - e->len / 2, 0, &ol);
		L_final(t, "final", x, API_UPDATE, 1);
		L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, 16, tag, 16, 0);
		break;
	case E_NO_IV:
		/* encrypting without an IV makes the cipher draw a random one */
		L_init(t, "enc.init(c,key)", x, c, e->key, NULL, 1);
		m.untrusted = 1;
		msg_run(t, x, 1, &m, "enc.");
		log_size_param(t, "enc.", x, OSSL_CIPHER_PARAM_IVLEN);
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, buf, IV_BUF);
		p[1] = OSSL_PARAM_construct_end();
		r = EVP_CIPHER_CTX_get_params(x, p);
		tr_log(t, "enc.get(iv)", r,
		       OSSL_PARAM_modified(&p[0]) ? (long long)p[0].return_size : -1, NULL, 0, 0);
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init(c,key)", y, c, e->key, NULL, 0);
		m.in = e->junk;
		msg_run(t, y, 0, &m, "dec.");
		break;
	case E_TLS_AAD: {
		size_t rl = e->len + TLS_EIV + TLS_TAG;
		unsigned char *rec = xmalloc(rl + 64);
		unsigned char hdr[TLS12_AAD];

		memcpy(rec, e->junk, rl + 64);
		memcpy(hdr, e->junk, sizeof(hdr));
		L_init(t, "enc.init(c,key)", x, c, e->key, NULL, 1);
		L_ctrl(t, "enc.SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->iv, 0,
		       0);
		L_ctrl(t, "enc.TLS1_AAD(12)", x, EVP_CTRL_AEAD_TLS1_AAD, 12, hdr, 0, 0);
		L_ctrl(t, "enc.TLS1_AAD(14)", x, EVP_CTRL_AEAD_TLS1_AAD, 14, buf, 0, 0);
		put_be16(hdr + 11, 7);
		L_ctrl(t, "enc.TLS1_AAD(len=7)", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		put_be16(hdr + 11, e->len + TLS_EIV);
		L_ctrl(t, "enc.TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "enc.update-not-in-place", x, API_UPDATE, 1, out, rec, rl, 1, &ol);
		L_ctrl(t, "enc.TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "enc.update-too-short", x, API_UPDATE, 1, rec, rec, 20, 1, &ol);
		L_ctrl(t, "enc.TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "enc.update", x, API_UPDATE, 1, rec, rec, rl, 1, &ol);
		L_update(t, "enc.update-without-TLS1_AAD", x, API_UPDATE, 1, rec, rec, rl, 1, &ol);
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init(c,key)", y, c, e->key, NULL, 0);
		L_ctrl(t, "dec.SET_IV_FIXED(4)", y, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->iv, 0,
		       0);
		put_be16(hdr + 11, 23);
		L_ctrl(t, "dec.TLS1_AAD(len=23)", y, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		put_be16(hdr + 11, 24);
		L_ctrl(t, "dec.TLS1_AAD(len=24)", y, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		memcpy(rec, e->junk, 24);
		L_update(t, "dec.update(24,junk)", y, API_UPDATE, 0, rec, rec, 24, 1, &ol);
		put_be16(hdr + 11, rl);
		L_ctrl(t, "dec.TLS1_AAD", y, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		memcpy(rec, e->junk, rl);
		L_update(t, "dec.EVP_Cipher(junk)", y, API_CIPHER, 0, rec, rec, rl, 1, &ol);
		free(rec);
		break;
	}
	case E_IV_FIXED: {
		static const int v[] = { 0, 3, 4, 5, 8, 9, 12, -1 };

		L_init(t, "init(c)", x, c, NULL, NULL, (int)(e->ivsel & 1));
		snprintf(w, sizeof(w), "SET_IVLEN(%zu)", e->ivsel >> 1);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, (int)(e->ivsel >> 1), NULL, 0, 0);
		L_init(t, "init(key)", x, NULL, e->key, NULL, -1);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			/*
             * OpenSSL 3.0 computes ivlen - len unsigned: a fixed part longer
             * than the IV asks RAND for ~2^64 bytes on an encrypting
             * context. Not a shape any caller uses; stay within the IV.
             */
			if (v[i] > (int)(e->ivsel >> 1))
				continue;
			snprintf(w, sizeof(w), "SET_IV_FIXED(%d)", v[i]);
			L_ctrl(t, w, x, EVP_CTRL_GCM_SET_IV_FIXED, v[i], (void *)e->iv, 0, 0);
		}
		/* the full IV was set last: generation is deterministic now */
		L_ctrl(t, "IV_GEN(8)", x, EVP_CTRL_GCM_IV_GEN, 8, buf, 8, 0);
		L_ctrl(t, "IV_GEN(-1)", x, EVP_CTRL_GCM_IV_GEN, -1, buf, e->ivsel >> 1, 0);
		break;
	}
	case E_IVGEN_INV:
		L_init(t, "enc.init(c,key)", x, c, e->key, NULL, 1);
		L_ctrl(t, "enc.IV_GEN-before-fixed", x, EVP_CTRL_GCM_IV_GEN, 8, buf, 8, 1);
		L_ctrl(t, "enc.SET_IV_INV", x, EVP_CTRL_GCM_SET_IV_INV, 8, (void *)e->iv, 0, 0);
		L_ctrl(t, "enc.SET_IV_FIXED(-1)", x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)e->iv,
		       0, 0);
		L_ctrl(t, "enc.SET_IV_INV-after-fixed", x, EVP_CTRL_GCM_SET_IV_INV, 8,
		       (void *)e->iv, 0, 0);
		L_ctrl(t, "enc.IV_GEN(4)", x, EVP_CTRL_GCM_IV_GEN, 4, buf, 4, 0);
		L_ctrl(t, "enc.IV_GEN(0)", x, EVP_CTRL_GCM_IV_GEN, 0, buf, 12, 0);
		L_ctrl(t, "enc.IV_GEN(13)", x, EVP_CTRL_GCM_IV_GEN, 13, buf, 12, 0);
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init(c,key)", y, c, e->key, NULL, 0);
		L_ctrl(t, "dec.SET_IV_INV-before-fixed", y, EVP_CTRL_GCM_SET_IV_INV, 8,
		       (void *)e->iv, 0, 0);
		L_ctrl(t, "dec.SET_IV_FIXED(4)", y, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->iv, 0,
		       0);
		L_ctrl(t, "dec.SET_IV_INV(8)", y, EVP_CTRL_GCM_SET_IV_INV, 8, (void *)(e->iv + 4),
		       0, 0);
		L_ctrl(t, "dec.IV_GEN(8)", y, EVP_CTRL_GCM_IV_GEN, 8, buf, 8, 0);
		L_ctrl(t, "dec.SET_IV_INV(-1)", y, EVP_CTRL_GCM_SET_IV_INV, -1, (void *)e->iv, 0,
		       0);
		break;
	case E_KEYLEN: {
		static const int v[] = { 16, 24, 32, 20, 0 };
		size_t kl = 20;

		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			snprintf(w, sizeof(w), "set_key_length(%d)", v[i]);
			tr_log(t, w, EVP_CIPHER_CTX_set_key_length(x, v[i]), -1, NULL, 0, 0);
		}
		log_size_param(t, "", x, OSSL_CIPHER_PARAM_KEYLEN);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &kl);
		p[1] = OSSL_PARAM_construct_end();
		L_set_params(t, "set_params(keylen=20)", x, p);
		L_init(t, "init(key,iv)", x, NULL, e->key, e->iv, -1);
		msg_run(t, x, 1, &m, "msg.");
		break;
	}
	case E_SMALL_IV_BUF:
		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		log_octet_param(t, "no-iv.", x, OSSL_CIPHER_PARAM_IV, IV_BUF);
		snprintf(w, sizeof(w), "SET_IVLEN(%zu)", e->ivsel);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, (int)e->ivsel, NULL, 0, 0);
		L_init(t, "init(key,iv)", x, NULL, e->key, e->iv, -1);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_IV, 4);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_UPDATED_IV, 4);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_IV, e->ivsel);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_IV, e->ivsel - 1);
		r = EVP_CIPHER_CTX_get_original_iv(x, buf, 4);
		tr_log(t, "get_original_iv(4)", r, -1, NULL, 0, 0);
		r = EVP_CIPHER_CTX_get_updated_iv(x, buf, e->ivsel);
		tr_log(t, "get_updated_iv(ivlen)", r, -1, buf, e->ivsel, 0);
		msg_run(t, x, 1, &m, "msg.");
		log_octet_param(t, "after.", x, OSSL_CIPHER_PARAM_UPDATED_IV, IV_BUF);
		break;
	case E_PARAM_TYPES: {
		char s12[] = "12";
		int i16 = 16;
		size_t z = 16;

		L_init(t, "init(c,key)", x, c, e->key, NULL, (int)(e->ivsel & 1));
		p[0] = OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_AEAD_IVLEN, s12, 0);
		p[1] = OSSL_PARAM_construct_end();
		L_set_params(t, "set(ivlen as utf8)", x, p);
		p[0] = OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD_IVLEN, &i16);
		L_set_params(t, "set(ivlen as int)", x, p);
		log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAG, &z);
		L_set_params(t, "set(tag as size_t)", x, p);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, &z);
		L_set_params(t, "set(tls1-aad as size_t)", x, p);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, &z);
		L_set_params(t, "set(tls1-iv-fixed as size_t)", x, p);
		p[0] = OSSL_PARAM_construct_size_t("eip93-diff-unknown", &z);
		L_set_params(t, "set(unknown name)", x, p);
		p[0] = OSSL_PARAM_construct_end();
		L_set_params(t, "set(empty list)", x, p);
		tr_log(t, "set(NULL)", EVP_CIPHER_CTX_set_params(x, NULL), -1, NULL, 0, 0);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &z);
		p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag2, 0);
		p[2] = OSSL_PARAM_construct_end();
		L_set_params(t, "set(ivlen + empty tag)", x, p);
		log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv, -1);
		m.untrusted = !(e->ivsel & 1);
		msg_run(t, x, (int)(e->ivsel & 1), &m, "msg.");
		break;
	}
	case E_ONESHOT_NO_TAG:
		L_init(t, "init", x, c, e->key, e->iv, 0);
		m.api = API_CIPHER;
		m.in = e->junk;
		m.set_tag = 0;
		m.untrusted = 1;
		msg_run(t, x, 0, &m, "first.");
		L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, 16, e->junk, 0, 0);
		L_final(t, "EVP_Cipher-final-with-tag", x, API_CIPHER, 0);
		break;
	case E_COPY_EARLY: {
		EVP_CIPHER_CTX *z = EVP_CIPHER_CTX_new(), *zz = EVP_CIPHER_CTX_new();

		tr_log(t, "copy(no cipher)", EVP_CIPHER_CTX_copy(zz, z), -1, NULL, 0, 0);
		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		y = EVP_CIPHER_CTX_new();
		tr_log(t, "copy(no key)", EVP_CIPHER_CTX_copy(y, x), -1, NULL, 0, 0);
		L_init(t, "copy.init(key,iv)", y, NULL, e->key, e->iv, -1);
		msg_run(t, y, 1, &m, "copy.");
		L_init(t, "orig.init(key2,iv)", x, NULL, e->key2, e->iv, -1);
		m.out = ct;
		m.tag = tag2;
		msg_run(t, x, 1, &m, "orig.");
		EVP_CIPHER_CTX_free(z);
		EVP_CIPHER_CTX_free(zz);
		break;
	}
	case E_IV_REUSE:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		msg_run(t, x, 1, &m, "first.");
		L_init(t, "init(nothing)", x, NULL, NULL, NULL, -1);
		L_update(t, "data-same-iv", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_init(t, "init(key only)", x, NULL, e->key2, NULL, -1);
		L_update(t, "data-key-only", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_final(t, "final", x, API_UPDATE, 1);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv, -1);
		msg_run(t, x, 1, &m, "second.");
		break;
	case E_NULL_IN:
		L_init(t, "init", x, c, e->key, e->iv, (int)(e->ivsel & 1));
		L_update(t, "update(out,NULL,0)", x, API_UPDATE, 1, out, NULL, 0, 0, &ol);
		L_update(t, "update(NULL,NULL,0)", x, API_UPDATE, 1, NULL, NULL, 0, 0, &ol);
		m.untrusted = !(e->ivsel & 1);
		m.set_tag = 1;
		m.tag = e->junk;
		msg_run(t, x, (int)(e->ivsel & 1), &m, "msg.");
		break;
	case E_ENGINE_DEC_AFTER_FINAL:
		/* Tag before the data (engine-eligible), then data after final. */
		L_init(t, "enc.init", x, c, e->key, e->iv, 1);
		m.out = ct;
		msg_run(t, x, 1, &m, "enc.");
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init", y, c, e->key, e->iv, 0);
		L_ctrl(t, "dec.SET_TAG(16)", y, EVP_CTRL_AEAD_SET_TAG, 16, tag, 0, 0);
		L_update(t, "dec.aad", y, API_UPDATE, 0, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "dec.data", y, API_UPDATE, 0, out, ct, e->len, 1, &ol);
		L_final(t, "dec.final", y, API_UPDATE, 0);
		L_update(t, "dec.data-after-final", y, API_UPDATE, 0, out, ct, e->len, 1, &ol);
		L_final(t, "dec.final-again", y, API_UPDATE, 0);
		break;
	case E_FAILED_REKEY:
		/* An init that fails on a parameter after taking a new key. */
		L_init(t, "init(key)", x, c, e->key, e->iv, 1);
		m.out = ct;
		msg_run(t, x, 1, &m, "msg1.");
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag2, 16);
		p[1] = OSSL_PARAM_construct_end();
		r = EVP_EncryptInit_ex2(x, NULL, e->key2, e->iv, p);
		tr_log(t, "init(key2,iv,tag param)", r, -1, NULL, 0, 0);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv + 12, 1);
		m.out = out;
		msg_run(t, x, 1, &m, "msg2.");
		break;
	case E_TLS_FIXED_THEN_IV: {
		/* A TLS fixed IV, then a whole IV: the record takes the new one. */
		size_t rl = e->len + TLS_EIV + TLS_TAG;
		unsigned char *rec = xmalloc(rl);
		unsigned char hdr[TLS12_AAD];

		memcpy(rec, e->junk, rl);
		memcpy(hdr, e->junk, sizeof(hdr));
		put_be16(hdr + 11, e->len + TLS_EIV);
		L_init(t, "init(c,key)", x, c, e->key, NULL, 1);
		L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->aad, 0, 0);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv, 1);
		L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "record", x, API_CIPHER, 1, rec, rec, rl, 0, &ol);
		free(rec);
		break;
	}
	case E_DEC_FINAL_TWICE:
	default:
		L_init(t, "enc.init", x, c, e->key, e->iv, 1);
		m.out = ct;
		msg_run(t, x, 1, &m, "enc.");
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init", y, c, e->key, e->iv, 0);
		m.in = ct;
		m.out = out;
		msg_run(t, y, 0, &m, "dec.");
		L_final(t, "dec.final-again", y, API_UPDATE, 0);
		L_ctrl(t, "dec.GET_TAG", y, EVP_CTRL_AEAD_GET_TAG, 16, tag2, 16, 0);
		break;
	}
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_CTX_free(y);
	free(out);
	free(ct);
}

static void case_errors(struct harness *h, struct rng *r)
{
	struct eshape e;

	memset(&e, 0, sizeof(e));
	e.id = (enum escript)rng_below(r, E_N);
	e.kidx = (int)rng_below(r, 3);
	rng_fill(r, e.key, sizeof(e.key));
	rng_fill(r, e.key2, sizeof(e.key2));
	rng_fill(r, e.iv, sizeof(e.iv));
	e.aadlen = rng_range(r, 7, sizeof(e.aad));
	rng_fill(r, e.aad, sizeof(e.aad));
	e.len = rng_pct(r, 25) ? rng_range(r, ENGINE_MIN, ENGINE_MAX) : rng_range(r, 0, 600);
	if (e.id == E_ENGINE_DEC_AFTER_FINAL || e.id == E_FAILED_REKEY ||
	    e.id == E_TLS_FIXED_THEN_IV)
		e.len = rng_range(r, ENGINE_MIN, ENGINE_MAX);
	switch (e.id) {
	case E_IVLEN: {
		static const size_t v[] = { 12, 12, 1, 64, 128 };

		e.ivsel = v[rng_below(r, sizeof(v) / sizeof(v[0]))];
		break;
	}
	case E_IV_FIXED: {
		static const size_t v[] = { 12, 16, 8 };

		/* low bit: direction; the rest: IV length */
		e.ivsel = (v[rng_below(r, 3)] << 1) | rng_below(r, 2);
		break;
	}
	case E_SMALL_IV_BUF:
		e.ivsel = rng_pct(r, 50) ? 12 : rng_range(r, 5, MAX_IV);
		break;
	default:
		e.ivsel = rng_below(r, 2);
		break;
	}
	e.pt = xmalloc(e.len);
	e.junk = xmalloc(e.len + TLS_EIV + TLS_TAG + 64);
	rng_fill(r, e.pt, e.len);
	rng_fill(r, e.junk, e.len + TLS_EIV + TLS_TAG + 64);
	shape_add(h, "%s script=%s key=", cipher_names[e.kidx], escript_names[e.id]);
	shape_hex(h, e.key, key_lens[e.kidx]);
	shape_add(h, " iv=");
	shape_hex(h, e.iv, 16);
	shape_add(h, "... aad=%zu data=%zu param=%zu", e.aadlen, e.len, e.ivsel);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	err_script(&e, h->test.c[e.kidx], &h->ta);
	err_script(&e, h->ref.c[e.kidx], &h->tb);
	compare_tr(h, escript_names[e.id], &h->ta, h->test.label, &h->tb, h->ref.label);
	h->st.messages++;
	h->st.bytes += e.len;
	free(e.pt);
	free(e.junk);
}

/* ------------------------------------------------------------------ */
/* IV generation and invocation fields (fixed || invocation)            */
/* ------------------------------------------------------------------ */

struct ivgshape {
	int kidx;
	unsigned char key[32];
	unsigned char fixed[12];
	int full; /* encrypting side sets the whole IV (deterministic) */
	int nmsg;
	size_t aadlen[MAX_STEPS], len[MAX_STEPS];
	int genarg[MAX_STEPS]; /* 8: explicit part only; -1: whole IV */
};

static void ivgen_run(struct harness *h, const struct ivgshape *s, const EVP_CIPHER *ce,
		      const EVP_CIPHER *cd, unsigned char *const *pt, unsigned char *const *aad,
		      struct tr *t)
{
	EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new();
	unsigned char ivb[16], tag[TAG_BUF];
	char w[72];

	L_init(t, "enc.init(c,key)", e, ce, s->key, NULL, 1);
	L_ctrl(t, s->full ? "enc.SET_IV_FIXED(-1)" : "enc.SET_IV_FIXED(4)", e,
	       EVP_CTRL_GCM_SET_IV_FIXED, s->full ? -1 : TLS_FIXED, (void *)s->fixed, 0, 0);
	L_init(t, "dec.init(c,key)", d, cd, s->key, NULL, 0);
	L_ctrl(t, "dec.SET_IV_FIXED(4)", d, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed,
	       0, 0);
	for (int i = 0; i < s->nmsg; i++) {
		unsigned char *ct = xmalloc(s->len[i]), *back = xmalloc(s->len[i]);
		const unsigned char *explicit_iv;
		struct msg m;
		int gen_ok;

		memset(ivb, 0, sizeof(ivb));
		memset(tag, 0, sizeof(tag));
		snprintf(w, sizeof(w), "m%d.enc.IV_GEN(%d)", i, s->genarg[i]);
		gen_ok = L_ctrl(t, w, e, EVP_CTRL_GCM_IV_GEN, s->genarg[i], ivb,
				s->genarg[i] < 0 ? 12 : (size_t)s->genarg[i], !s->full) > 0;
		explicit_iv = s->genarg[i] < 0 ? ivb + 4 : ivb;
		memset(&m, 0, sizeof(m));
		m.aad = aad[i];
		m.aadlen = s->aadlen[i];
		m.in = pt[i];
		m.len = s->len[i];
		m.out = ct;
		m.tag = tag;
		m.taglen = TAG_MAX;
		m.untrusted = !s->full;
		m.api = API_UPDATE;
		snprintf(w, sizeof(w), "m%d.enc.", i);
		msg_run(t, e, 1, &m, w);
		if (gen_ok) {
			snprintf(w, sizeof(w), "m%d.dec.SET_IV_INV(8)", i);
			L_ctrl(t, w, d, EVP_CTRL_GCM_SET_IV_INV, TLS_EIV, (void *)explicit_iv, 0,
			       0);
			m.in = ct;
			m.out = back;
			m.set_tag = 1;
			m.untrusted = 0;
			snprintf(w, sizeof(w), "m%d.dec.", i);
			msg_run(t, d, 0, &m, w);
		}
		count_message(h, 12, TAG_MAX, s->aadlen[i], s->len[i], 0);
		free(ct);
		free(back);
	}
	EVP_CIPHER_CTX_free(e);
	EVP_CIPHER_CTX_free(d);
}

static void case_ivgen(struct harness *h, struct rng *r)
{
	struct ivgshape s;
	unsigned char *pt[MAX_STEPS] = { 0 }, *aad[MAX_STEPS] = { 0 };

	memset(&s, 0, sizeof(s));
	s.kidx = (int)rng_below(r, 3);
	rng_fill(r, s.key, sizeof(s.key));
	rng_fill(r, s.fixed, sizeof(s.fixed));
	s.full = rng_pct(r, 50);
	s.nmsg = (int)rng_range(r, 1, 4);
	shape_add(h, "%s key=", cipher_names[s.kidx]);
	shape_hex(h, s.key, key_lens[s.kidx]);
	shape_add(h, " %s=", s.full ? "iv(SET_IV_FIXED -1)" : "fixed(4)");
	shape_hex(h, s.fixed, s.full ? 12 : 4);
	shape_add(h, " messages:");
	for (int i = 0; i < s.nmsg; i++) {
		s.aadlen[i] = rng_pct(r, 50) ? 13 : rng_range(r, 0, 64);
		s.len[i] = pick_msg_len(r);
		s.genarg[i] = rng_pct(r, 50) ? 8 : -1;
		pt[i] = xmalloc(s.len[i]);
		aad[i] = xmalloc(s.aadlen[i]);
		rng_fill(r, pt[i], s.len[i]);
		rng_fill(r, aad[i], s.aadlen[i]);
		shape_add(h, " [IV_GEN(%d) aad=%zu data=%zu]", s.genarg[i], s.aadlen[i], s.len[i]);
	}
	/* test encrypts, reference decrypts; then the other way round */
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	tr_reset(&h->tc);
	ivgen_run(h, &s, h->test.c[s.kidx], h->ref.c[s.kidx], pt, aad, &h->ta);
	ivgen_run(h, &s, h->ref.c[s.kidx], h->test.c[s.kidx], pt, aad, &h->tb);
	ivgen_run(h, &s, h->ref.c[s.kidx], h->ref.c[s.kidx], pt, aad, &h->tc);
	compare_tr(h, "ivgen (test encrypts)", &h->ta, h->test.label, &h->tc, h->ref.label);
	compare_tr(h, "ivgen (test decrypts)", &h->tb, h->test.label, &h->tc, h->ref.label);
	for (int i = 0; i < s.nmsg; i++) {
		free(pt[i]);
		free(aad[i]);
	}
}

/* ------------------------------------------------------------------ */
/* TLS 1.2 records, exactly as libssl 3.0 drives a provided AES-GCM     */
/* ------------------------------------------------------------------ */

enum rcorrupt { RC_NONE, RC_EIV, RC_CT, RC_TAG, RC_HDR, RC_N };
static const char *const rcorrupt_names[RC_N] = { "none", "explicit-iv", "ciphertext", "tag",
						  "header" };

struct t12rec {
	int dir;			/* 0: peer 1 sends, 1: peer 2 sends */
	size_t len;			/* payload */
	int send_oneshot, recv_oneshot; /* EVP_Cipher instead of CipherUpdate */
	enum rcorrupt corrupt;
	size_t at;
	unsigned char x;
};

struct t12shape {
	int kidx;
	unsigned char key[2][32];
	unsigned char fixed[2][12];
	int full[2]; /* sender sets the whole IV with SET_IV_FIXED(-1) */
	unsigned char seq[2][8];
	unsigned char type;
	int nrec;
	struct t12rec rec[MAX_REC];
};

static size_t pick_tls_len(struct rng *r)
{
	static const size_t b[] = { 0, 1, 15, 16, 17, 4095, 4096, 4097, 16383, 16384 };
	size_t p = rng_below(r, 100);

	if (p < 10)
		return b[rng_below(r, sizeof(b) / sizeof(b[0]))];
	if (p < 50)
		return rng_range(r, 0, 512);
	if (p < 72)
		return rng_range(r, 513, 4095);
	return rng_range(r, 4096, 16384);
}

static void seq_inc(unsigned char *seq)
{
	for (int i = 7; i >= 0; i--)
		if (++seq[i] != 0)
			break;
}

/*
 * Run the records between peer 1 (implementation ca) and peer 2 (cb).
 * Channel d carries records sent on key d: channel 0 from peer 1 to
 * peer 2, channel 1 the other way. verify: check every sealed record
 * against an independent computation (reference one-shot and kernel).
 */
static void t12_run(struct harness *h, const struct t12shape *s, const EVP_CIPHER *ca,
		    const EVP_CIPHER *cb, unsigned char *const *payload,
		    unsigned char *const *garbage, struct tr *t, int verify)
{
	EVP_CIPHER_CTX *w[2], *rd[2];
	unsigned char wseq[2][8], rseq[2][8], prev_eiv[2][8];
	int have_prev[2] = { 0, 0 };
	char what[72];

	for (int d = 0; d < 2; d++) {
		const EVP_CIPHER *cs = d == 0 ? ca : cb, *cr = d == 0 ? cb : ca;

		w[d] = EVP_CIPHER_CTX_new();
		rd[d] = EVP_CIPHER_CTX_new();
		memcpy(wseq[d], s->seq[d], 8);
		memcpy(rseq[d], s->seq[d], 8);
		snprintf(what, sizeof(what), "ch%d.send.init(c,key,enc)", d);
		L_init(t, what, w[d], cs, s->key[d], NULL, 1);
		snprintf(what, sizeof(what), "ch%d.send.SET_IV_FIXED(%d)", d,
			 s->full[d] ? -1 : TLS_FIXED);
		L_ctrl(t, what, w[d], EVP_CTRL_GCM_SET_IV_FIXED, s->full[d] ? -1 : TLS_FIXED,
		       (void *)s->fixed[d], 0, 0);
		snprintf(what, sizeof(what), "ch%d.recv.init(c,key,dec)", d);
		L_init(t, what, rd[d], cr, s->key[d], NULL, 0);
		snprintf(what, sizeof(what), "ch%d.recv.SET_IV_FIXED(4)", d);
		L_ctrl(t, what, rd[d], EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed[d], 0,
		       0);
	}
	for (int i = 0; i < s->nrec; i++) {
		const struct t12rec *rc = &s->rec[i];
		int d = rc->dir, ok, pad, ol;
		size_t L = rc->len, reclen = TLS_EIV + L + TLS_TAG;
		unsigned char *buf = xmalloc(reclen);
		unsigned char hdr[TLS12_AAD], rhdr[TLS12_AAD];
		int untrusted = rc->corrupt != RC_NONE;

		if (payload[i] == NULL || garbage[i] == NULL) {
			free(buf);
			continue;
		}
		memcpy(buf, garbage[i], TLS_EIV);
		copy_bytes(buf + TLS_EIV, payload[i], L);
		memcpy(buf + TLS_EIV + L, garbage[i] + TLS_EIV, TLS_TAG);

		/* sender: seq(8) type(1) version(2) length(2) = eiv + payload */
		memcpy(hdr, wseq[d], 8);
		seq_inc(wseq[d]);
		hdr[8] = s->type;
		hdr[9] = 3;
		hdr[10] = 3;
		put_be16(hdr + 11, TLS_EIV + L);
		snprintf(what, sizeof(what), "r%d.ch%d.send.TLS1_AAD", i, d);
		pad = L_ctrl(t, what, w[d], EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
		if (pad <= 0 || pad > TLS_TAG) {
			free(buf);
			continue;
		}
		snprintf(what, sizeof(what), "r%d.ch%d.send.%s", i, d,
			 rc->send_oneshot ? "EVP_Cipher" : "CipherUpdate");
		if (rc->send_oneshot) {
			ol = EVP_Cipher(w[d], buf, buf, (unsigned int)reclen);
			tr_log(t, what, ol, -1, buf, ol > 0 ? reclen : 0, !s->full[d]);
			ok = ol > 0;
		} else {
			ol = -7;
			ok = EVP_CipherUpdate(w[d], buf, &ol, buf, (int)reclen);
			tr_log(t, what, ok, ol, buf, ok > 0 ? reclen : 0, !s->full[d]);
			ok = ok > 0;
		}
		count_message(h, 12, TAG_MAX, 13, L, 0);
		h->st.tls12_records++;
		if (!ok) {
			free(buf);
			continue;
		}
		if (!s->full[d]) {
			/* random start, so compare only how it advances */
			uint64_t cur = get_be64(buf);

			snprintf(what, sizeof(what), "r%d.ch%d.send.explicit-iv-step", i, d);
			tr_log(t, what, have_prev[d] ? (long long)(cur - get_be64(prev_eiv[d])) : 0,
			       -1, NULL, 0, 0);
			memcpy(prev_eiv[d], buf, 8);
			have_prev[d] = 1;
		}
		if (verify) {
			unsigned char iv[12], aadv[TLS12_AAD], tag[TAG_BUF];
			unsigned char *ct = xmalloc(L);

			memcpy(iv, s->fixed[d], TLS_FIXED);
			memcpy(iv + TLS_FIXED, buf, TLS_EIV);
			memcpy(aadv, hdr, TLS12_AAD);
			put_be16(aadv + 11, L);
			if (!ref_seal(h->ref.c[s->kidx], s->key[d], iv, 12, aadv, TLS12_AAD,
				      payload[i], L, ct, tag, TLS_TAG))
				failf(h, "harness: reference seal failed (record %d)", i);
			else if ((L != 0 && memcmp(ct, buf + TLS_EIV, L) != 0) ||
				 memcmp(tag, buf + TLS_EIV + L, TLS_TAG) != 0)
				failf(h,
				      "record %d (channel %d, %zu bytes) is not "
				      "AES-GCM(key, fixed||explicit, header, payload)",
				      i, d, L);
			kc_check_enc(h, "tls12 record", s->kidx, s->key[d], iv, aadv, TLS12_AAD,
				     payload[i], L, buf + TLS_EIV, buf + TLS_EIV + L, TLS_TAG);
			free(ct);
		}

		/* the wire */
		switch (rc->corrupt) {
		case RC_EIV:
		case RC_CT:
		case RC_TAG:
			buf[rc->at] ^= rc->x;
			break;
		default:
			break;
		}

		/* receiver: the header carries the whole record length */
		memcpy(rhdr, rseq[d], 8);
		seq_inc(rseq[d]);
		rhdr[8] = s->type;
		if (rc->corrupt == RC_HDR)
			rhdr[8] ^= rc->x;
		rhdr[9] = 3;
		rhdr[10] = 3;
		put_be16(rhdr + 11, reclen);
		snprintf(what, sizeof(what), "r%d.ch%d.recv.TLS1_AAD", i, d);
		pad = L_ctrl(t, what, rd[d], EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, rhdr, 0, 0);
		if (pad <= 0) {
			free(buf);
			continue;
		}
		snprintf(what, sizeof(what), "r%d.ch%d.recv.%s", i, d,
			 rc->recv_oneshot ? "EVP_Cipher" : "CipherUpdate");
		if (rc->recv_oneshot) {
			ol = EVP_Cipher(rd[d], buf, buf, (unsigned int)reclen);
			tr_log(t, what, ol, -1, buf + TLS_EIV, ol > 0 ? L : 0, untrusted);
		} else {
			ol = -7;
			ok = EVP_CipherUpdate(rd[d], buf, &ol, buf, (int)reclen);
			tr_log(t, what, ok, ol, buf + TLS_EIV,
			       (ok > 0 && ol >= 0 && (size_t)ol <= L) ? (size_t)ol : 0, untrusted);
		}
		count_message(h, 12, TAG_MAX, 13, L, 0);
		free(buf);
	}
	for (int d = 0; d < 2; d++) {
		EVP_CIPHER_CTX_free(w[d]);
		EVP_CIPHER_CTX_free(rd[d]);
	}
}

static void case_tls12(struct harness *h, struct rng *r, int forced)
{
	static const size_t forced_lens[] = { 0, 1, 15, 16, 17, 4095, 4096, 4097, 16383, 16384 };
	struct t12shape s;
	unsigned char *payload[MAX_REC] = { 0 }, *garbage[MAX_REC] = { 0 };

	memset(&s, 0, sizeof(s));
	s.kidx = rng_pct(r, 80) ? (rng_pct(r, 50) ? 0 : 2) : 1;
	rng_fill(r, &s.key[0][0], sizeof(s.key));
	rng_fill(r, &s.fixed[0][0], sizeof(s.fixed));
	rng_fill(r, &s.seq[0][0], sizeof(s.seq));
	for (int d = 0; d < 2; d++) {
		s.full[d] = rng_pct(r, 20);
		if (rng_pct(r, 50))
			memset(s.seq[d], 0, 8);
	}
	s.type = rng_pct(r, 80) ? 23 : (unsigned char)rng_range(r, 20, 24);
	s.nrec = forced >= 0 ? (int)(sizeof(forced_lens) / sizeof(forced_lens[0]))
			     : (int)rng_range(r, 1, 5);
	for (int i = 0; i < s.nrec; i++) {
		struct t12rec *rc = &s.rec[i];
		size_t p;

		rc->dir = forced >= 0 ? (i + forced) % 2 : (int)rng_below(r, 2);
		rc->len = forced >= 0 ? forced_lens[i] : pick_tls_len(r);
		rc->send_oneshot = rng_pct(r, 25);
		rc->recv_oneshot = rng_pct(r, 25);
		p = rng_below(r, 100);
		rc->corrupt = p < 80 ? RC_NONE : (enum rcorrupt)rng_range(r, 1, 4);
		if (rc->corrupt == RC_CT && rc->len == 0)
			rc->corrupt = RC_TAG;
		rc->x = rng_nonzero_byte(r);
		switch (rc->corrupt) {
		case RC_EIV:
			rc->at = rng_below(r, TLS_EIV);
			break;
		case RC_CT:
			rc->at = TLS_EIV + rng_below(r, rc->len);
			break;
		case RC_TAG:
			rc->at = TLS_EIV + rc->len + rng_below(r, TLS_TAG);
			break;
		default:
			rc->at = 0;
			break;
		}
		payload[i] = xmalloc(rc->len);
		garbage[i] = xmalloc(TLS_EIV + TLS_TAG);
		rng_fill(r, payload[i], rc->len);
		rng_fill(r, garbage[i], TLS_EIV + TLS_TAG);
		if (rc->corrupt != RC_NONE)
			h->st.corrupted++;
	}
	shape_add(h, "%s keys=", cipher_names[s.kidx]);
	shape_hex(h, s.key[0], key_lens[s.kidx]);
	shape_add(h, ",");
	shape_hex(h, s.key[1], key_lens[s.kidx]);
	shape_add(h, " fixed=");
	shape_hex(h, s.fixed[0], s.full[0] ? 12 : 4);
	shape_add(h, "%s,", s.full[0] ? "(whole IV)" : "");
	shape_hex(h, s.fixed[1], s.full[1] ? 12 : 4);
	shape_add(h, "%s seq=", s.full[1] ? "(whole IV)" : "");
	shape_hex(h, s.seq[0], 8);
	shape_add(h, ",");
	shape_hex(h, s.seq[1], 8);
	shape_add(h, " type=%u records:", s.type);
	for (int i = 0; i < s.nrec; i++) {
		const struct t12rec *rc = &s.rec[i];

		shape_add(h, " [%d: peer%d->peer%d %zu bytes send=%s recv=%s", i, rc->dir + 1,
			  2 - rc->dir, rc->len, rc->send_oneshot ? "EVP_Cipher" : "CipherUpdate",
			  rc->recv_oneshot ? "EVP_Cipher" : "CipherUpdate");
		if (rc->corrupt != RC_NONE)
			shape_add(h, " corrupt=%s@%zu^0x%02x", rcorrupt_names[rc->corrupt], rc->at,
				  rc->x);
		shape_add(h, "]");
	}
	shape_add(h, " (peer1=%s, peer2=%s; compared with both on %s)", h->test.label, h->ref.label,
		  h->ref.label);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	t12_run(h, &s, h->test.c[s.kidx], h->ref.c[s.kidx], payload, garbage, &h->ta, 1);
	{
		/* the reference run must not count as traffic of the test side */
		struct stats saved = h->st;

		t12_run(h, &s, h->ref.c[s.kidx], h->ref.c[s.kidx], payload, garbage, &h->tb, 0);
		h->st = saved;
	}
	compare_tr(h, "tls1.2 records", &h->ta, h->test.label, &h->tb, "both-default");
	for (int i = 0; i < s.nrec; i++) {
		free(payload[i]);
		free(garbage[i]);
	}
}

/* ------------------------------------------------------------------ */
/* TLS 1.3 records, exactly as libssl 3.0 drives AES-GCM                */
/* ------------------------------------------------------------------ */

struct t13rec {
	int dir;
	size_t len;	       /* inner plaintext: content + type byte (+ padding) */
	enum rcorrupt corrupt; /* RC_CT, RC_TAG or RC_HDR */
	size_t at;
	unsigned char x;
};

struct t13shape {
	int kidx;
	unsigned char key[2][32];
	unsigned char siv[2][12];
	unsigned char seq[2][8];
	int setup; /* 0: libssl 3.0 order; 1: key with the cipher, then IVLEN */
	int nrec;
	struct t13rec rec[MAX_REC];
};

static void t13_setup(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
		      const unsigned char *key, int enc, int variant)
{
	char w[72];

	if (variant == 0) {
		/* ssl/tls13_enc.c derive_secret_key_and_iv() in 3.0 */
		snprintf(w, sizeof(w), "%sinit(c,enc)", pfx);
		L_init(t, w, x, c, NULL, NULL, enc);
		snprintf(w, sizeof(w), "%sSET_IVLEN(12)", pfx);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL, 0, 0);
		snprintf(w, sizeof(w), "%sinit(key,-1)", pfx);
		L_init(t, w, x, NULL, key, NULL, -1);
	} else {
		snprintf(w, sizeof(w), "%sinit(c,key,enc)", pfx);
		L_init(t, w, x, c, key, NULL, enc);
		snprintf(w, sizeof(w), "%sSET_IVLEN(12)", pfx);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL, 0, 0);
	}
}

static void t13_nonce(unsigned char *nonce, const unsigned char *siv, unsigned char *seq)
{
	memcpy(nonce, siv, 12);
	for (int k = 0; k < 8; k++)
		nonce[4 + k] ^= seq[k];
	seq_inc(seq);
}

static void t13_run(struct harness *h, const struct t13shape *s, const EVP_CIPHER *ca,
		    const EVP_CIPHER *cb, unsigned char *const *payload,
		    unsigned char *const *garbage, struct tr *t, int verify)
{
	EVP_CIPHER_CTX *w[2], *rd[2];
	unsigned char wseq[2][8], rseq[2][8];
	char what[72];

	for (int d = 0; d < 2; d++) {
		w[d] = EVP_CIPHER_CTX_new();
		rd[d] = EVP_CIPHER_CTX_new();
		memcpy(wseq[d], s->seq[d], 8);
		memcpy(rseq[d], s->seq[d], 8);
		snprintf(what, sizeof(what), "ch%d.send.", d);
		t13_setup(t, what, w[d], d == 0 ? ca : cb, s->key[d], 1, s->setup);
		snprintf(what, sizeof(what), "ch%d.recv.", d);
		t13_setup(t, what, rd[d], d == 0 ? cb : ca, s->key[d], 0, s->setup);
	}
	for (int i = 0; i < s->nrec; i++) {
		const struct t13rec *rc = &s->rec[i];
		int d = rc->dir, lenu = -7, lenf = -7, ok;
		size_t L = rc->len;
		unsigned char *buf = xmalloc(L + TLS_TAG);
		unsigned char nonce[12], hdr[TLS13_HDR];
		int untrusted = rc->corrupt != RC_NONE;

		if (payload[i] == NULL || garbage[i] == NULL) {
			free(buf);
			continue;
		}
		copy_bytes(buf, payload[i], L);
		memcpy(buf + L, garbage[i], TLS_TAG);
		hdr[0] = 23;
		hdr[1] = 3;
		hdr[2] = 3;
		put_be16(hdr + 3, L + TLS_TAG);

		/* send (ssl/record/ssl3_record_tls13.c tls13_enc, sending) */
		t13_nonce(nonce, s->siv[d], wseq[d]);
		snprintf(what, sizeof(what), "r%d.ch%d.send.init(nonce)", i, d);
		ok = L_init(t, what, w[d], NULL, NULL, nonce, 1) > 0;
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.aad", i, d);
			ok = L_update(t, what, w[d], API_UPDATE, 1, NULL, hdr, TLS13_HDR, 0, &lenu);
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.data", i, d);
			ok = L_update(t, what, w[d], API_UPDATE, 1, buf, buf, L, 0, &lenu);
		}
		if (ok && lenu >= 0 && (size_t)lenu <= L) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.final", i, d);
			ok = EVP_CipherFinal_ex(w[d], buf + lenu, &lenf) > 0;
			tr_log(t, what, ok, lenf, NULL, 0, 0);
			ok = ok && (size_t)lenu + (size_t)lenf == L;
		} else {
			ok = 0;
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.GET_TAG", i, d);
			ok = L_ctrl(t, what, w[d], EVP_CTRL_AEAD_GET_TAG, TLS_TAG, buf + L, TLS_TAG,
				    0) > 0;
		}
		count_message(h, 12, TAG_MAX, TLS13_HDR, L, 0);
		h->st.tls13_records++;
		if (!ok) {
			free(buf);
			continue;
		}
		if (verify)
			kc_check_enc(h, "tls13 record", s->kidx, s->key[d], nonce, hdr, TLS13_HDR,
				     payload[i], L, buf, buf + L, TLS_TAG);

		/* the wire */
		if (rc->corrupt == RC_CT || rc->corrupt == RC_TAG)
			buf[rc->at] ^= rc->x;
		if (rc->corrupt == RC_HDR)
			hdr[rc->at] ^= rc->x;

		/* receive: tag set before the data, as libssl 3.0 does */
		t13_nonce(nonce, s->siv[d], rseq[d]);
		lenu = lenf = -7;
		snprintf(what, sizeof(what), "r%d.ch%d.recv.init(nonce)", i, d);
		ok = L_init(t, what, rd[d], NULL, NULL, nonce, 0) > 0;
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.SET_TAG", i, d);
			ok = L_ctrl(t, what, rd[d], EVP_CTRL_AEAD_SET_TAG, TLS_TAG, buf + L, 0, 0) >
			     0;
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.aad", i, d);
			ok = L_update(t, what, rd[d], API_UPDATE, 0, NULL, hdr, TLS13_HDR, 0,
				      &lenu);
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.data", i, d);
			ok = L_update(t, what, rd[d], API_UPDATE, 0, buf, buf, L, 1, &lenu);
		}
		if (ok && lenu >= 0 && (size_t)lenu <= L) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.final", i, d);
			ok = EVP_CipherFinal_ex(rd[d], buf + lenu, &lenf) > 0;
			tr_log(t, what, ok, lenf, NULL, 0, 0);
			snprintf(what, sizeof(what), "r%d.ch%d.recv.plaintext", i, d);
			tr_log(t, what, ok, -1, buf, L, untrusted || !ok);
		}
		count_message(h, 12, TAG_MAX, TLS13_HDR, L, 0);
		free(buf);
	}
	for (int d = 0; d < 2; d++) {
		EVP_CIPHER_CTX_free(w[d]);
		EVP_CIPHER_CTX_free(rd[d]);
	}
}

static void case_tls13(struct harness *h, struct rng *r, int forced)
{
	static const size_t forced_lens[] = { 1, 15, 16, 17, 4095, 4096, 4097, 16384, 16385 };
	struct t13shape s;
	unsigned char *payload[MAX_REC] = { 0 }, *garbage[MAX_REC] = { 0 };

	memset(&s, 0, sizeof(s));
	s.kidx = rng_pct(r, 50) ? 0 : 2;
	rng_fill(r, &s.key[0][0], sizeof(s.key));
	rng_fill(r, &s.siv[0][0], sizeof(s.siv));
	rng_fill(r, &s.seq[0][0], sizeof(s.seq));
	for (int d = 0; d < 2; d++)
		if (rng_pct(r, 50))
			memset(s.seq[d], 0, 8);
	s.setup = rng_pct(r, 70) ? 0 : 1;
	s.nrec = forced >= 0 ? (int)(sizeof(forced_lens) / sizeof(forced_lens[0]))
			     : (int)rng_range(r, 2, 6);
	for (int i = 0; i < s.nrec; i++) {
		struct t13rec *rc = &s.rec[i];

		rc->dir = forced >= 0 ? (i + forced) % 2 : (int)rng_below(r, 2);
		rc->len = forced >= 0 ? forced_lens[i] : pick_tls_len(r) + 1;
		rc->corrupt = rng_pct(r, 80) ? RC_NONE : (enum rcorrupt)rng_range(r, RC_CT, RC_HDR);
		rc->x = rng_nonzero_byte(r);
		if (rc->corrupt == RC_CT)
			rc->at = rng_below(r, rc->len);
		else if (rc->corrupt == RC_TAG)
			rc->at = rc->len + rng_below(r, TLS_TAG);
		else
			rc->at = rng_below(r, TLS13_HDR);
		payload[i] = xmalloc(rc->len);
		garbage[i] = xmalloc(TLS_TAG);
		rng_fill(r, payload[i], rc->len);
		rng_fill(r, garbage[i], TLS_TAG);
		if (rc->corrupt != RC_NONE)
			h->st.corrupted++;
	}
	shape_add(h, "%s keys=", cipher_names[s.kidx]);
	shape_hex(h, s.key[0], key_lens[s.kidx]);
	shape_add(h, ",");
	shape_hex(h, s.key[1], key_lens[s.kidx]);
	shape_add(h, " static-ivs=");
	shape_hex(h, s.siv[0], 12);
	shape_add(h, ",");
	shape_hex(h, s.siv[1], 12);
	shape_add(h, " seq=");
	shape_hex(h, s.seq[0], 8);
	shape_add(h, ",");
	shape_hex(h, s.seq[1], 8);
	shape_add(h, " setup=%s records:",
		  s.setup == 0 ? "init(c);SET_IVLEN;init(key)" : "init(c,key);SET_IVLEN");
	for (int i = 0; i < s.nrec; i++) {
		const struct t13rec *rc = &s.rec[i];

		shape_add(h, " [%d: peer%d->peer%d %zu bytes", i, rc->dir + 1, 2 - rc->dir,
			  rc->len);
		if (rc->corrupt != RC_NONE)
			shape_add(h, " corrupt=%s@%zu^0x%02x", rcorrupt_names[rc->corrupt], rc->at,
				  rc->x);
		shape_add(h, "]");
	}
	shape_add(h, " (peer1=%s, peer2=%s; compared with both on %s)", h->test.label, h->ref.label,
		  h->ref.label);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	t13_run(h, &s, h->test.c[s.kidx], h->ref.c[s.kidx], payload, garbage, &h->ta, 1);
	{
		struct stats saved = h->st;

		t13_run(h, &s, h->ref.c[s.kidx], h->ref.c[s.kidx], payload, garbage, &h->tb, 0);
		h->st = saved;
	}
	compare_tr(h, "tls1.3 records", &h->ta, h->test.label, &h->tb, "both-default");
	for (int i = 0; i < s.nrec; i++) {
		free(payload[i]);
		free(garbage[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Named regression scripts (issue 11): eip93-diff --script NAME        */
/* ------------------------------------------------------------------ */

/*
 * Each is a legal EVP call sequence on which eip93 once differed from the
 * default provider; test/fuzz/regress holds the same sequences as fuzz
 * inputs.  A script runs --cases times (random key, IVs and data from the
 * seed) on both implementations and the transcripts are compared.  Where
 * an output depends on the DRBG (a TLS 1.2 record sealed under a 4-byte
 * fixed IV), the bytes are not compared; instead the record is checked to
 * be AES-GCM(key, fixed || explicit IV, header, payload) and that verdict
 * is compared.
 */
struct nshape {
	int kidx;
	unsigned char key[32], iv[12], iv2[12], fixed[12], junk[16];
	unsigned char aad[TLS12_AAD];
	size_t len;
	unsigned char *pt; /* len + 64 bytes */
};

/* A TLS 1.2 header: seq 0, type 23, version 3.3, the given length field. */
static void n_header(unsigned char *hdr, size_t lenfield)
{
	memset(hdr, 0, 8);
	hdr[8] = 23;
	hdr[9] = 3;
	hdr[10] = 3;
	put_be16(hdr + 11, lenfield);
}

/*
 * Is rec (eiv || body || tag) the TLS 1.2 sealing of pt under key and the
 * fixed part?  A whole IV set by init after SET_IV_FIXED replaces the fixed
 * part too (its first 4 bytes are the fixed part from then on).
 */
static int n_record_ok(const EVP_CIPHER *ref, const struct nshape *s, const unsigned char *fixed,
		       const unsigned char *rec, const unsigned char *hdr)
{
	unsigned char iv[12], aadv[TLS12_AAD], tag[TAG_BUF];
	unsigned char *ct = xmalloc(s->len);
	int ok;

	memcpy(iv, fixed, TLS_FIXED);
	memcpy(iv + TLS_FIXED, rec, TLS_EIV);
	memcpy(aadv, hdr, TLS12_AAD);
	put_be16(aadv + 11, s->len);
	ok = ref_seal(ref, s->key, iv, 12, aadv, TLS12_AAD, s->pt, s->len, ct, tag, TLS_TAG) &&
	     memcmp(ct, rec + TLS_EIV, s->len) == 0 &&
	     memcmp(tag, rec + TLS_EIV + s->len, TLS_TAG) == 0;
	free(ct);
	return ok;
}

/* A TLS 1.2 encryption after TLS1_AAD (IV set by init), optionally behind a zero-length update. */
static void n_seal_record(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *ref,
			  const struct nshape *s, int zero, int oneshot)
{
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	unsigned char *rec = xmalloc(rl);
	unsigned char hdr[TLS12_AAD];
	int ol = -7, r;

	memcpy(rec + TLS_EIV, s->pt, s->len);
	n_header(hdr, TLS_EIV + s->len);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	if (zero) {
		r = EVP_CipherUpdate(x, rec, &ol, rec, 0);
		tr_log(t, "update(0)", r, ol, NULL, 0, 0);
	}
	if (oneshot) {
		r = EVP_Cipher(x, rec, rec, (unsigned int)rl);
		tr_log(t, "record(EVP_Cipher)", r, -1, NULL, 0, 0);
		r = r > 0;
	} else {
		r = EVP_CipherUpdate(x, rec, &ol, rec, (int)rl);
		tr_log(t, "record(CipherUpdate)", r, ol, NULL, 0, 0);
	}
	/* The explicit IV comes from the DRBG: compare what the record is, not its bytes. */
	tr_log(t, "record is AES-GCM(key, fixed||explicit, header, payload)",
	       r > 0 && n_record_ok(ref, s, s->iv, rec, hdr), -1, NULL, 0, 0);
	free(rec);
}

/* A generic message on x as it stands: AAD, data, final, tag. */
static void n_message(struct tr *t, EVP_CIPHER_CTX *x, int enc, const struct nshape *s,
		      const unsigned char *in, const unsigned char *tag)
{
	unsigned char *out = xmalloc(s->len + 64), tg[TAG_BUF];
	int ol;

	memset(tg, 0, sizeof(tg));
	if (!enc)
		L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, TAG_MAX, (void *)tag, 0, 0);
	L_update(t, "aad", x, API_UPDATE, enc, NULL, s->aad, TLS12_AAD, 0, &ol);
	L_update(t, "data", x, API_UPDATE, enc, out, in, s->len, 0, &ol);
	L_final(t, "final", x, API_UPDATE, enc);
	tr_log(t, "output", 0, -1, out, s->len, 0);
	if (enc)
		L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tg, TAG_MAX, 0);
	free(out);
}

static void n_tls_record_then_generic(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				      const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key)", x, c, s->key, NULL, 1);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_init(t, "init(iv)", x, NULL, NULL, s->iv, 1);
	n_seal_record(t, x, ref, s, 0, 0);
	/* No new IV: the default provider refuses; reusing the IV is a nonce reuse. */
	n_message(t, x, 1, s, s->pt, NULL);
}

static void n_tls_aad_zero_update(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				  const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key)", x, c, s->key, NULL, 1);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_init(t, "init(iv)", x, NULL, NULL, s->iv, 1);
	n_seal_record(t, x, ref, s, 1, 0);
}

static void n_tls_aad_zero_update_oneshot(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					  const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key)", x, c, s->key, NULL, 1);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_init(t, "init(iv)", x, NULL, NULL, s->iv, 1);
	n_seal_record(t, x, ref, s, 1, 1);
}

static void n_tls_aad_zero_update_no_fixed(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					   const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	n_seal_record(t, x, ref, s, 1, 0);
}

/* A valid TLS 1.2 record for decryption: eiv || AES-GCM(...) || tag. */
static unsigned char *n_open_record(const EVP_CIPHER *ref, const struct nshape *s,
				    unsigned char *hdr)
{
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	unsigned char *rec = xmalloc(rl), iv[12], aadv[TLS12_AAD];

	memcpy(rec, s->junk, TLS_EIV);
	memcpy(iv, s->fixed, TLS_FIXED);
	memcpy(iv + TLS_FIXED, rec, TLS_EIV);
	n_header(hdr, rl);
	memcpy(aadv, hdr, TLS12_AAD);
	put_be16(aadv + 11, s->len);
	if (!ref_seal(ref, s->key, iv, 12, aadv, TLS12_AAD, s->pt, s->len, rec + TLS_EIV,
		      rec + TLS_EIV + s->len, TLS_TAG))
		memset(rec, 0, rl);
	return rec;
}

static void n_set_iv_inv_over_fixed(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				    const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD], inv[12];
	unsigned char *rec = n_open_record(ref, s, hdr);
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	int ol = -7, r;

	memcpy(inv, s->iv2, sizeof(inv));
	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	/* 12 bytes: longer than the invocation field, so it rewrites the fixed part too. */
	L_ctrl(t, "SET_IV_INV(12)", x, EVP_CTRL_GCM_SET_IV_INV, 12, inv, 0, 0);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	r = EVP_CipherUpdate(x, rec, &ol, rec, (int)rl);
	tr_log(t, "record(CipherUpdate)", r, ol, r > 0 ? rec + TLS_EIV : NULL, s->len, 0);
	free(rec);
}

static void n_tls_aad_then_init(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD];

	(void)ref;
	n_header(hdr, TLS_EIV + s->len);
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	L_init(t, "init(iv2)", x, NULL, NULL, s->iv2, 1);
	n_message(t, x, 1, s, s->pt, NULL);
}

static void n_tls_aad_refused_then_message(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					   const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD], tag[TAG_BUF];
	unsigned char *ct = xmalloc(s->len + 64);

	/* A record length field too small for a decryption: the control fails. */
	n_header(hdr, 3);
	if (!ref_seal(ref, s->key, s->iv2, 12, s->aad, TLS12_AAD, s->pt, s->len, ct, tag, TAG_MAX))
		memset(tag, 0, sizeof(tag));
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	L_ctrl(t, "TLS1_AAD(length 3)", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	L_init(t, "init(iv2)", x, NULL, NULL, s->iv2, 0);
	n_message(t, x, 0, s, ct, tag);
	free(ct);
}

static void n_tag_after_tls_aad(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD], tag[TAG_BUF];

	(void)ref;
	memset(tag, 0, sizeof(tag));
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	n_message(t, x, 1, s, s->pt, NULL);
	n_header(hdr, TLS_EIV + 100);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
}

static void n_stale_engine_tag(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			       const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char tag[TAG_BUF];
	OSSL_PARAM p[2];

	(void)ref;
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	n_message(t, x, 1, s, s->pt, NULL);
	memcpy(tag, s->junk, 12);
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, 12);
	p[1] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(tag, 12 bytes)", x, p);
	L_final(t, "final-again", x, API_ENCDEC, 1);
	memset(tag, 0, sizeof(tag));
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
}

static void n_partial_set_params_ivlen(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				       const EVP_CIPHER *ref, const struct nshape *s)
{
	size_t ivlen = 12;
	unsigned char hdr[TLS12_AAD];
	OSSL_PARAM p[3];

	(void)ref;
	n_header(hdr, TLS_EIV); /* too short for a decryption */
	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IVLEN(1)", x, EVP_CTRL_AEAD_SET_IVLEN, 1, NULL, 0, 0);
	/* Applied one by one: the IV length takes, the record AAD then fails. */
	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, hdr, TLS12_AAD);
	p[2] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(ivlen 12, short TLS1_AAD)", x, p);
	log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
}

static void n_taglen_after_engine_record(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					 const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD];
	unsigned char *rec = n_open_record(ref, s, hdr);
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	int ol = -7, r;

	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_ctrl(t, "SET_TAG(13)", x, EVP_CTRL_AEAD_SET_TAG, 13, (void *)s->junk, 0, 0);
	tr_log(t, "get_tag_length", EVP_CIPHER_CTX_get_tag_length(x), -1, NULL, 0, 0);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	r = EVP_CipherUpdate(x, rec, &ol, rec, (int)rl);
	tr_log(t, "record(CipherUpdate)", r, ol, r > 0 ? rec + TLS_EIV : NULL, s->len, 0);
	tr_log(t, "get_tag_length", EVP_CIPHER_CTX_get_tag_length(x), -1, NULL, 0, 0);
	log_size_param(t, "", x, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
	free(rec);
}

static void n_rekey_after_zero_aad(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				   const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char *out = xmalloc(s->len + 64), tag[TAG_BUF], len4[4];
	int r;

	(void)ref;
	memset(tag, 0, sizeof(tag));
	put_be16(len4, 0);
	put_be16(len4 + 2, s->len);
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	r = EVP_Cipher(x, NULL, s->aad, 0);
	tr_log(t, "EVP_Cipher(NULL, aad, 0)", r, -1, NULL, 0, 0);
	L_init(t, "init(key only)", x, NULL, s->junk, NULL, 1);
	r = EVP_Cipher(x, NULL, len4, 4);
	tr_log(t, "EVP_Cipher(NULL, length, 4)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(x, out, s->pt, (unsigned int)s->len);
	tr_log(t, "EVP_Cipher(packet)", r, -1, out, s->len, 0);
	r = EVP_Cipher(x, NULL, NULL, 0);
	tr_log(t, "EVP_Cipher(NULL, NULL, 0)", r, -1, NULL, 0, 0);
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	free(out);
}

/*
 * Found by the fuzzer in CI: a record AAD on a decrypting context, a tag by
 * parameter (it overwrites the AAD the default keeps in its buffer), an
 * encrypting init, a record the default refuses (no fixed IV), the tag read:
 * eip93 answered the record AAD it had given its delegate back.
 */
static void n_tag_over_aad_refused_record(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					  const EVP_CIPHER *ref, const struct nshape *s)
{
	size_t reclen = TLS_EIV + s->len + 16;
	unsigned char hdr[TLS12_AAD], tag[TAG_BUF], *rec = xmalloc(reclen);
	OSSL_PARAM p[2];
	int ol;

	(void)ref;
	memcpy(rec + TLS_EIV, s->pt, s->len);
	memset(rec, 0, TLS_EIV);
	memset(rec + TLS_EIV + s->len, 0, 16);
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	n_header(hdr, reclen);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	memcpy(tag, s->junk, 16);
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16);
	p[1] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(tag)", x, p);
	L_init(t, "init(key,iv,enc)", x, NULL, s->key, s->iv, 1);
	L_update(t, "record(no fixed IV)", x, API_UPDATE, 1, rec, rec, reclen, 0, &ol);
	memset(tag, 0, sizeof(tag));
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	free(rec);
}

static void n_copy_after_empty_update(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				      const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char *out = xmalloc(s->len + 64), tag[TAG_BUF], len4[4];
	EVP_CIPHER_CTX *y = EVP_CIPHER_CTX_new();
	int r;

	(void)ref;
	memset(tag, 0, sizeof(tag));
	put_be16(len4, 0);
	put_be16(len4 + 2, s->len);
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	r = EVP_Cipher(x, NULL, s->aad, TLS12_AAD);
	tr_log(t, "EVP_Cipher(NULL, aad, 13)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(x, out, s->pt, 0);
	tr_log(t, "EVP_Cipher(out, in, 0)", r, -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_CTX_copy", EVP_CIPHER_CTX_copy(y, x), -1, NULL, 0, 0);
	r = EVP_Cipher(y, NULL, len4, 4);
	tr_log(t, "copy: EVP_Cipher(NULL, length, 4)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(y, out, s->pt, (unsigned int)s->len);
	tr_log(t, "copy: EVP_Cipher(packet)", r, -1, out, s->len, 0);
	r = EVP_Cipher(y, NULL, NULL, 0);
	tr_log(t, "copy: EVP_Cipher(NULL, NULL, 0)", r, -1, NULL, 0, 0);
	L_ctrl(t, "copy: GET_TAG", y, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	EVP_CIPHER_CTX_free(y);
	free(out);
}

typedef void n_script_fn(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			 const EVP_CIPHER *ref, const struct nshape *s);

static const struct {
	const char *name;
	n_script_fn *fn;
} n_scripts[] = {
	{ "tls-record-then-generic", n_tls_record_then_generic },
	{ "tls-aad-zero-update", n_tls_aad_zero_update },
	{ "tls-aad-zero-update-oneshot", n_tls_aad_zero_update_oneshot },
	{ "tls-aad-zero-update-no-fixed-iv", n_tls_aad_zero_update_no_fixed },
	{ "set-iv-inv-over-fixed", n_set_iv_inv_over_fixed },
	{ "tls-aad-then-init", n_tls_aad_then_init },
	{ "tls-aad-refused-then-message", n_tls_aad_refused_then_message },
	{ "tag-after-tls-aad", n_tag_after_tls_aad },
	{ "stale-engine-tag", n_stale_engine_tag },
	{ "partial-set-params-ivlen", n_partial_set_params_ivlen },
	{ "taglen-after-engine-record", n_taglen_after_engine_record },
	{ "rekey-after-zero-aad", n_rekey_after_zero_aad },
	{ "copy-after-empty-update", n_copy_after_empty_update },
	{ "tag-over-aad-refused-record", n_tag_over_aad_refused_record },
};
#define N_SCRIPTS (sizeof(n_scripts) / sizeof(n_scripts[0]))

static int n_find(const char *name)
{
	for (size_t i = 0; i < N_SCRIPTS; i++)
		if (strcmp(n_scripts[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Case no of script idx: both implementations, transcripts compared. */
static void case_named(struct harness *h, int idx, struct rng *r)
{
	struct nshape s;
	EVP_CIPHER_CTX *x;

	memset(&s, 0, sizeof(s));
	s.kidx = (int)rng_below(r, 3);
	rng_fill(r, s.key, sizeof(s.key));
	rng_fill(r, s.iv, sizeof(s.iv));
	rng_fill(r, s.iv2, sizeof(s.iv2));
	rng_fill(r, s.fixed, sizeof(s.fixed));
	rng_fill(r, s.junk, sizeof(s.junk));
	rng_fill(r, s.aad, sizeof(s.aad));
	s.len = rng_range(r, ENGINE_MIN, 16384); /* engine window, and a TLS record */
	s.pt = xmalloc(s.len + 64);
	rng_fill(r, s.pt, s.len);
	shape_add(h, "script %s, %s, %zu bytes", n_scripts[idx].name, cipher_names[s.kidx], s.len);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	x = EVP_CIPHER_CTX_new();
	n_scripts[idx].fn(&h->ta, x, h->test.c[s.kidx], h->ref.c[s.kidx], &s);
	EVP_CIPHER_CTX_free(x);
	x = EVP_CIPHER_CTX_new();
	n_scripts[idx].fn(&h->tb, x, h->ref.c[s.kidx], h->ref.c[s.kidx], &s);
	EVP_CIPHER_CTX_free(x);
	compare_tr(h, n_scripts[idx].name, &h->ta, h->test.label, &h->tb, h->ref.label);
	free(s.pt);
}

/* ------------------------------------------------------------------ */
/* Case dispatch                                                        */
/* ------------------------------------------------------------------ */

/* Cases 0..N_FORCED-1 are fixed so every run covers the same ground. */
#define N_FORCED (3 + 2 * N_BOUND + 2 + 2)

static void run_case(struct harness *h, unsigned long no)
{
	struct rng r;
	enum ctype type;
	unsigned long long bytes0;
	double t0;

	rng_seed(&r, h->seed, no);
	h->caseno = no;
	h->shape[0] = '\0';
	h->shape_len = 0;
	h->case_failed = 0;
	h->case_msgs = 0;
	if (h->script != -1) {
		/* --script: every case runs a named script (all of them in turn for "all") */
		type = CT_NAMED;
		h->ctype = type;
		h->st.per_type[type]++;
		case_named(h, h->script >= 0 ? h->script : (int)(no % N_SCRIPTS), &r);
		ERR_clear_error();
		if (h->case_failed)
			h->failed++;
		else
			h->passed++;
		if (h->verbose)
			printf("case %lu named %s: %s\n", no, h->case_failed ? "FAIL" : "ok",
			       h->shape);
		return;
	}
	if (no < 3) {
		type = CT_STATIC;
	} else if (no < 3 + 2 * N_BOUND) {
		type = CT_GENERIC;
	} else if (no < 3 + 2 * N_BOUND + 2) {
		type = CT_TLS12;
	} else if (no < N_FORCED) {
		type = CT_TLS13;
	} else {
		size_t total = 0, pick;

		for (int i = 0; i < CT_N; i++)
			total += ctype_weight[i];
		pick = rng_below(&r, total);
		type = CT_GENERIC;
		for (int i = 0; i < CT_N; i++) {
			if (pick < ctype_weight[i]) {
				type = (enum ctype)i;
				break;
			}
			pick -= ctype_weight[i];
		}
	}
	h->ctype = type;
	h->st.per_type[type]++;
	t0 = now_seconds();
	bytes0 = h->st.bytes;
	switch (type) {
	case CT_STATIC:
		case_static(h, (int)no);
		break;
	case CT_GENERIC:
		if (no < 3 + 2 * N_BOUND) {
			struct gforce f;

			f.len = boundaries[(no - 3) / 2];
			f.engine = (no - 3) % 2 == 0;
			case_generic(h, &r, &f);
		} else {
			case_generic(h, &r, NULL);
		}
		break;
	case CT_REINIT:
		case_reinit(h, &r);
		break;
	case CT_ERRORS:
		case_errors(h, &r);
		break;
	case CT_IVGEN:
		case_ivgen(h, &r);
		break;
	case CT_TLS12:
		case_tls12(h, &r, no < N_FORCED ? (int)(no - 3 - 2 * N_BOUND) : -1);
		break;
	case CT_TLS13:
	default:
		case_tls13(h, &r, no < N_FORCED ? (int)(no - 3 - 2 * N_BOUND - 2) : -1);
		break;
	}
	ERR_clear_error();
	h->st.secs_by_type[type] += now_seconds() - t0;
	h->st.bytes_by_type[type] += h->st.bytes - bytes0;
	if (h->case_failed)
		h->failed++;
	else
		h->passed++;
	if (h->verbose)
		printf("case %lu %s %s: %s\n", no, ctype_names[type],
		       h->case_failed ? "FAIL" : "ok", h->shape);
}

/* ------------------------------------------------------------------ */
/* Provider status                                                      */
/* ------------------------------------------------------------------ */

static int read_utf8_param(OSSL_PROVIDER *p, const char *name, char *out, size_t outlen)
{
	char *ptr = NULL;
	OSSL_PARAM q[2];

	out[0] = '\0';
	q[0] = OSSL_PARAM_construct_utf8_ptr(name, &ptr, 0);
	q[1] = OSSL_PARAM_construct_end();
	if (OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]) && ptr != NULL) {
		snprintf(out, outlen, "%s", ptr);
		return 1;
	}
	ERR_clear_error();
	q[0] = OSSL_PARAM_construct_utf8_string(name, out, outlen);
	if (OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]))
		return 1;
	ERR_clear_error();
	out[0] = '\0';
	return 0;
}

struct counters {
	int ok[N_COUNTERS];
	uint64_t v[N_COUNTERS];
};

static void read_counters(OSSL_PROVIDER *p, struct counters *c)
{
	for (size_t i = 0; i < N_COUNTERS; i++) {
		OSSL_PARAM q[2];

		c->v[i] = 0;
		q[0] = OSSL_PARAM_construct_uint64(counter_names[i], &c->v[i]);
		q[1] = OSSL_PARAM_construct_end();
		c->ok[i] = OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]);
		ERR_clear_error();
	}
}

static void print_counters(const char *when, const struct counters *c,
			   const struct counters *before)
{
	printf("eip93 counters %s:", when);
	for (size_t i = 0; i < N_COUNTERS; i++) {
		if (!c->ok[i])
			printf(" %s=n/a", counter_names[i]);
		else if (before != NULL && before->ok[i])
			printf(" %s=%" PRIu64 " (+%" PRIu64 ")", counter_names[i], c->v[i],
			       c->v[i] - before->v[i]);
		else
			printf(" %s=%" PRIu64, counter_names[i], c->v[i]);
	}
	printf("\n");
}

/* ------------------------------------------------------------------ */
/* Main                                                                 */
/* ------------------------------------------------------------------ */

/*
 * Review defect (issue 11): a provider section under another name, e.g.
 * [hw] module = eip93.so, fallback-properties = provider=eip93, makes the
 * module load itself as its own software delegate.  It must refuse any
 * fallback that resolves to this module, whatever its name: then P offers
 * no cipher and its gate says why.  Returns 0 when refused.
 */
static int alias_check(OSSL_LIB_CTX *lib, const char *name)
{
	OSSL_PROVIDER *p = OSSL_PROVIDER_load(lib, name);
	EVP_CIPHER *c;
	char gate[512], props[96];
	int rc;

	if (p == NULL) {
		printf("FAIL: provider %s is not configured (--config?)\n", name);
		ERR_print_errors_fp(stdout);
		return 1;
	}
	if (!read_utf8_param(p, "eip93-gate", gate, sizeof(gate)))
		snprintf(gate, sizeof(gate), "(no eip93-gate: not the eip93 module?)");
	printf("provider %s gate: %s\n", name, gate);
	/* eip93 names its algorithms provider=eip93 whatever its section is called. */
	snprintf(props, sizeof(props), "provider=eip93");
	c = EVP_CIPHER_fetch(lib, "AES-128-GCM", props);
	if (c != NULL && strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)), name) == 0) {
		printf("FAIL: provider %s (the eip93 module) offers AES-128-GCM although its "
		       "fallback-properties resolve to the eip93 module itself\n",
		       name);
		rc = 1;
	} else {
		printf("ok: provider %s refuses a fallback that resolves to its own module\n",
		       name);
		rc = 0;
	}
	EVP_CIPHER_free(c);
	ERR_clear_error();
	OSSL_PROVIDER_unload(p);
	printf("%d passed, %d failed\n", !rc, rc);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: eip93-diff [--self-check] [--seed N] [--cases N] "
		"[--case N]\n"
		"                  [--config FILE] [--kernel-alg NAME] "
		"[--require-engine]\n"
		"                  [--no-kernel]"
		"                  [--verbose]\n"
		"\n"
		"  Compares the eip93 provider's AES-GCM (provider=eip93, found "
		"through\n"
		"  OPENSSL_MODULES) with the default provider's, and with the "
		"kernel's\n"
		"  gcm(aes) through libkcapi, over random shapes.\n"
		"\n"
		"  --self-check      default vs default (no eip93 needed); kernel\n"
		"                    comparisons are skipped only where "
		"socket(AF_ALG)\n"
		"                    fails with EAFNOSUPPORT\n"
		"  --seed N          PRNG seed (default: from the clock; always "
		"printed)\n"
		"  --cases N         number of cases (default %lu; the first %lu "
		"are fixed)\n"
		"  --case N          run only case N (replay a failure with its "
		"seed)\n"
		"  --config FILE     load FILE into the test's library context\n"
		"  --kernel-alg NAME kernel AEAD to compare with (default "
		"gcm(aes); e.g.\n"
		"                    gcm_base(ctr(aes-generic),ghash-generic) to "
		"avoid the\n"
		"                    driver under test)\n"
		"  --require-engine  fail if the engine counter did not move\n"
		"  --no-kernel       no comparisons with the kernel (host runs "
		"with the\n"
		"                    fake engine: EIP93_TEST_ENGINE=fake)\n"
		"  --alias-check P   with --config: provider P is eip93 loaded under\n"
		"                    another name whose fallback-properties names\n"
		"                    eip93; pass if P refuses to be its own delegate\n"
		"  --script NAME     run only the named regression script (issue 11),\n"
		"                    --cases times (default 20 per script); 'all' runs\n"
		"                    each in turn, 'list' prints the names\n"
		"  --verbose         one line per case\n",
		DEFAULT_CASES, (unsigned long)N_FORCED);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end = NULL;
	unsigned long long v;

	if (s == NULL || *s == '\0' || *s == '-')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == NULL || *end != '\0')
		return 0;
	*out = (uint64_t)v;
	return 1;
}

static int setup_fail(struct harness *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A failure before any case could run: say why, close like a test run. */
static int setup_fail(struct harness *h, const char *fmt, ...)
{
	va_list ap;

	(void)h;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	ERR_print_errors_fp(stdout);
	printf("0 passed, 1 failed\n");
	fflush(stdout);
	return 1;
}

/* Returns 1 if the kernel comparisons can run, 0 if skipped, -1 on error. */
static int probe_kernel(struct harness *h)
{
	struct kcapi_handle *kh = NULL;
	int fd, rc;

	if (h->no_kernel) {
		printf("kernel comparisons: off (--no-kernel: on the host the engine "
		       "is the user-space fake)\n");
		return 0;
	}
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int err = errno;

		if (err == EAFNOSUPPORT && h->self_check) {
			printf("kernel comparisons: SKIPPED: socket(AF_ALG) fails with "
			       "EAFNOSUPPORT (this kernel has no AF_ALG); run inside the "
			       "test guest to compare with gcm(aes)\n");
			return 0;
		}
		printf("FAIL: socket(AF_ALG): %s\n", strerror(err));
		return -1;
	}
	close(fd);
	rc = kcapi_aead_init(&kh, h->kernel_alg, 0);
	if (rc < 0) {
		printf("FAIL: kernel %s through libkcapi: %d (%s)%s\n", h->kernel_alg, rc,
		       strerror(-rc),
		       rc == -EPROTONOSUPPORT ? ": libkcapi needs NETLINK_CRYPTO (load crypto_user)"
					      : "");
		return -1;
	}
	kcapi_aead_destroy(kh);
	printf("kernel comparisons: on (AF_ALG aead %s through libkcapi; "
	       "12-byte IV, tags 4/8/12..16, up to %zu bytes in)\n",
	       h->kernel_alg, kc_limit());
	return 1;
}

static void print_summary(const struct harness *h, double secs)
{
	const struct stats *st = &h->st;
	unsigned long covered = 0;

	printf("case mix (cases, payload KiB through the tested side, seconds):");
	for (int i = 0; i < CT_N; i++)
		printf(" %s=%lu/%llu/%.2f", ctype_names[i], st->per_type[i],
		       st->bytes_by_type[i] / 1024, st->secs_by_type[i]);
	printf("\n");
	printf("messages through %s: %lu (%llu payload bytes), %lu in the "
	       "engine window (12-byte IV, 16-byte tag, %d..%d bytes, AAD <= %d);"
	       " TLS 1.2 records %lu, TLS 1.3 records %lu; corrupted %lu; "
	       "context copies %lu\n",
	       h->test.label, st->messages, st->bytes, st->engine_shaped, ENGINE_MIN, ENGINE_MAX,
	       ENGINE_AAD_MAX, st->tls12_records, st->tls13_records, st->corrupted, st->copies);
	if (h->kernel)
		printf("kernel comparisons: %lu encryptions, %lu decryptions, %lu "
		       "shapes the kernel does not take\n",
		       st->kc_enc, st->kc_dec, st->kc_skipped);
	printf("boundary sizes (generic messages):");
	for (size_t i = 0; i < N_BOUND; i++) {
		printf(" %zu:%lu", boundaries[i], st->bound_hits[i]);
		covered += st->bound_hits[i] != 0;
	}
	printf(" (%lu of %zu covered)\n", covered, (size_t)N_BOUND);
	printf("elapsed: %.2f s\n", secs);
}

int main(int argc, char **argv)
{
	struct harness *h = calloc(1, sizeof(*h));
	const char *config = NULL, *alias = NULL;
	uint64_t ncases = DEFAULT_CASES, only = 0, v;
	int have_only = 0, have_seed = 0, have_cases = 0, rc = 1;
	unsigned long expected, ran;
	struct counters before = { 0 }, after = { 0 };
	char gate[512], info[256];
	double t0;

	if (h == NULL)
		return 2;
	h->kernel_alg = "gcm(aes)";
	h->script = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--self-check") == 0) {
			h->self_check = 1;
		} else if (strcmp(a, "--verbose") == 0) {
			h->verbose = 1;
		} else if (strcmp(a, "--script") == 0 && i + 1 < argc) {
			const char *nm = argv[++i];

			if (strcmp(nm, "list") == 0) {
				for (size_t k = 0; k < N_SCRIPTS; k++)
					printf("%s\n", n_scripts[k].name);
				free(h);
				return 0;
			}
			h->script = strcmp(nm, "all") == 0 ? -2 : n_find(nm);
			if (h->script == -1) {
				fprintf(stderr, "eip93-diff: no script '%s' (--script list)\n", nm);
				free(h);
				return 2;
			}
			if (!have_cases)
				ncases = 20 * (h->script == -2 ? N_SCRIPTS : 1);
		} else if (strcmp(a, "--alias-check") == 0 && i + 1 < argc) {
			alias = argv[++i];
		} else if (strcmp(a, "--no-kernel") == 0) {
			h->no_kernel = 1;
		} else if (strcmp(a, "--require-engine") == 0) {
			h->require_engine = 1;
		} else if (strcmp(a, "--seed") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
			h->seed = v;
			have_seed = 1;
			i++;
		} else if (strcmp(a, "--cases") == 0 && i + 1 < argc &&
			   parse_u64(argv[i + 1], &v) && v > 0) {
			ncases = v;
			have_cases = 1;
			i++;
		} else if (strcmp(a, "--case") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
			only = v;
			have_only = 1;
			i++;
		} else if (strcmp(a, "--config") == 0 && i + 1 < argc) {
			config = argv[++i];
		} else if (strcmp(a, "--kernel-alg") == 0 && i + 1 < argc) {
			h->kernel_alg = argv[++i];
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			free(h);
			return 0;
		} else {
			fprintf(stderr, "eip93-diff: bad argument '%s'\n", a);
			usage(stderr);
			free(h);
			return 2;
		}
	}
	if (!have_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		h->seed = ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^
			  ((uint64_t)getpid() << 40);
	}
	printf("eip93-diff: seed %" PRIu64 "%s\n", h->seed,
	       h->self_check ? " (self-check: default vs default)" : "");
	printf("libcrypto: %s\n", OpenSSL_version(OPENSSL_VERSION));
	fflush(stdout);

	h->test.label = h->self_check ? "default(test)" : "eip93";
	h->test.props = h->self_check ? "provider=default" : "provider=eip93";
	h->ref.label = "default";
	h->ref.props = "provider=default";
	h->lib = OSSL_LIB_CTX_new();
	if (h->lib == NULL) {
		rc = setup_fail(h, "OSSL_LIB_CTX_new");
		goto out;
	}
	if (config != NULL && !OSSL_LIB_CTX_load_config(h->lib, config)) {
		rc = setup_fail(h, "cannot load config %s", config);
		goto out;
	}
	if (alias != NULL) {
		rc = alias_check(h->lib, alias);
		goto out;
	}
	if (!h->self_check) {
		const char *mods = getenv("OPENSSL_MODULES");

		h->prov_test = OSSL_PROVIDER_load(h->lib, "eip93");
		if (h->prov_test == NULL) {
			rc = setup_fail(h, "cannot load provider eip93 (OPENSSL_MODULES=%s)",
					mods != NULL ? mods : "(unset)");
			goto out;
		}
	}
	h->prov_default = OSSL_PROVIDER_load(h->lib, "default");
	if (h->prov_default == NULL) {
		rc = setup_fail(h, "cannot load the default provider");
		goto out;
	}
	if (!h->self_check) {
		static const char *const std_params[] = { OSSL_PROV_PARAM_NAME,
							  OSSL_PROV_PARAM_VERSION,
							  OSSL_PROV_PARAM_BUILDINFO };

		for (size_t i = 0; i < sizeof(std_params) / sizeof(std_params[0]); i++)
			if (read_utf8_param(h->prov_test, std_params[i], info, sizeof(info)))
				printf("eip93 %s: %s\n", std_params[i], info);
		if (!read_utf8_param(h->prov_test, "eip93-gate", gate, sizeof(gate))) {
			rc = setup_fail(h, "provider eip93 does not report eip93-gate");
			goto out;
		}
		printf("eip93 gate: %s\n", gate);
		if (strncmp(gate, "enabled:", 8) != 0) {
			rc = setup_fail(h, "eip93 gate is not open: '%s'", gate);
			goto out;
		}
	}
	for (int k = 0; k < 3; k++) {
		h->test.c[k] = EVP_CIPHER_fetch(h->lib, cipher_names[k], h->test.props);
		h->ref.c[k] = EVP_CIPHER_fetch(h->lib, cipher_names[k], h->ref.props);
		if (h->test.c[k] == NULL) {
			rc = setup_fail(h, "cannot fetch %s with %s", cipher_names[k],
					h->test.props);
			goto out;
		}
		if (h->ref.c[k] == NULL) {
			rc = setup_fail(h, "cannot fetch %s with %s", cipher_names[k],
					h->ref.props);
			goto out;
		}
		if (!h->self_check &&
		    strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(h->test.c[k])),
			   "eip93") != 0) {
			rc = setup_fail(
				h, "%s fetched with %s comes from provider %s", cipher_names[k],
				h->test.props,
				OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(h->test.c[k])));
			goto out;
		}
	}
	switch (probe_kernel(h)) {
	case 1:
		h->kernel = 1;
		break;
	case 0:
		h->kernel = 0;
		break;
	default:
		printf("0 passed, 1 failed\n");
		rc = 1;
		goto out;
	}
	if (!h->self_check) {
		read_counters(h->prov_test, &before);
		print_counters("before", &before, NULL);
	}
	fflush(stdout);

	t0 = now_seconds();
	if (have_only) {
		expected = 1;
		run_case(h, (unsigned long)only);
	} else {
		expected = (unsigned long)ncases;
		for (unsigned long i = 0; i < expected; i++)
			run_case(h, i);
	}
	ran = h->passed + h->failed;

	print_summary(h, now_seconds() - t0);
	if (!h->self_check) {
		read_counters(h->prov_test, &after);
		print_counters("after", &after, &before);
		if (after.ok[0] && before.ok[0] && after.v[0] == before.v[0] && !have_only) {
			if (h->require_engine) {
				printf("FAIL: eip93-engine-messages did not move: the engine "
				       "path was not exercised\n");
				h->failed++;
			} else {
				printf("WARNING: eip93-engine-messages did not move: the "
				       "engine path was not exercised\n");
			}
		}
	}
	if (ran < expected) {
		printf("FAIL: only %lu of %lu cases ran\n", ran, expected);
		h->failed++;
	}
	printf("%lu passed, %lu failed\n", h->passed, h->failed);
	rc = h->failed != 0 || ran < expected;

out:
	fflush(stdout);
	for (int k = 0; k < 3; k++) {
		EVP_CIPHER_free(h->test.c[k]);
		EVP_CIPHER_free(h->ref.c[k]);
	}
	OSSL_PROVIDER_unload(h->prov_test);
	OSSL_PROVIDER_unload(h->prov_default);
	OSSL_LIB_CTX_free(h->lib);
	tr_free(&h->ta);
	tr_free(&h->tb);
	tr_free(&h->tc);
	free(h);
	return rc;
}
