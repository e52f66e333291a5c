// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-diff's private declarations: limits, the state of the harness
 * and of a transcript, the PRNG, and what each file offers the others.
 *
 * Files: util.c (allocation, byte order, clock, PRNG), trace.c
 * (transcripts, logged EVP calls), harness.c (reporting, kernel checks),
 * pick.c (shape pickers), one file per case type (generic.c, static.c,
 * reinit.c, errors.c, tls12.c with ivgen, tls13.c, named.c and
 * named_regress.c), status.c
 * (provider parameters, alias check, kernel probe) and eip93_diff.c (case
 * dispatch, options, summary, main).
 */
#ifndef EIP93_DIFF_H
#define EIP93_DIFF_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/types.h>

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

extern const char *const cipher_names[3];
extern const size_t key_lens[3];

/* Sizes every default run must contain (generic messages, forced cases). */
static const size_t boundaries[] = { 0,	   1,	  15,	 16,	17,    4095, 4096,
				     4097, 16384, 32767, 32768, 32769, 65536 };
#define N_BOUND (sizeof(boundaries) / sizeof(boundaries[0]))

struct rng {
	uint64_t s[4];
};

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

extern const char *const ctype_names[CT_N];

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
	int require_no_faults; /* fail if eip93-engine-faults moved */
	int no_kernel;	       /* --no-kernel: no comparisons with the kernel */
	int script;	       /* --script: index of a named script, -2 all, -1 none */
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

enum api { API_UPDATE, API_ENCDEC, API_CIPHER, API_N };
extern const char *const api_names[API_N];

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

struct gforce {
	size_t len;
	int engine; /* the engine's shape: 12-byte IV, 16-byte tag, one shot */
};

enum rcorrupt { RC_NONE, RC_EIV, RC_CT, RC_TAG, RC_HDR, RC_N };
extern const char *const rcorrupt_names[RC_N];

/* One record of a record case (tls12.c, tls13.c). */
struct rec {
	int dir;			/* 0: peer 1 sends, 1: peer 2 sends */
	size_t len;			/* payload; TLS 1.3: inner plaintext, content + type byte */
	int send_oneshot, recv_oneshot; /* TLS 1.2: EVP_Cipher instead of CipherUpdate */
	enum rcorrupt corrupt;		/* TLS 1.3: RC_CT, RC_TAG or RC_HDR */
	size_t at;
	unsigned char x;
};

/* What every named script gets: drawn per case from the seed (named.c case_named). */
struct nshape {
	int kidx;
	unsigned char key[32], iv[12], iv2[12], fixed[12], junk[16];
	unsigned char aad[TLS12_AAD];
	size_t len;
	unsigned char *pt; /* len + 64 bytes */
};
typedef void n_script_fn(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			 const EVP_CIPHER *ref, const struct nshape *s);

struct n_script {
	const char *name;
	n_script_fn *fn;
};
extern const struct n_script n_scripts[];
extern const size_t n_scripts_count;
#define N_SCRIPTS n_scripts_count

/* util.c */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void copy_bytes(void *dst, const void *src, size_t n);
void *xmemdup(const void *src, size_t n);
void put_be16(unsigned char *p, size_t v);
uint64_t get_be64(const unsigned char *p);
void seq_inc(unsigned char *seq);
double now_seconds(void);
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
size_t rng_below(struct rng *r, size_t n);
size_t rng_range(struct rng *r, size_t lo, size_t hi);
int rng_pct(struct rng *r, unsigned int pct);
void rng_fill(struct rng *r, unsigned char *p, size_t n);
unsigned char rng_nonzero_byte(struct rng *r);

/* trace.c */
void tr_reset(struct tr *t);
void tr_free(struct tr *t);
void tr_log(struct tr *t, const char *what, long long ret, long long len, const void *bytes,
	    size_t n, int untrusted);
int tr_compare(const struct tr *a, const struct tr *b, const char *la, const char *lb, char *msg,
	       size_t msglen);
int L_init(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
	   const unsigned char *key, const unsigned char *iv, int enc);
int L_ctrl(struct tr *t, const char *what, EVP_CIPHER_CTX *x, int type, int arg, void *ptr,
	   size_t nout, int untrusted);
int L_set_params(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const OSSL_PARAM *p);
int L_update(struct tr *t, const char *what, EVP_CIPHER_CTX *x, enum api api, int enc,
	     unsigned char *out, const unsigned char *in, size_t inl, int untrusted, int *outl);
int L_final(struct tr *t, const char *what, EVP_CIPHER_CTX *x, enum api api, int enc);
void log_size_param(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const char *name);
void log_octet_param(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const char *name,
		     size_t bufsize);
void log_iv_generated(struct tr *t, EVP_CIPHER_CTX *x, const char *pfx);
void query_params(struct tr *t, EVP_CIPHER_CTX *x, const char *pfx);
int msg_run(struct tr *t, EVP_CIPHER_CTX *x, int enc, const struct msg *m, const char *pfx);
int ref_seal(const EVP_CIPHER *c, const unsigned char *key, const unsigned char *iv, size_t ivlen,
	     const unsigned char *aad, size_t aadlen, const unsigned char *pt, size_t len,
	     unsigned char *ct, unsigned char *tag, size_t taglen);

/* harness.c */
void shape_add(struct harness *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void shape_hex(struct harness *h, const unsigned char *p, size_t n);
/* shape_pair: NAME, then the two peers' N-byte values in hex, comma-separated. */
void shape_pair(struct harness *h, const char *name, const unsigned char *a, const unsigned char *b,
		size_t n);
/*
 * A record case (tls12.c, tls13.c): records_fn runs shape s's records between
 * peer 1 (ca) and peer 2 (cb) into t; records_compare runs them with the test
 * side as peer 1, then with both on the reference (its statistics not
 * counted), compares the traces and frees the nrec payloads and garbage.
 */
typedef void (*records_fn)(struct harness *h, const void *s, const EVP_CIPHER *ca,
			   const EVP_CIPHER *cb, unsigned char *const *payload,
			   unsigned char *const *garbage, struct tr *t, int verify);
void records_compare(struct harness *h, const char *what, records_fn run, const void *s, int kidx,
		     unsigned char **payload, unsigned char **garbage, int nrec);
void failf(struct harness *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void compare_tr(struct harness *h, const char *what, const struct tr *x, const char *lx,
		const struct tr *y, const char *ly);
void count_message(struct harness *h, size_t ivlen, size_t taglen, size_t aadlen, size_t len,
		   int overlap);
size_t kc_limit(void);
void kc_check_enc(struct harness *h, const char *what, int kidx, const unsigned char *key,
		  const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		  const unsigned char *pt, size_t len, const unsigned char *ct,
		  const unsigned char *tag, size_t taglen);
void kc_check_dec(struct harness *h, const char *what, int kidx, const unsigned char *key,
		  const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		  const unsigned char *ct, size_t len, const unsigned char *tag, size_t taglen,
		  int ossl_ok, const unsigned char *ossl_pt);

/* pick.c */
size_t pick_data_len(struct rng *r);
size_t pick_ivlen(struct rng *r);
size_t pick_taglen(struct rng *r);
size_t pick_aadlen(struct rng *r);
int split_len(struct rng *r, size_t total, size_t *chunks);
void shape_chunks(struct harness *h, const size_t *c, int n);
size_t pick_msg_len(struct rng *r);
size_t pick_tls_len(struct rng *r);

/* generic.c */
void case_generic(struct harness *h, struct rng *r, const struct gforce *f);

/* static.c */
void case_static(struct harness *h, int kidx);

/* reinit.c */
void case_reinit(struct harness *h, struct rng *r);

/* errors.c */
void case_errors(struct harness *h, struct rng *r);

/* tls12.c */
void case_ivgen(struct harness *h, struct rng *r);
void case_tls12(struct harness *h, struct rng *r, int forced);

/* tls13.c */
void case_tls13(struct harness *h, struct rng *r, int forced);

/* named.c */
int n_find(const char *name);
void case_named(struct harness *h, int idx, struct rng *r);
void n_header(unsigned char *hdr, size_t lenfield);
void n_message(struct tr *t, EVP_CIPHER_CTX *x, int enc, const struct nshape *s,
	       const unsigned char *in, const unsigned char *tag);
unsigned char *n_open_record(const EVP_CIPHER *ref, const struct nshape *s, unsigned char *hdr);

/* named_regress.c: the scripts of the later regress/ cases (listed in named.c's table) */
n_script_fn n_tag_after_tls_aad_record, n_rekey_after_iv_gen, n_iv_gen_short_iv, n_record_short_iv,
	n_owed_tag_short_iv_gen, n_tls_aad_after_refused_tag, n_iv_gen_after_refused_tag;

/* status.c */
int read_utf8_param(OSSL_PROVIDER *p, const char *name, char *out, size_t outlen);
int alias_check(OSSL_LIB_CTX *lib, const char *name);
int probe_kernel(struct harness *h);

#endif
