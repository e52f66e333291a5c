// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench's private header (the program is described in eip93_bench.c):
 * its constants, the state its files share, the record, raw-loop and
 * measurement types, and the functions one file offers the others.
 */
#ifndef EIP93_BENCH_H
#define EIP93_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <linux/if_alg.h>

#include <openssl/evp.h>
#include <openssl/modes.h>
#include <openssl/provider.h>

#include "../../alg/gcm/route.h"
#include "../guest/sim.h"

#define TLS13_AAD 5
#define TLS12_AAD 13
#define TLS12_FIXED 4
#define TLS12_EXPLICIT 8
#define MAX_PAYLOAD 32768
#define MAX_ROUNDS 64
#define NCONT 5

#define ENGINE_TARGET 0.97
#define DELEGATE_TARGET 0.98
#define MEMORY_TARGET 1024

#define BD_ROUNDS 9

/* ---- memory.c: the counting allocator (and section 3) ------------------- */

void *count_malloc(size_t n, const char *file, int line);
void count_free(void *p, const char *file, int line);
void *count_realloc(void *p, size_t n, const char *file, int line);

/* ---- the clock; syscalls.c: the syscalls the provider makes, seen from here */

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

extern int sys_timing; /* time every AF_ALG syscall into sys_time */
extern int sys_fake;   /* sendmsg/readv succeed without entering the kernel */
extern int sys_count;  /* count AF_ALG reads and ioctls too (section 7's syscall pass) */
extern double sys_time;
extern long sys_calls;

/* ---- eip93_bench.c: setup ------------------------------------------------ */

struct bench {
	OSSL_PROVIDER *eip93, *dflt;
	EVP_CIPHER *c_eip93, *c_dflt;
	OSSL_LIB_CTX *lib_nv; /* a second eip93 instance, integrity check off */
	OSSL_PROVIDER *eip93_nv, *dflt_nv;
	EVP_CIPHER *c_eip93_nv;
	char kalg[128];
	unsigned char key[32];
	size_t keylen;
	int rounds;
	double batch_s;
	long fixed_iters;     /* smoke: this many messages per batch, no calibration */
	const char *sections; /* --sections: the sections to run (NULL: all) */
	int failures;
};

extern struct bench B;

void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fill(unsigned char *p, size_t n, unsigned int seed);
uint64_t prov_counter(const char *name);

/* ---- raw.c: the raw AF_ALG loop -------------------------------------------- */

struct raw {
	int tfm, op;
	int enc;
	int ctr;		   /* ctr(aes-eip93): an skcipher request and GHASH in libcrypto */
	EVP_CIPHER_CTX *ecb;	   /* ctr: the key's AES, */
	struct eip93_gcm_route rt; /* libcrypto's GCM128 over it (alg/gcm/route.c) */
	unsigned char ctrblk[16];  /* ctr: the counter block IV || 2 */
	size_t aadlen, len;
	unsigned char *in;  /* aad || payload (|| tag) */
	unsigned char *out; /* aad echo || payload (|| tag) */
	size_t inlen, outlen;
	const unsigned char *pristine; /* decrypt: payload || tag to restore */
	unsigned char *ivp;	       /* the IV inside the control message */
	unsigned char nonce[IVLEN];
	uint64_t seq;
	struct msghdr msg;
	struct iovec iov;
	/* The provider's layout (raw_split_op): separate AAD, tag and AAD-echo buffers. */
	struct msghdr split_msg;
	struct iovec split_in[3], split_out[3];
	int split_nout;
	unsigned char split_aad[TLS12_AAD], split_echo[TLS12_AAD], split_tag[TAGLEN];
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16) +
			 CMSG_SPACE(sizeof(uint32_t))];
		struct cmsghdr align;
	} cbuf;
};

void raw_close(struct raw *r);
int raw_open(struct raw *r, int enc, const unsigned char *aad, size_t aadlen, size_t len,
	     const unsigned char *nonce, const unsigned char *pristine);
int raw_prep(void *vr);
int raw_op(void *vr);
int raw_split_op(void *vr);

/* ---- cdev_raw.c: the raw /dev/crypto loops (section 7) ------------------ */

struct cdraw {
	int fd;
	uint32_t ses;
	int have_ses;
	int enc, ctr, async;
	int async_err;	     /* async: the errno of a failed request (not a bench failure) */
	EVP_CIPHER_CTX *ecb; /* ctr: the key's AES and GCM128 over it */
	struct eip93_gcm_route rt;
	size_t len;
	unsigned char *in;  /* aad || payload || tag (decrypt) */
	unsigned char *out; /* payload || tag */
	const unsigned char *pristine;
	unsigned char nonce[IVLEN], cur[IVLEN];
	uint64_t seq;
};

void cdraw_close(struct cdraw *r);
int cdraw_open(struct cdraw *r, int enc, int async, size_t len, const unsigned char *ref);
int cdraw_prep(void *vr);
int cdraw_op(void *vr);
int cdraw_async_works(struct cdraw *r);

/* ---- records.c: the TLS record shapes through EVP -------------------------- */

/* Per EVP call of a record; PH_SYS is the AF_ALG syscall time inside the data update. */
enum { PH_INIT, PH_SETTAG, PH_AAD, PH_DATA, PH_FINAL, PH_GETTAG, PH_SYS, PH_N };

struct phases {
	double (*v)[PH_N]; /* per message, seconds */
	long n, cap;
};

struct evp13 {
	struct phases *ph; /* time each call into it, or NULL */
	EVP_CIPHER_CTX *ctx;
	int enc;
	size_t len;
	unsigned char *buf;
	const unsigned char *pristine; /* decrypt: payload || tag */
	unsigned char nonce[IVLEN], cur[IVLEN];
	unsigned char aad[TLS13_AAD];
	unsigned char tag[TAGLEN];
	uint64_t seq;
};

struct evp12 {
	EVP_CIPHER_CTX *ctx;
	int enc;
	size_t len;		       /* payload */
	unsigned char *rec;	       /* explicit IV || payload || tag */
	const unsigned char *pristine; /* decrypt: a whole record */
	unsigned char aad[TLS12_AAD];
};

struct copy {
	const unsigned char *src;
	size_t len;
	int cleanse;
};

extern const unsigned char base_nonce[IVLEN];
extern const unsigned char tls12_fixed[TLS12_FIXED];
extern const unsigned char tls13_aad[TLS13_AAD];

void nonce_for(unsigned char *out, const unsigned char *base, uint64_t seq);
void evp13_close(struct evp13 *e);
int evp13_open(struct evp13 *e, const EVP_CIPHER *c, int enc, size_t len,
	       const unsigned char *nonce, const unsigned char *aad, const unsigned char *pristine);
int evp13_record(struct evp13 *e, const unsigned char *nonce);
int evp13_prep(void *ve);
int evp13_op(void *ve);
int evp13_loop(struct evp13 *e, long n);
void evp12_close(struct evp12 *e);
size_t rec_len(size_t len);
void tls12_aad(unsigned char *aad, int enc, size_t len);
int evp12_open(struct evp12 *e, const EVP_CIPHER *c, int enc, size_t len,
	       const unsigned char *fixed, const unsigned char *pristine);
int evp12_record(struct evp12 *e);
int evp12_prep(void *ve);
int evp12_op(void *ve);
int evp13_hot_op(void *ve);
int evp12_hot_op(void *ve);
int copy_op(void *vc);
int reference13(size_t len, const unsigned char *nonce, unsigned char *out);
int reference12(size_t len, unsigned char *rec);
int check13(struct evp13 *e, const unsigned char *ref);

/* ---- measure.c: measurement ------------------------------------------------ */

struct contender {
	int (*prep)(void *); /* before each message, not timed (may be NULL) */
	int (*op)(void *);   /* one message, timed */
	void *st;
	int solo; /* runs its samples back to back, after the others' */
};

struct result {
	long iters;	      /* messages per contender and round */
	long group;	      /* messages per timing sample */
	double us[NCONT];     /* median time per message, per contender */
	double sys_us[NCONT]; /* median AF_ALG syscall time per message (sys_timing) */
	double calls[NCONT];  /* AF_ALG syscalls per message seen by the wrappers */
	double tratio;	      /* the same from the means of the fastest 80% of samples */
	int rounds;
	/* Per round, per message, us: median, mean of the fastest 80%, AF_ALG syscalls, the rest. */
	double t[NCONT][MAX_ROUNDS], tm[NCONT][MAX_ROUNDS];
	double sys[NCONT][MAX_ROUNDS], user[NCONT][MAX_ROUNDS];
	double ratio, rmin, rmax; /* contender 0 over contender 1: throughput ratio */
	long msgs0;		  /* messages contender 0 ran in all */
};

int run_n(const struct contender *c, long n);
double median(double *v, int n);
int measure(const struct contender *c, int k, int rounds, double batch_s, struct result *res);
const char *size_str(size_t len, char *buf, size_t bufsz);
double mbps(size_t len, double us);

/* ---- the sections, one file each ------------------------------------------- */

void section_engine(void);    /* engine.c: 1. engine path vs raw AF_ALG */
void section_delegated(void); /* delegated.c: 2. delegated path vs default provider */
void section_memory(void);    /* memory.c: 3. memory */
void section_keysetup(void);  /* keysetup.c: 6. what a new key costs */
void section_calls(void);     /* calls.c: 4. per EVP call (diagnostics) */
void section_verify(void);    /* verify.c: 5. the integrity check's cost */
void section_cdev(void);    /* cdev.c: 7. /dev/crypto beside AF_ALG (test/cryptodev/bench.cmake) */
void section_overlap(void); /* overlap.c: 8. one TLS 1.3 stream, keystream-ahead off / on */

#endif
