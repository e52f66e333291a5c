// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench: throughput ratios and memory of the eip93 provider, measured in
 * one process (SPEC "engine path", item 7).  Run in the test guest with the
 * gate open (test/guest/bench.sh; host entry point scripts/bench.sh).
 *
 *   eip93-bench [--smoke] [--rounds N] [--batch-ms MS] [--key-bits 128|192|256]
 *
 * 1. Engine path vs a raw AF_ALG loop on the kernel algorithm the provider
 *    bound (one socket bound, keyed and accepted once; per message one
 *    sendmsg carrying the op/IV/assoclen cmsgs and one read), for the TLS 1.3
 *    and TLS 1.2 record shapes through EVP, encrypt and decrypt, 4/16/32 KiB.
 * 2. Delegated (software) path vs the default provider alone, TLS 1.3 shape,
 *    16 B / 256 B / 1 KiB.
 * 3. Live heap bytes an eip93 AES-GCM EVP_CIPHER_CTX adds over a default
 *    provider one, and whether anything stays allocated across a message.
 * 5. What the integrity check of every engine result costs: the engine path
 *    checked vs unchecked (a second provider instance, test builds only:
 *    EIP93_TEST_VERIFY=off), and the check's own work (AES of three counter
 *    blocks and the comparison) timed alone, as a share of a message.
 *
 * Ratios are throughput(provider) / throughput(baseline).  The contenders of
 * one row alternate message by message (for small messages: every few
 * messages), so they share the noise of a busy machine; each round takes the
 * median time per message of each (which drops messages hit by preemption),
 * and a row's ratio is the median of its per-round ratios.  Targets are
 * printed next to the ratios, never asserted: only functional problems (a
 * wrong answer, an engine row not taking the engine) make the exit status
 * non-zero.
 *
 * In-place decryption destroys its input, so every decryption loop (the raw
 * loop too) copies the pristine record back before each message, outside
 * the timed region.
 *
 * Where the time goes (perf is not available in the guest): this program
 * defines sendmsg() and readv() itself and exports them, so the provider's
 * AF_ALG calls land here too.  In a separate pass after the ratio rounds
 * they time the kernel's share of a message, and in a "hot" pass they return
 * success without entering the kernel, which leaves the provider's own
 * user-space work per message alone (on the unchecked instance: the engine's
 * "answer" is then whatever the buffer held, which the check would refuse).  A third loop sends the raw messages
 * with the provider's iovec layout (separate AAD, tag and AAD-echo buffers)
 * to price that layout in the kernel.  The ratio rounds run with the
 * wrappers passing straight through.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_alg.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define IVLEN 12
#define TAGLEN 16
#define TLS13_AAD 5
#define TLS12_AAD 13
#define TLS12_FIXED 4
#define TLS12_EXPLICIT 8
#define MAX_PAYLOAD 32768
#define MAX_ROUNDS 64
#define NCONT 4

#define ENGINE_TARGET 0.97
#define DELEGATE_TARGET 0.98
#define MEMORY_TARGET 1024

/* ---- counting allocator (installed before any other OpenSSL call) ----- */

union mem_hdr {
	size_t n;
	max_align_t align;
};

static size_t mem_live, mem_peak;

static void *count_malloc(size_t n, const char *file, int line)
{
	union mem_hdr *h;

	(void)file;
	(void)line;
	h = malloc(sizeof(*h) + n);
	if (h == NULL)
		return NULL;
	h->n = n;
	mem_live += n;
	if (mem_live > mem_peak)
		mem_peak = mem_live;
	return h + 1;
}

static void count_free(void *p, const char *file, int line)
{
	union mem_hdr *h;

	(void)file;
	(void)line;
	if (p == NULL)
		return;
	h = (union mem_hdr *)p - 1;
	mem_live -= h->n;
	free(h);
}

static void *count_realloc(void *p, size_t n, const char *file, int line)
{
	union mem_hdr *h, *nh;
	size_t old;

	if (p == NULL)
		return count_malloc(n, file, line);
	if (n == 0) {
		count_free(p, file, line);
		return NULL;
	}
	h = (union mem_hdr *)p - 1;
	old = h->n;
	nh = realloc(h, sizeof(*nh) + n);
	if (nh == NULL)
		return NULL;
	nh->n = n;
	mem_live = mem_live - old + n;
	if (mem_live > mem_peak)
		mem_peak = mem_live;
	return nh + 1;
}

/* ---- the syscalls the provider makes, seen from here ------------------ */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int sys_timing; /* time every AF_ALG syscall into sys_time */
static int sys_fake;   /* sendmsg/readv succeed without entering the kernel */
static double sys_time;
static long sys_calls;

static size_t iov_total(const struct iovec *iov, size_t n)
{
	size_t t = 0;

	for (size_t i = 0; i < n; i++)
		t += iov[i].iov_len;
	return t;
}

/* Exported from the executable (see guest.cmake): the provider's calls resolve here. */
ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	double t0 = sys_timing ? now_s() : 0;
	ssize_t n;

	sys_calls++;
	if (sys_fake)
		return (ssize_t)iov_total(msg->msg_iov, msg->msg_iovlen);
	n = (ssize_t)syscall(SYS_sendmsg, fd, msg, flags);
	if (sys_timing)
		sys_time += now_s() - t0;
	return n;
}

ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	double t0 = sys_timing ? now_s() : 0;
	ssize_t n;

	sys_calls++;
	if (sys_fake)
		return iovcnt < 0 ? -1 : (ssize_t)iov_total(iov, (size_t)iovcnt);
	n = (ssize_t)syscall(SYS_readv, fd, iov, iovcnt);
	if (sys_timing)
		sys_time += now_s() - t0;
	return n;
}

/* The raw loop's one read, timed like the provider's. */
static ssize_t timed_read(int fd, void *buf, size_t len)
{
	double t0 = sys_timing ? now_s() : 0;
	ssize_t n;

	sys_calls++;
	n = read(fd, buf, len);
	if (sys_timing)
		sys_time += now_s() - t0;
	return n;
}

/* ---- setup ---------------------------------------------------------- */

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
	long fixed_iters; /* smoke: this many messages per batch, no calibration */
	int failures;
};

static struct bench B;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("eip93-bench: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	ERR_print_errors_fp(stderr);
	B.failures++;
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131u + (size_t)seed * 7u + (i >> 8)) & 0xff);
}

static uint64_t prov_counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_uint64(name, &v);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(B.eip93, p))
		return UINT64_MAX;
	return v;
}

/* The kernel algorithm from the gate verdict "enabled: <name>"; 0 or -1. */
static int gate_open(void)
{
	const char *gate = NULL;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(B.eip93, p) || gate == NULL) {
		fail("cannot read the eip93-gate parameter");
		return -1;
	}
	if (strncmp(gate, "enabled: ", 9) != 0 || strlen(gate + 9) >= sizeof(B.kalg)) {
		fail("the gate is not open: %s", gate);
		return -1;
	}
	strcpy(B.kalg, gate + 9);
	return 0;
}

/* ---- the raw AF_ALG loop ------------------------------------------------ */

struct raw {
	int tfm, op;
	int enc;
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
		char buf[CMSG_SPACE(sizeof(uint32_t)) +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + IVLEN) +
			 CMSG_SPACE(sizeof(uint32_t))];
		struct cmsghdr align;
	} cbuf;
};

static void raw_close(struct raw *r)
{
	if (r->op >= 0)
		close(r->op);
	if (r->tfm >= 0)
		close(r->tfm);
	r->op = r->tfm = -1;
	free(r->in);
	free(r->out);
	r->in = r->out = NULL;
}

/* Open, key and accept once; lay out the message once (only the IV changes). */
static int raw_open(struct raw *r, int enc, const unsigned char *aad, size_t aadlen, size_t len,
		    const unsigned char *nonce, const unsigned char *pristine)
{
	struct sockaddr_alg sa;
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	uint32_t v;

	memset(r, 0, sizeof(*r));
	r->tfm = r->op = -1;
	r->enc = enc;
	r->aadlen = aadlen;
	r->len = len;
	r->pristine = pristine;
	memcpy(r->nonce, nonce, IVLEN);
	r->inlen = aadlen + len + (enc ? 0 : TAGLEN);
	r->outlen = aadlen + len + (enc ? TAGLEN : 0);
	r->in = calloc(1, r->inlen);
	r->out = calloc(1, r->outlen);
	if (r->in == NULL || r->out == NULL)
		goto err;
	memcpy(r->in, aad, aadlen);
	if (enc)
		fill(r->in + aadlen, len, 1);
	else
		memcpy(r->in + aadlen, pristine, len + TAGLEN);

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	memcpy(sa.salg_type, "aead", sizeof("aead"));
	memcpy(sa.salg_name, B.kalg, strlen(B.kalg) + 1);
	r->tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (r->tfm < 0 || bind(r->tfm, (const struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    setsockopt(r->tfm, SOL_ALG, ALG_SET_KEY, B.key, (socklen_t)B.keylen) < 0 ||
	    setsockopt(r->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, TAGLEN) < 0)
		goto err;
	r->op = accept4(r->tfm, NULL, NULL, SOCK_CLOEXEC);
	if (r->op < 0)
		goto err;

	r->msg.msg_control = r->cbuf.buf;
	r->msg.msg_controllen = sizeof(r->cbuf.buf);
	c = CMSG_FIRSTHDR(&r->msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	c = CMSG_NXTHDR(&r->msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + IVLEN);
	aiv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	aiv->ivlen = IVLEN;
	r->ivp = aiv->iv;
	memcpy(r->ivp, nonce, IVLEN);
	c = CMSG_NXTHDR(&r->msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = (uint32_t)aadlen;
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	r->iov.iov_base = r->in;
	r->iov.iov_len = r->inlen;
	r->msg.msg_iov = &r->iov;
	r->msg.msg_iovlen = 1;

	memcpy(r->split_aad, aad, aadlen);
	r->split_in[0].iov_base = r->split_aad;
	r->split_in[0].iov_len = aadlen;
	r->split_in[1].iov_base = r->in + aadlen;
	r->split_in[1].iov_len = len;
	r->split_in[2].iov_base = r->split_tag;
	r->split_in[2].iov_len = TAGLEN;
	r->split_out[0].iov_base = r->split_echo;
	r->split_out[0].iov_len = aadlen;
	r->split_out[1].iov_base = r->out + aadlen;
	r->split_out[1].iov_len = len;
	r->split_out[2].iov_base = r->split_tag;
	r->split_out[2].iov_len = TAGLEN;
	r->split_nout = enc ? 3 : 2;
	r->split_msg = r->msg;
	r->split_msg.msg_iov = r->split_in;
	r->split_msg.msg_iovlen = enc ? 2 : 3;
	return 0;
err:
	fail("raw AF_ALG setup (%s): %s", B.kalg, strerror(errno));
	raw_close(r);
	return -1;
}

/* The TLS 1.3 way of deriving a per-record nonce: base XOR sequence number. */
static void nonce_for(unsigned char *out, const unsigned char *base, uint64_t seq)
{
	memcpy(out, base, IVLEN);
	for (int i = 0; i < 8; i++)
		out[IVLEN - 1 - i] ^= (unsigned char)(seq >> (8 * i));
}

/* Before a raw message (not timed): the next nonce, or the pristine record back. */
static int raw_prep(void *vr)
{
	struct raw *r = vr;

	if (r->enc) {
		nonce_for(r->ivp, r->nonce, ++r->seq);
	} else {
		memcpy(r->in + r->aadlen, r->pristine, r->len + TAGLEN);
		memcpy(r->split_tag, r->pristine + r->len, TAGLEN);
	}
	return 0;
}

/* One raw message: one sendmsg (op, IV, assoclen cmsgs; one iovec), one read. */
static int raw_op(void *vr)
{
	struct raw *r = vr;

	if (sendmsg(r->op, &r->msg, 0) != (ssize_t)r->inlen ||
	    timed_read(r->op, r->out, r->outlen) != (ssize_t)r->outlen) {
		fail("raw AF_ALG message: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The same message with the provider's iovec layout, read with readv. */
static int raw_split_op(void *vr)
{
	struct raw *r = vr;

	if (sendmsg(r->op, &r->split_msg, 0) != (ssize_t)r->inlen ||
	    readv(r->op, r->split_out, r->split_nout) != (ssize_t)r->outlen) {
		fail("raw AF_ALG message (split iovecs): %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- TLS 1.3 record shape through EVP ---------------------------------- */

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

static void evp13_close(struct evp13 *e)
{
	EVP_CIPHER_CTX_free(e->ctx);
	free(e->buf);
	e->ctx = NULL;
	e->buf = NULL;
}

static int evp13_open(struct evp13 *e, const EVP_CIPHER *c, int enc, size_t len,
		      const unsigned char *nonce, const unsigned char *aad,
		      const unsigned char *pristine)
{
	memset(e, 0, sizeof(*e));
	e->enc = enc;
	e->len = len;
	e->pristine = pristine;
	memcpy(e->nonce, nonce, IVLEN);
	memcpy(e->aad, aad, TLS13_AAD);
	e->ctx = EVP_CIPHER_CTX_new();
	e->buf = calloc(1, len + TAGLEN);
	if (e->ctx == NULL || e->buf == NULL ||
	    !EVP_CipherInit_ex(e->ctx, c, NULL, B.key, NULL, enc)) {
		fail("EVP setup");
		evp13_close(e);
		return -1;
	}
	fill(e->buf, len, 1);
	return 0;
}

/* One record as libssl 3.x does it for TLS 1.3. */
static int evp13_record(struct evp13 *e, const unsigned char *nonce)
{
	double t[PH_GETTAG + 2] = { 0 }, sys0 = sys_time;
	int timing = e->ph != NULL, outl = 0, fl = 0;

#define MARK(i)                                                                                    \
	do {                                                                                       \
		if (timing)                                                                        \
			t[i] = now_s();                                                            \
	} while (0)
	MARK(PH_INIT);
	if (!EVP_CipherInit_ex(e->ctx, NULL, NULL, NULL, nonce, e->enc))
		return -1;
	MARK(PH_SETTAG);
	if (!e->enc && !EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_SET_TAG, TAGLEN, e->buf + e->len))
		return -1;
	MARK(PH_AAD);
	if (!EVP_CipherUpdate(e->ctx, NULL, &outl, e->aad, TLS13_AAD))
		return -1;
	MARK(PH_DATA);
	if (!EVP_CipherUpdate(e->ctx, e->buf, &outl, e->buf, (int)e->len) || (size_t)outl != e->len)
		return -1;
	MARK(PH_FINAL);
	if (!EVP_CipherFinal_ex(e->ctx, e->buf + outl, &fl))
		return -1;
	MARK(PH_GETTAG);
	if (e->enc && !EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_GET_TAG, TAGLEN, e->tag))
		return -1;
	MARK(PH_GETTAG + 1);
#undef MARK
	if (timing && e->ph->n < e->ph->cap) {
		double *v = e->ph->v[e->ph->n++];

		for (int i = PH_INIT; i <= PH_GETTAG; i++)
			v[i] = t[i + 1] - t[i];
		v[PH_SYS] = sys_time - sys0;
	}
	return 0;
}

static int evp13_prep(void *ve)
{
	struct evp13 *e = ve;

	if (e->enc) {
		nonce_for(e->cur, e->nonce, ++e->seq);
	} else {
		memcpy(e->buf, e->pristine, e->len + TAGLEN);
		memcpy(e->cur, e->nonce, IVLEN);
	}
	return 0;
}

static int evp13_op(void *ve)
{
	struct evp13 *e = ve;

	if (evp13_record(e, e->cur) != 0) {
		fail("TLS 1.3 record (%s, %zu bytes)", e->enc ? "encrypt" : "decrypt", e->len);
		return -1;
	}
	return 0;
}

static int evp13_loop(struct evp13 *e, long n)
{
	for (long i = 0; i < n; i++)
		if (evp13_prep(e) != 0 || evp13_op(e) != 0)
			return -1;
	return 0;
}

/* ---- TLS 1.2 record shape through EVP ---------------------------------- */

struct evp12 {
	EVP_CIPHER_CTX *ctx;
	int enc;
	size_t len;		       /* payload */
	unsigned char *rec;	       /* explicit IV || payload || tag */
	const unsigned char *pristine; /* decrypt: a whole record */
	unsigned char aad[TLS12_AAD];
};

static void evp12_close(struct evp12 *e)
{
	EVP_CIPHER_CTX_free(e->ctx);
	free(e->rec);
	e->ctx = NULL;
	e->rec = NULL;
}

static size_t rec_len(size_t len)
{
	return TLS12_EXPLICIT + len + TAGLEN;
}

/* The record AAD as libssl passes it: the length field counts the explicit IV (and tag). */
static void tls12_aad(unsigned char *aad, int enc, size_t len)
{
	size_t l = TLS12_EXPLICIT + len + (enc ? 0 : TAGLEN);

	fill(aad, TLS12_AAD - 2, 9);
	aad[8] = 23;
	aad[9] = 3;
	aad[10] = 3;
	aad[11] = (unsigned char)(l >> 8);
	aad[12] = (unsigned char)(l & 0xff);
}

static int evp12_open(struct evp12 *e, const EVP_CIPHER *c, int enc, size_t len,
		      const unsigned char *fixed, const unsigned char *pristine)
{
	memset(e, 0, sizeof(*e));
	e->enc = enc;
	e->len = len;
	e->pristine = pristine;
	tls12_aad(e->aad, enc, len);
	e->ctx = EVP_CIPHER_CTX_new();
	e->rec = calloc(1, rec_len(len));
	if (e->ctx == NULL || e->rec == NULL ||
	    !EVP_CipherInit_ex(e->ctx, c, NULL, B.key, NULL, enc) ||
	    EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_SET_IV_FIXED, TLS12_FIXED, (void *)fixed) <=
		    0) {
		fail("EVP TLS 1.2 setup");
		evp12_close(e);
		return -1;
	}
	fill(e->rec + TLS12_EXPLICIT, len, 1);
	return 0;
}

static int evp12_record(struct evp12 *e)
{
	size_t rl = rec_len(e->len);
	int outl = 0;

	if (EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, e->aad) != TAGLEN ||
	    !EVP_CipherUpdate(e->ctx, e->rec, &outl, e->rec, (int)rl))
		return -1;
	if ((size_t)outl != (e->enc ? rl : e->len))
		return -1;
	return 0;
}

static int evp12_prep(void *ve)
{
	struct evp12 *e = ve;

	if (!e->enc)
		memcpy(e->rec, e->pristine, rec_len(e->len));
	return 0;
}

static int evp12_op(void *ve)
{
	struct evp12 *e = ve;

	if (evp12_record(e) != 0) {
		fail("TLS 1.2 record (%s, %zu bytes)", e->enc ? "encrypt" : "decrypt", e->len);
		return -1;
	}
	return 0;
}

/* The provider's records with AF_ALG answered in user space: its own work alone. */
static int evp13_hot_op(void *ve)
{
	int rc;

	sys_fake = 1;
	rc = evp13_op(ve);
	sys_fake = 0;
	return rc;
}

static int evp12_hot_op(void *ve)
{
	int rc;

	sys_fake = 1;
	rc = evp12_op(ve);
	sys_fake = 0;
	return rc;
}

/* ---- what the engine path adds per message: its one copy -------------- */

struct copy {
	const unsigned char *src;
	size_t len;
	int cleanse;
};

static int copy_op(void *vc)
{
	struct copy *c = vc;
	unsigned char *p = OPENSSL_malloc(c->len);

	if (p == NULL)
		return -1;
	memcpy(p, c->src, c->len);
	if (c->cleanse)
		OPENSSL_clear_free(p, c->len);
	else
		OPENSSL_free(p);
	return 0;
}

/* ---- measurement -------------------------------------------------------- */

struct contender {
	int (*prep)(void *); /* before each message, not timed (may be NULL) */
	int (*op)(void *);   /* one message, timed */
	void *st;
	int solo; /* runs its samples back to back, after the others' */
};

static int run_n(const struct contender *c, long n)
{
	for (long i = 0; i < n; i++)
		if ((c->prep != NULL && c->prep(c->st) != 0) || c->op(c->st) != 0)
			return -1;
	return 0;
}

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Time @n messages, each from just before its op to just after. */
static int timed(const struct contender *c, long n, double *secs)
{
	double acc = 0;

	for (long i = 0; i < n; i++) {
		double t0;

		if (c->prep != NULL && c->prep(c->st) != 0)
			return -1;
		t0 = now_s();
		if (c->op(c->st) != 0)
			return -1;
		acc += now_s() - t0;
	}
	*secs = acc;
	return 0;
}

/* Mean of the fastest @keep of @n sorted values. */
static double low_mean(const double *sorted, long n, double keep)
{
	long m = (long)((double)n * keep + 0.5);
	double sum = 0;

	if (m < 1)
		m = 1;
	for (long i = 0; i < m; i++)
		sum += sorted[i];
	return sum / (double)m;
}

#define SAMPLE_S 40e-6 /* a timing sample covers at least this long */
#define MIN_SAMPLES 25 /* per contender and round */

/*
 * Run @k contenders (@c[0] the provider, @c[1] its baseline, the rest
 * auxiliary) for @rounds rounds of about @batch_s seconds of the baseline.
 * Within a round the contenders alternate sample by sample (a sample is g
 * messages, g = 1 for engine-sized messages), rotating the order, so they
 * share the machine's noise; "solo" contenders then run their samples back
 * to back.  Each round gives every contender the median time of its
 * samples, which drops samples hit by preemption.  Only the messages' ops
 * are timed (not the restoring of a decryption's input).
 */
static int measure(const struct contender *c, int k, int rounds, double batch_s, struct result *res)
{
	double ratio[MAX_ROUNDS], tratio[MAX_ROUNDS], secs = 0, per_msg;
	double *t[NCONT] = { NULL }, *sys[NCONT] = { NULL }, *user = NULL;
	long n = 1, g = 1, ns, calls[NCONT] = { 0 };
	int rc = -1;

	if (rounds < 1 || rounds > MAX_ROUNDS || k < 2 || k > NCONT)
		return -1;
	memset(res, 0, sizeof(*res));
	/* Warm up (opens the provider's sockets, verifies the key) and calibrate on the baseline. */
	for (int j = 0; j < k; j++)
		if (run_n(&c[j], 2) != 0)
			return -1;
	res->msgs0 = 2;
	if (B.fixed_iters > 0) {
		ns = B.fixed_iters;
	} else {
		for (;;) {
			if (timed(&c[1], n, &secs) != 0)
				return -1;
			if (secs >= batch_s / 10 || n >= (1L << 30))
				break;
			n *= 2;
		}
		per_msg = secs / (double)n;
		if (per_msg > 0 && per_msg < SAMPLE_S)
			g = (long)(SAMPLE_S / per_msg) + 1;
		ns = per_msg > 0 ? (long)(batch_s / (per_msg * (double)g)) : MIN_SAMPLES;
		if (ns < MIN_SAMPLES)
			ns = MIN_SAMPLES; /* a calibration hit by a stall must not leave a round bare */
	}
	res->iters = ns * g;
	res->group = g;
	for (int j = 0; j < k; j++) {
		t[j] = calloc((size_t)ns, sizeof(double));
		sys[j] = calloc((size_t)ns, sizeof(double));
		if (t[j] == NULL || sys[j] == NULL)
			goto out;
	}
	user = calloc((size_t)ns, sizeof(double));
	if (user == NULL)
		goto out;

	for (int r = 0; r < rounds; r++) {
		/* The interleaved contenders, then each solo one; j walks a rotating order. */
		for (int phase = 0; phase <= k; phase++)
			for (long i = 0; i < ns; i++)
				for (int q = 0; q < k; q++) {
					int j = (int)((r + i + q) % k);
					double sys0 = sys_time;
					long calls0 = sys_calls;

					if (phase == 0 ? c[j].solo : j != phase - 1 || !c[j].solo)
						continue;
					if (timed(&c[j], g, &t[j][i]) != 0)
						goto out;
					sys[j][i] = sys_time - sys0;
					calls[j] += sys_calls - calls0;
				}
		res->msgs0 += ns * g;
		for (int j = 0; j < k; j++) {
			double scale = 1e6 / (double)g;

			for (long i = 0; i < ns; i++)
				user[i] = t[j][i] - sys[j][i];
			res->user[j][r] = median(user, (int)ns) * scale;
			res->sys[j][r] = median(sys[j], (int)ns) * scale;
			res->t[j][r] = median(t[j], (int)ns) * scale; /* sorts t[j] */
			res->tm[j][r] = low_mean(t[j], ns, 0.8) * scale;
		}
		ratio[r] = res->t[1][r] / res->t[0][r];
		tratio[r] = res->tm[1][r] / res->tm[0][r];
	}
	res->rounds = rounds;
	for (int j = 0; j < k; j++) {
		double v[MAX_ROUNDS];

		memcpy(v, res->t[j], sizeof(v));
		res->us[j] = median(v, rounds);
		memcpy(v, res->sys[j], sizeof(v));
		res->sys_us[j] = median(v, rounds);
		res->calls[j] = (double)calls[j] / ((double)ns * (double)g * rounds);
	}
	res->tratio = median(tratio, rounds);
	res->ratio = median(ratio, rounds); /* sorts ratio[] */
	res->rmin = ratio[0];
	res->rmax = ratio[rounds - 1];
	rc = 0;
out:
	for (int j = 0; j < k; j++) {
		free(t[j]);
		free(sys[j]);
	}
	free(user);
	return rc;
}

static const char *size_str(size_t len, char *buf, size_t bufsz)
{
	if (len >= 1024 && len % 1024 == 0)
		snprintf(buf, bufsz, "%zu KiB", len / 1024);
	else
		snprintf(buf, bufsz, "%zu B", len);
	return buf;
}

static double mbps(size_t len, double us)
{
	return (double)len / us; /* bytes per microsecond = MB/s */
}

/* ---- section 1: engine path vs raw AF_ALG -------------------------------- */

static const unsigned char base_nonce[IVLEN] = { 0x1c, 0x2d, 0x3e, 0x4f, 0x50, 0x61,
						 0x72, 0x83, 0x94, 0xa5, 0xb6, 0xc7 };
static const unsigned char tls12_fixed[TLS12_FIXED] = { 0xa1, 0xb2, 0xc3, 0xd4 };
static const unsigned char tls13_aad[TLS13_AAD] = { 23, 3, 3, 0x40, 0x11 };

struct engine_row {
	const char *shape, *dir;
	size_t len;
	struct result res; /* ratio rounds: provider, raw, copy */
	struct result bd;  /* breakdown pass: provider, raw, provider hot, raw split */
	int engine_ok;
	int have_bd;
};

#define BD_ROUNDS 9

/* Software reference: TLS 1.3 record (nonce, aad) -> payload || tag, by the default provider. */
static int reference13(size_t len, const unsigned char *nonce, unsigned char *out)
{
	struct evp13 e;
	int rc;

	if (evp13_open(&e, B.c_dflt, 1, len, nonce, tls13_aad, NULL) != 0)
		return -1;
	rc = evp13_record(&e, nonce);
	if (rc == 0) {
		memcpy(out, e.buf, len);
		memcpy(out + len, e.tag, TAGLEN);
	}
	evp13_close(&e);
	return rc;
}

/* Software reference: a TLS 1.2 record encrypted by the default provider. */
static int reference12(size_t len, unsigned char *rec)
{
	struct evp12 e;
	int rc;

	if (evp12_open(&e, B.c_dflt, 1, len, tls12_fixed, NULL) != 0)
		return -1;
	rc = evp12_record(&e);
	if (rc == 0)
		memcpy(rec, e.rec, rec_len(len));
	evp12_close(&e);
	return rc;
}

/* Does the engine path give the reference answer?  One message, checked. */
static int check13(struct evp13 *e, const unsigned char *ref)
{
	if (e->enc) {
		if (evp13_record(e, e->nonce) != 0 || memcmp(e->buf, ref, e->len) != 0 ||
		    memcmp(e->tag, ref + e->len, TAGLEN) != 0)
			return -1;
		return 0;
	}
	memcpy(e->buf, ref, e->len + TAGLEN);
	if (evp13_record(e, e->nonce) != 0)
		return -1;
	{
		unsigned char pt[MAX_PAYLOAD];

		fill(pt, e->len, 1);
		return memcmp(pt, e->buf, e->len) == 0 ? 0 : -1;
	}
}

static int engine_row(struct engine_row *row, int tls12, int enc, size_t len)
{
	static unsigned char ref[MAX_PAYLOAD + TLS12_EXPLICIT + TAGLEN];
	unsigned char nonce12[IVLEN], aad12[TLS12_AAD];
	struct contender c[NCONT] = { { 0 } };
	struct evp13 e13 = { 0 }, h13 = { 0 };
	struct evp12 e12 = { 0 }, h12 = { 0 };
	struct raw raw;
	struct copy cp;
	uint64_t em0, sm0, em1, sm1;
	int rc = -1;

	row->shape = tls12 ? "TLS1.2" : "TLS1.3";
	row->dir = enc ? "enc" : "dec";
	row->len = len;
	row->engine_ok = 0;
	if (tls12) {
		if (reference12(len, ref) != 0) {
			fail("TLS 1.2 reference record");
			return -1;
		}
		memcpy(nonce12, tls12_fixed, TLS12_FIXED);
		memcpy(nonce12 + TLS12_FIXED, ref, TLS12_EXPLICIT);
		tls12_aad(aad12, 1, len);
		aad12[11] = (unsigned char)(len >> 8); /* the AAD the kernel sees: payload length */
		aad12[12] = (unsigned char)(len & 0xff);
		if (evp12_open(&e12, B.c_eip93, enc, len, tls12_fixed, ref) != 0)
			return -1;
		if (evp12_open(&h12, B.c_eip93_nv, enc, len, tls12_fixed, ref) != 0) {
			evp12_close(&e12);
			return -1;
		}
		if (raw_open(&raw, enc, aad12, TLS12_AAD, len, nonce12, ref + TLS12_EXPLICIT) != 0)
			goto out_evp;
		c[0].prep = evp12_prep;
		c[0].op = evp12_op;
		c[0].st = &e12;
	} else {
		if (reference13(len, base_nonce, ref) != 0) {
			fail("TLS 1.3 reference record");
			return -1;
		}
		if (evp13_open(&e13, B.c_eip93, enc, len, base_nonce, tls13_aad, ref) != 0)
			return -1;
		if (evp13_open(&h13, B.c_eip93_nv, enc, len, base_nonce, tls13_aad, ref) != 0) {
			evp13_close(&e13);
			return -1;
		}
		if (raw_open(&raw, enc, tls13_aad, TLS13_AAD, len, base_nonce, ref) != 0)
			goto out_evp;
		c[0].prep = evp13_prep;
		c[0].op = evp13_op;
		c[0].st = &e13;
	}
	c[1].prep = raw_prep;
	c[1].op = raw_op;
	c[1].st = &raw;
	cp.src = ref;
	cp.len = len;
	cp.cleanse =
		!tls12; /* TLS 1.3 messages cleanse the kept copy; TLS 1.2 frees a scratch buffer */
	c[2].prep = NULL;
	c[2].op = copy_op;
	c[2].st = &cp;
	row->have_bd = 0;

	/* The raw loop must give the same answer (decrypt: accept the record). */
	if (run_n(&c[1], 1) != 0)
		goto out;
	if (enc && !tls12) {
		/* Its first message used the nonce of sequence number 1. */
		unsigned char n1[IVLEN], ref1[MAX_PAYLOAD + TAGLEN];

		nonce_for(n1, base_nonce, 1);
		if (reference13(len, n1, ref1) != 0 ||
		    memcmp(raw.out + TLS13_AAD, ref1, len + TAGLEN) != 0) {
			fail("raw AF_ALG encryption differs from the default provider");
			goto out;
		}
	}

	em0 = prov_counter("eip93-engine-messages");
	sm0 = prov_counter("eip93-software-messages");
	if (!tls12 && check13(&e13, ref) != 0) {
		fail("%s %s %zu: the provider's answer differs from the reference", row->shape,
		     row->dir, len);
		goto out;
	}
	if (tls12 && !enc) {
		memcpy(e12.rec, ref, rec_len(len));
		if (evp12_record(&e12) != 0) {
			fail("TLS 1.2 decrypt %zu: the provider rejects the reference record", len);
			goto out;
		}
	}
	if (measure(c, 3, B.rounds, B.batch_s, &row->res) != 0)
		goto out;
	em1 = prov_counter("eip93-engine-messages");
	sm1 = prov_counter("eip93-software-messages");
	{
		uint64_t want = (uint64_t)row->res.msgs0 + (tls12 && enc ? 0 : 1);

		row->engine_ok = em1 - em0 == want && sm1 == sm0;
		if (!row->engine_ok)
			fail("%s %s %zu: %llu of %llu messages took the engine, %llu software",
			     row->shape, row->dir, len, (unsigned long long)(em1 - em0),
			     (unsigned long long)want, (unsigned long long)(sm1 - sm0));
	}

	/* Breakdown pass: syscalls timed; the provider hot; the raw loop with split iovecs. */
	c[2].prep = c[0].prep;
	c[2].op = tls12 ? evp12_hot_op : evp13_hot_op;
	c[2].st = tls12 ? (void *)&h12 : (void *)&h13;
	c[2].solo = 1;
	c[3].prep = raw_prep;
	c[3].op = raw_split_op;
	c[3].st = &raw;
	sys_timing = 1;
	row->have_bd = measure(c, 4, B.rounds < BD_ROUNDS ? B.rounds : BD_ROUNDS, B.batch_s / 3,
			       &row->bd) == 0;
	sys_timing = 0;
	rc = 0;
out:
	raw_close(&raw);
out_evp:
	if (tls12) {
		evp12_close(&e12);
		evp12_close(&h12);
	} else {
		evp13_close(&e13);
		evp13_close(&h13);
	}
	return rc;
}

static void section_engine(void)
{
	static const size_t sizes[] = { 4096, 16384, 32768 };
	static struct engine_row rows[12];
	int nrows = 0;
	char sz[32];

	printf("\n1. Engine path vs raw AF_ALG loop (same kernel algorithm, same key)\n");
	printf("   ratio = provider throughput / raw throughput: median over rounds of the ratio "
	       "of the\n   contenders' median per-message times (min..max over rounds); trim80: "
	       "the same from\n   the mean of each round's fastest 80%% of messages\n\n");
	printf("   %-6s %-3s %7s | %9s %9s | %9s %9s | %6s %13s %6s %7s | %s\n", "shape", "dir",
	       "size", "raw MB/s", "prov MB/s", "raw us", "prov us", "ratio", "(min..max)",
	       "trim80", "target", "engine");
	for (int tls12 = 0; tls12 <= 1; tls12++)
		for (int enc = 1; enc >= 0; enc--)
			for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
				struct engine_row *row = &rows[nrows];
				const struct result *r = &row->res;

				if (engine_row(row, tls12, enc, sizes[i]) != 0) {
					printf("   %-6s %-3s %7s | (failed, see stderr)\n",
					       tls12 ? "TLS1.2" : "TLS1.3", enc ? "enc" : "dec",
					       size_str(sizes[i], sz, sizeof(sz)));
					continue;
				}
				printf("   %-6s %-3s %7s | %9.1f %9.1f | %9.1f %9.1f | %6.3f "
				       "(%.3f..%.3f) %6.3f %7s | %s\n",
				       row->shape, row->dir, size_str(row->len, sz, sizeof(sz)),
				       mbps(row->len, r->us[1]), mbps(row->len, r->us[0]), r->us[1],
				       r->us[0], r->ratio, r->rmin, r->rmax, r->tratio,
				       r->ratio >= ENGINE_TARGET ? ">=0.97" : "<0.97 !",
				       row->engine_ok ? "100%" : "NO");
				fflush(stdout);
				nrows++;
			}

	printf("\n   What the engine path adds per message: its one copy of the message (for a "
	       "replay),\n   malloc + memcpy + free (+ cleanse for TLS 1.3), timed on its own, "
	       "interleaved with the two loops\n\n");
	printf("   %-6s %-3s %7s | %9s %9s %8s | %9s\n", "shape", "dir", "size", "prov-raw",
	       "copy us", "copy%", "msgs/round");
	for (int i = 0; i < nrows; i++) {
		const struct engine_row *row = &rows[i];
		const struct result *r = &row->res;

		printf("   %-6s %-3s %7s | %9.2f %9.2f %7.2f%% | %9ld\n", row->shape, row->dir,
		       size_str(row->len, sz, sizeof(sz)), r->us[0] - r->us[1], r->us[2],
		       100.0 * r->us[2] / r->us[1], r->iters);
	}

	printf("\n   Where prov - raw goes (us per message; a separate pass of %d rounds with the "
	       "AF_ALG\n   syscalls timed; medians of per-round values, so the parts need not add "
	       "up exactly)\n",
	       BD_ROUNDS);
	printf("     kernel layout: raw loop with the provider's iovecs (separate AAD / tag / "
	       "AAD-echo\n                    buffers, readv) minus raw loop, syscall time\n");
	printf("     kernel other : provider syscall time minus that split-iovec raw loop's\n");
	printf("     user hot     : provider records with AF_ALG answered in user space, back to "
	       "back\n                    (warm caches), minus the raw loop's own user time: "
	       "EVP + provider\n                    + delegate + copy\n");
	printf("     user cold    : provider user time in the interleaved loop minus user hot "
	       "(the same\n                    code run right after a kernel operation)\n\n");
	printf("   %-6s %-3s %7s | %9s | %9s %9s | %9s %9s | %s\n", "shape", "dir", "size",
	       "prov-raw", "k.layout", "k.other", "user hot", "user cold", "syscalls/msg");
	for (int i = 0; i < nrows; i++) {
		const struct engine_row *row = &rows[i];
		const struct result *r = &row->bd;
		double v[5][MAX_ROUNDS];

		/* Per round (the contenders ran back to back), then the median of each. */
		for (int q = 0; q < r->rounds; q++) {
			v[0][q] = r->t[0][q] - r->t[1][q];
			v[1][q] = r->sys[3][q] - r->sys[1][q];
			v[2][q] = r->sys[0][q] - r->sys[3][q];
			v[3][q] = r->t[2][q] - r->user[1][q];
			v[4][q] = r->user[0][q] - r->user[1][q] - v[3][q];
		}
		if (!row->have_bd || r->calls[0] < 1.5) {
			printf("   %-6s %-3s %7s | (not measured: the wrappers saw %.1f AF_ALG "
			       "calls "
			       "per message)\n",
			       row->shape, row->dir, size_str(row->len, sz, sizeof(sz)),
			       row->have_bd ? r->calls[0] : 0.0);
			continue;
		}
		printf("   %-6s %-3s %7s | %9.2f | %9.2f %9.2f | %9.2f %9.2f | %.1f\n", row->shape,
		       row->dir, size_str(row->len, sz, sizeof(sz)), median(v[0], r->rounds),
		       median(v[1], r->rounds), median(v[2], r->rounds), median(v[3], r->rounds),
		       median(v[4], r->rounds), r->calls[0]);
	}
}

/* ---- section 2: delegated path vs default provider ----------------------- */

static void section_delegated(void)
{
	static const size_t sizes[] = { 16, 256, 1024 };
	char sz[32];

	printf("\n2. Delegated (software) path vs the default provider alone (TLS 1.3 shape)\n");
	printf("   ratio = eip93 throughput / default throughput, as in 1 (a timing sample "
	       "covers\n   several messages here)\n\n");
	printf("   %-6s %-3s %7s | %9s %9s | %9s %9s | %6s %13s %6s %7s | %s\n", "shape", "dir",
	       "size", "dflt MB/s", "eip93MB/s", "dflt us", "eip93 us", "ratio", "(min..max)",
	       "trim80", "target", "software");
	for (int enc = 1; enc >= 0; enc--)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			static unsigned char ref[1024 + TAGLEN];
			size_t len = sizes[i];
			struct evp13 a, b;
			struct contender c[2];
			struct result r;
			uint64_t em0, sm0, em1, sm1;
			int ok;

			if (reference13(len, base_nonce, ref) != 0) {
				fail("reference record");
				continue;
			}
			if (evp13_open(&a, B.c_eip93, enc, len, base_nonce, tls13_aad, ref) != 0)
				continue;
			if (evp13_open(&b, B.c_dflt, enc, len, base_nonce, tls13_aad, ref) != 0) {
				evp13_close(&a);
				continue;
			}
			memset(c, 0, sizeof(c));
			c[0].prep = c[1].prep = evp13_prep;
			c[0].op = c[1].op = evp13_op;
			c[0].st = &a;
			c[1].st = &b;
			em0 = prov_counter("eip93-engine-messages");
			sm0 = prov_counter("eip93-software-messages");
			if (check13(&a, ref) != 0) {
				fail("delegated %zu: the answer differs from the default provider",
				     len);
				ok = 0;
			} else {
				ok = measure(c, 2, B.rounds, B.batch_s, &r) == 0;
			}
			em1 = prov_counter("eip93-engine-messages");
			sm1 = prov_counter("eip93-software-messages");
			evp13_close(&a);
			evp13_close(&b);
			if (!ok) {
				printf("   TLS1.3 %-3s %7s | (failed, see stderr)\n",
				       enc ? "enc" : "dec", size_str(len, sz, sizeof(sz)));
				continue;
			}
			ok = em1 == em0 && sm1 - sm0 == (uint64_t)r.msgs0 + 1;
			if (!ok)
				fail("delegated %zu: %llu engine, %llu software messages", len,
				     (unsigned long long)(em1 - em0),
				     (unsigned long long)(sm1 - sm0));
			printf("   %-6s %-3s %7s | %9.1f %9.1f | %9.2f %9.2f | %6.3f (%.3f..%.3f) "
			       "%6.3f %7s | %s\n",
			       "TLS1.3", enc ? "enc" : "dec", size_str(len, sz, sizeof(sz)),
			       mbps(len, r.us[1]), mbps(len, r.us[0]), r.us[1], r.us[0], r.ratio,
			       r.rmin, r.rmax, r.tratio,
			       r.ratio >= DELEGATE_TARGET ? ">=0.98" : "<0.98 !",
			       ok ? "100%" : "NO");
			fflush(stdout);
		}
}

/* ---- per EVP call (diagnostics) ------------------------------------------ */

struct call_case {
	const char *title;
	int engine; /* 1: real vs hot eip93; 0: default vs eip93 */
	int enc;
	size_t len;
};

/*
 * Median time of each call per message, for two contexts alternating message
 * by message (@out[j][PH_N]: the median total).
 */
static int call_case_run(const struct call_case *cc, double out[2][PH_N + 1])
{
	static unsigned char ref[MAX_PAYLOAD + TAGLEN];
	double v[2][PH_N + 1][MAX_ROUNDS], *col = NULL;
	int rounds = B.rounds < BD_ROUNDS ? B.rounds : BD_ROUNDS, rc = -1;
	struct phases ph[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	struct evp13 e[2];
	long n = B.fixed_iters;
	uint64_t sm0;

	if (reference13(cc->len, base_nonce, ref) != 0)
		return -1;
	if (evp13_open(&e[0], cc->engine ? B.c_eip93 : B.c_dflt, cc->enc, cc->len, base_nonce,
		       tls13_aad, ref) != 0)
		return -1;
	if (evp13_open(&e[1], cc->engine ? B.c_eip93_nv : B.c_eip93, cc->enc, cc->len, base_nonce,
		       tls13_aad, ref) != 0) {
		evp13_close(&e[0]);
		return -1;
	}
	/* Warm up with the kernel answering: the first message opens and checks the key. */
	sm0 = prov_counter("eip93-software-messages");
	if (n <= 0) {
		double t0 = now_s(), dt;

		if (evp13_loop(&e[0], 3) != 0 || evp13_loop(&e[1], 3) != 0)
			goto out;
		dt = (now_s() - t0) / 6;
		n = dt > 0 ? (long)(B.batch_s * 0.3 / dt) : 3;
		if (n < 3)
			n = 3;
	} else if (evp13_loop(&e[0], 2) != 0 || evp13_loop(&e[1], 2) != 0) {
		goto out;
	}
	col = calloc((size_t)n, sizeof(double));
	for (int j = 0; j < 2; j++) {
		ph[j].v = calloc((size_t)n, sizeof(*ph[j].v));
		ph[j].cap = n;
	}
	if (col == NULL || ph[0].v == NULL || ph[1].v == NULL)
		goto out;
	sys_timing = 1;
	for (int r = 0; r < rounds; r++) {
		ph[0].n = ph[1].n = 0;
		/* Delegated: alternate message by message; engine: real, then hot, back to back. */
		for (long m = 0; m < 2 * n; m++) {
			int j = cc->engine ? (int)(m / n) : (int)((r + m / 2 + m) % 2);

			e[j].ph = &ph[j];
			sys_fake = cc->engine && j == 1;
			rc = evp13_loop(&e[j], 1);
			sys_fake = 0;
			e[j].ph = NULL;
			if (rc != 0)
				goto out_timing;
		}
		rc = -1;
		for (int j = 0; j < 2; j++) {
			if (ph[j].n != n)
				goto out_timing;
			for (int p = 0; p <= PH_N; p++) {
				for (long i = 0; i < n; i++) {
					col[i] = 0;
					if (p < PH_N)
						col[i] = ph[j].v[i][p];
					else
						for (int q = PH_INIT; q <= PH_GETTAG; q++)
							col[i] += ph[j].v[i][q];
				}
				v[j][p][r] = median(col, (int)n) * 1e6;
			}
		}
	}
	for (int j = 0; j < 2; j++)
		for (int p = 0; p <= PH_N; p++)
			out[j][p] = median(v[j][p], rounds);
	rc = 0;
	if (cc->engine && prov_counter("eip93-software-messages") != sm0) {
		fail("per-call timing: %s: messages left the engine", cc->title);
		rc = -1;
	}
out_timing:
	sys_timing = 0;
out:
	free(col);
	free(ph[0].v);
	free(ph[1].v);
	evp13_close(&e[0]);
	evp13_close(&e[1]);
	return rc;
}

static void section_calls(void)
{
	static const struct call_case cases[] = {
		{ "engine enc 16 KiB", 1, 1, 16384 },
		{ "engine dec 16 KiB", 1, 0, 16384 },
		{ "deleg. enc 16 B", 0, 1, 16 },
		{ "deleg. dec 16 B", 0, 0, 16 },
	};
	static const char *const rows[PH_N + 1] = {
		[PH_INIT] = "init (nonce)",	[PH_SETTAG] = "set tag",
		[PH_AAD] = "AAD update",	[PH_DATA] = "data update",
		[PH_SYS] = "  of which AF_ALG", [PH_FINAL] = "final",
		[PH_GETTAG] = "get tag",	[PH_N] = "total"
	};
	static const int order[PH_N + 1] = { PH_INIT, PH_SETTAG, PH_AAD,    PH_DATA,
					     PH_SYS,  PH_FINAL,	 PH_GETTAG, PH_N };
	double res[4][2][PH_N + 1];
	int ok[4];

	printf("\n4. Per EVP call of a TLS 1.3 record (us per message, medians; diagnostics)\n");
	printf("   engine: eip93 real (AF_ALG) vs hot (AF_ALG answered in user space); "
	       "delegated: default\n   vs eip93; the two alternate message by message; "
	       "total: median of the per-message sums\n\n");
	for (int i = 0; i < 4; i++) {
		ok[i] = call_case_run(&cases[i], res[i]) == 0;
		if (!ok[i])
			fail("per-call timing: %s", cases[i].title);
	}
	printf("   %-18s |", "call");
	for (int i = 0; i < 4; i++)
		printf(" %-19s|", cases[i].title);
	printf("\n   %-18s |", "");
	for (int i = 0; i < 4; i++)
		printf(" %9s %9s|", cases[i].engine ? "real" : "default",
		       cases[i].engine ? "hot" : "eip93");
	printf("\n");
	for (int q = 0; q <= PH_N; q++) {
		int p = order[q];

		printf("   %-18s |", rows[p]);
		for (int i = 0; i < 4; i++) {
			if (ok[i])
				printf(" %9.2f %9.2f|", res[i][0][p], res[i][1][p]);
			else
				printf(" %9s %9s|", "-", "-");
		}
		printf("\n");
	}
}

/* ---- section 3: memory -------------------------------------------------- */

struct mem_ctx13 {
	long at_init;	/* live bytes the context holds after init with key + IV */
	long after_msg; /* ... after a completed message */
	long across[3]; /* live after - before, per message */
	long peak[3];	/* high-water mark during the message, over before */
	long leak;	/* live after free - live before new */
};

/* A context's life: new, init (key + IV), @nmsg TLS 1.3 messages of @len, free. */
static int mem_life13(const EVP_CIPHER *c, size_t len, int nmsg, struct mem_ctx13 *m)
{
	static unsigned char buf[MAX_PAYLOAD + TAGLEN];
	unsigned char nonce[IVLEN], tag[TAGLEN] = { 0 };
	EVP_CIPHER_CTX *ctx;
	size_t base = mem_live, before;
	int outl = 0, fl = 0, ok = 1;

	memset(m, 0, sizeof(*m));
	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL || !EVP_CipherInit_ex(ctx, c, NULL, B.key, base_nonce, 1)) {
		EVP_CIPHER_CTX_free(ctx);
		return -1;
	}
	m->at_init = (long)(mem_live - base);
	fill(buf, len, 2);
	for (int i = 0; i < nmsg && ok; i++) {
		int enc = i < 2; /* messages 0, 1 encrypt; 2 decrypts message 1 back */

		if (i == 2)
			nonce_for(nonce, base_nonce, 1);
		else
			nonce_for(nonce, base_nonce, (uint64_t)i);
		before = mem_live;
		mem_peak = mem_live;
		ok = (i == 0 || EVP_CipherInit_ex(ctx, NULL, NULL, NULL, nonce, enc)) &&
		     (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAGLEN, tag)) &&
		     EVP_CipherUpdate(ctx, NULL, &outl, tls13_aad, TLS13_AAD) &&
		     EVP_CipherUpdate(ctx, buf, &outl, buf, (int)len) &&
		     EVP_CipherFinal_ex(ctx, buf + outl, &fl) &&
		     (!enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag));
		m->across[i] = (long)mem_live - (long)before;
		m->peak[i] = (long)mem_peak - (long)before;
	}
	m->after_msg = (long)(mem_live - base);
	EVP_CIPHER_CTX_free(ctx);
	m->leak = (long)mem_live - (long)base;
	return ok ? 0 : -1;
}

struct mem_ctx12 {
	long at_init, after_rec, across, peak, leak;
};

/* TLS 1.2: new, init with key, SET_IV_FIXED, one record of @len, free. */
static int mem_life12(const EVP_CIPHER *c, size_t len, struct mem_ctx12 *m)
{
	struct evp12 e;
	size_t base, before;
	int rc;

	/* The record buffer is malloc'd by libc, outside the counted heap. */
	base = mem_live;
	if (evp12_open(&e, c, 1, len, tls12_fixed, NULL) != 0)
		return -1;
	m->at_init = (long)(mem_live - base);
	before = mem_live;
	mem_peak = mem_live;
	rc = evp12_record(&e);
	m->across = (long)mem_live - (long)before;
	m->peak = (long)mem_peak - (long)before;
	m->after_rec = (long)(mem_live - base);
	evp12_close(&e);
	m->leak = (long)mem_live - (long)base;
	return rc;
}

static void section_memory(void)
{
	const size_t len = 16384;
	struct mem_ctx13 d, e, warm;
	struct mem_ctx12 d12, e12, warm12;
	uint64_t em0, em1;
	long extra_init, extra_after, extra12_init, extra12_after;
	int ok;

	printf("\n3. Memory: live heap bytes (CRYPTO_set_mem_functions, counted from the start)\n");
	printf("   one AES-%zu-GCM EVP_CIPHER_CTX, eip93 vs default; messages of %zu bytes "
	       "(engine-eligible)\n\n",
	       B.keylen * 8, len);
	/* Warm-up lives: one-time per-process state (error stacks, caches) is not the context's. */
	if (mem_life13(B.c_dflt, len, 3, &warm) != 0 || mem_life13(B.c_eip93, len, 3, &warm) != 0 ||
	    mem_life13(B.c_eip93, len, 3, &warm) != 0 || mem_life12(B.c_dflt, len, &warm12) != 0 ||
	    mem_life12(B.c_eip93, len, &warm12) != 0) {
		fail("memory warm-up");
		return;
	}
	em0 = prov_counter("eip93-engine-messages");
	ok = mem_life13(B.c_dflt, len, 3, &d) == 0 && mem_life13(B.c_eip93, len, 3, &e) == 0 &&
	     mem_life12(B.c_dflt, len, &d12) == 0 && mem_life12(B.c_eip93, len, &e12) == 0;
	em1 = prov_counter("eip93-engine-messages");
	if (!ok) {
		fail("memory measurement");
		return;
	}
	if (em1 - em0 != 4)
		fail("memory: %llu of 4 eip93 messages took the engine",
		     (unsigned long long)(em1 - em0));
	extra_init = e.at_init - d.at_init;
	extra_after = e.after_msg - d.after_msg;
	extra12_init = e12.at_init - d12.at_init;
	extra12_after = e12.after_rec - d12.after_rec;

	printf("   %-44s %8s %8s %8s   %s\n", "context at rest", "default", "eip93", "extra",
	       "target");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.3 ctx after init (key + IV)", d.at_init,
	       e.at_init, extra_init, extra_init <= MEMORY_TARGET ? "<=1024" : ">1024 !");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.3 ctx after 3 completed messages",
	       d.after_msg, e.after_msg, extra_after,
	       extra_after <= MEMORY_TARGET ? "<=1024" : ">1024 !");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.2 ctx after init (key + fixed IV)",
	       d12.at_init, e12.at_init, extra12_init,
	       extra12_init <= MEMORY_TARGET ? "<=1024" : ">1024 !");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.2 ctx after a completed record",
	       d12.after_rec, e12.after_rec, extra12_after,
	       extra12_after <= MEMORY_TARGET ? "<=1024" : ">1024 !");

	printf("\n   %-44s %8s %8s   %s\n", "across one message (live after - before)", "default",
	       "eip93", "eip93 peak during it (transient)");
	{
		static const char *const what[3] = { "TLS1.3 enc, first (opens + checks the key)",
						     "TLS1.3 enc, next", "TLS1.3 dec, next" };

		/*
		 * The first message opens the key on the engine: besides its sockets
		 * (kernel memory) the key then holds its integrity-check state (an
		 * AES-ECB context with the key schedule) until the key changes or the
		 * context is freed.  That, and nothing else, may stay.
		 */
		for (int i = 0; i < 3; i++)
			printf("   %-44s %8ld %8ld   %+ld bytes %s\n", what[i], d.across[i],
			       e.across[i], e.peak[i],
			       e.across[i] == 0 ? "(none held after: ok)"
			       : i == 0 && e.across[i] <= MEMORY_TARGET
				       ? "(the key's check state: ok)"
				       : "(HELD !)");
		printf("   %-44s %8ld %8ld   %+ld bytes %s\n", "TLS1.2 enc record (opens the key)",
		       d12.across, e12.across, e12.peak,
		       e12.across == 0		     ? "(none held after: ok)"
		       : e12.across <= MEMORY_TARGET ? "(the key's check state: ok)"
						     : "(HELD !)");
	}
	printf("   %-44s %8ld %8ld\n", "freed context: live after free - before new", d.leak,
	       e.leak);
	if (e.across[0] > MEMORY_TARGET)
		fail("eip93 holds %ld bytes after its first message", e.across[0]);
	for (int i = 1; i < 3; i++)
		if (e.across[i] != 0)
			fail("eip93 holds %ld bytes after message %d", e.across[i], i);
	if (e12.across > MEMORY_TARGET || e.leak != 0 || e12.leak != 0)
		fail("eip93 holds memory after a record or a freed context");
}

/* ---- main ---------------------------------------------------------------- */

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--smoke] [--rounds N] [--batch-ms MS] [--key-bits 128|192|256]\n"
		"  --smoke       2 messages per batch, 1 round, no calibration (checks it runs)\n"
		"  --rounds N    rounds per row (odd, 1..%d; default 15)\n"
		"  --batch-ms MS target time of one contender's batch (default 100)\n",
		argv0, MAX_ROUNDS - 1);
}

static int parse_args(int argc, char **argv)
{
	long bits = 128;

	B.rounds = 15;
	B.batch_s = 0.1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;
		long v;

		if (strcmp(a, "--smoke") == 0) {
			B.fixed_iters = 2;
			B.rounds = 1;
			continue;
		}
		if (i + 1 >= argc) {
			usage(argv[0]);
			return -1;
		}
		v = strtol(argv[++i], &end, 10);
		if (end == argv[i] || *end != '\0' || v <= 0) {
			usage(argv[0]);
			return -1;
		}
		if (strcmp(a, "--rounds") == 0 && v < MAX_ROUNDS)
			B.rounds = (int)v;
		else if (strcmp(a, "--batch-ms") == 0 && v <= 60000)
			B.batch_s = (double)v / 1000;
		else if (strcmp(a, "--key-bits") == 0 && (v == 128 || v == 192 || v == 256))
			bits = v;
		else {
			usage(argv[0]);
			return -1;
		}
	}
	B.keylen = (size_t)bits / 8;
	return 0;
}

/* ---- section 5: the integrity check's cost -------------------------------- */

#define KS_MAX 72

struct ks_cost {
	EVP_CIPHER_CTX *ecb;
	unsigned char iv[IVLEN], a[MAX_PAYLOAD], b[MAX_PAYLOAD];
	size_t len, idx[KS_MAX], n;
};

/* The blocks alg/verify.c samples: first, last, one random, both sides of page edges. */
static void ks_add(struct ks_cost *k, size_t blk)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->idx[i] == blk)
			return;
	if (k->n < KS_MAX)
		k->idx[k->n++] = blk;
}

static void ks_blocks(struct ks_cost *k, size_t aadlen, size_t boff)
{
	size_t nb = (k->len + 15) / 16,
	       firsts[2] = { (4096 - boff) % 4096, (4096 - aadlen % 4096) % 4096 };

	k->n = 0;
	ks_add(k, 0);
	ks_add(k, nb - 1);
	ks_add(k, nb / 2);
	for (int f = 0; f < 2; f++)
		for (size_t q = firsts[f]; q < k->len; q += 4096)
			if (q > 0) {
				ks_add(k, (q - 1) / 16);
				ks_add(k, q / 16);
			}
}

/* What the provider does per engine message to check it: AES of the counter blocks, compare. */
static int ks_cost_op(void *vs)
{
	struct ks_cost *k = vs;
	unsigned char ctr[KS_MAX * 16], ks[KS_MAX * 16], diff = 0;
	int outl = 0;

	for (size_t i = 0; i < k->n; i++) {
		uint32_t c = (uint32_t)(2 + k->idx[i]);

		memcpy(ctr + 16 * i, k->iv, IVLEN);
		ctr[16 * i + 12] = (unsigned char)(c >> 24);
		ctr[16 * i + 13] = (unsigned char)(c >> 16);
		ctr[16 * i + 14] = (unsigned char)(c >> 8);
		ctr[16 * i + 15] = (unsigned char)c;
	}
	if (!EVP_EncryptUpdate(k->ecb, ks, &outl, ctr, (int)(16 * k->n)))
		return -1;
	for (size_t i = 0; i < k->n; i++)
		for (size_t j = 0; j < 16 && k->idx[i] * 16 + j < k->len; j++)
			diff |= (unsigned char)(k->a[k->idx[i] * 16 + j] ^
						k->b[k->idx[i] * 16 + j] ^ ks[16 * i + j]);
	k->iv[0] ^= diff; /* keeps the comparison from being optimised away */
	return 0;
}

static int ks_cost_us(size_t len, const unsigned char *buf, double *us, size_t *blocks)
{
	static struct ks_cost k;
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL,
					 B.keylen == 16	  ? "AES-128-ECB"
					 : B.keylen == 24 ? "AES-192-ECB"
							  : "AES-256-ECB",
					 "provider=default");
	long n = B.fixed_iters > 0 ? B.fixed_iters * 50 : 20000;
	double t0;
	int rc = -1;

	memset(&k, 0, sizeof(k));
	k.len = len;
	/* The page offset of the record buffer the engine writes into. */
	ks_blocks(&k, TLS13_AAD, (uintptr_t)buf % 4096);
	*blocks = k.n;
	k.ecb = EVP_CIPHER_CTX_new();
	if (c != NULL && k.ecb != NULL && EVP_EncryptInit_ex2(k.ecb, c, B.key, NULL, NULL)) {
		t0 = now_s();
		for (long i = 0; i < n; i++)
			if (ks_cost_op(&k) != 0)
				goto out;
		*us = (now_s() - t0) * 1e6 / (double)n;
		rc = 0;
	}
out:
	EVP_CIPHER_CTX_free(k.ecb);
	EVP_CIPHER_free(c);
	return rc;
}

static void section_verify(void)
{
	static const size_t sizes[] = { 4096, 16384, 32768 };
	static unsigned char ref[MAX_PAYLOAD + TAGLEN];
	char sz[32];

	printf("\n5. The integrity check of every engine result (TLS 1.3 records)\n");
	printf("   checked / unchecked: eip93 with and without the check (two provider "
	       "instances),\n"
	       "   interleaved; check alone: its AES of the sampled counter blocks (first, last, "
	       "one\n"
	       "   random, both sides of page edges) + compare, timed on its own, as a share of "
	       "the\n"
	       "   checked message time (target: < 1%% at 4 KiB)\n\n");
	printf("   %-3s %7s | %11s %11s | %7s (%s) | %6s %8s %7s\n", "dir", "size", "checked us",
	       "unchecked us", "ratio", "min..max", "blocks", "check us", "share");
	for (int enc = 1; enc >= 0; enc--)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			struct contender c[2];
			struct evp13 e[2];
			struct result r;
			double kus = 0;
			size_t len = sizes[i], blocks = 0;
			int ok;

			if (reference13(len, base_nonce, ref) != 0 ||
			    evp13_open(&e[0], B.c_eip93, enc, len, base_nonce, tls13_aad, ref) != 0)
				continue;
			if (evp13_open(&e[1], B.c_eip93_nv, enc, len, base_nonce, tls13_aad, ref) !=
			    0) {
				evp13_close(&e[0]);
				continue;
			}
			for (int j = 0; j < 2; j++) {
				c[j].prep = evp13_prep;
				c[j].op = evp13_op;
				c[j].st = &e[j];
				c[j].solo = 0;
			}
			ok = measure(c, 2, B.rounds, B.batch_s, &r) == 0 &&
			     ks_cost_us(len, e[0].buf, &kus, &blocks) == 0;
			if (ok)
				printf("   %-3s %7s | %11.1f %11.1f | %7.3f (%.3f..%.3f) | %6zu "
				       "%8.2f "
				       "%6.2f%%\n",
				       enc ? "enc" : "dec", size_str(len, sz, sizeof(sz)), r.us[0],
				       r.us[1], r.ratio, r.rmin, r.rmax, blocks, kus,
				       100.0 * kus / r.us[0]);
			else
				fail("integrity cost %s %zu", enc ? "enc" : "dec", len);
			fflush(stdout);
			evp13_close(&e[0]);
			evp13_close(&e[1]);
		}
}

int main(int argc, char **argv)
{
	char alg[16];
	double t0;

	/* First of all: every OpenSSL allocation from here on is counted. */
	if (!CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free)) {
		fprintf(stderr, "eip93-bench: CRYPTO_set_mem_functions refused\n");
		return 2;
	}
	if (parse_args(argc, argv) != 0)
		return 2;
	t0 = now_s();
	fill(B.key, sizeof(B.key), 5);
	B.dflt = OSSL_PROVIDER_load(NULL, "default");
	B.eip93 = OSSL_PROVIDER_load(NULL, "eip93");
	if (B.dflt == NULL || B.eip93 == NULL) {
		fail("cannot load the default and eip93 providers (OPENSSL_MODULES?)");
		return 2;
	}
	snprintf(alg, sizeof(alg), "AES-%zu-GCM", B.keylen * 8);
	B.c_eip93 = EVP_CIPHER_fetch(NULL, alg, "provider=eip93");
	B.c_dflt = EVP_CIPHER_fetch(NULL, alg, "provider=default");
	if (B.c_eip93 == NULL || B.c_dflt == NULL || gate_open() != 0) {
		if (B.c_eip93 == NULL || B.c_dflt == NULL)
			fail("cannot fetch %s from both providers", alg);
		return 2;
	}
	/* The unchecked instance reads EIP93_TEST_VERIFY when it initialises. */
	setenv("EIP93_TEST_VERIFY", "off", 1);
	B.lib_nv = OSSL_LIB_CTX_new();
	B.dflt_nv = B.lib_nv != NULL ? OSSL_PROVIDER_load(B.lib_nv, "default") : NULL;
	B.eip93_nv = B.lib_nv != NULL ? OSSL_PROVIDER_load(B.lib_nv, "eip93") : NULL;
	unsetenv("EIP93_TEST_VERIFY");
	B.c_eip93_nv =
		B.eip93_nv != NULL ? EVP_CIPHER_fetch(B.lib_nv, alg, "provider=eip93") : NULL;
	if (B.c_eip93_nv == NULL) {
		fail("cannot load the unchecked eip93 instance (a test-hooks build is needed)");
		return 2;
	}

	printf("eip93-bench: %s, kernel algorithm %s\n", alg, B.kalg);
	if (B.fixed_iters > 0)
		printf("smoke run: %ld messages per batch, %d round; the numbers mean nothing\n",
		       B.fixed_iters, B.rounds);
	else
		printf("%d rounds per row, each contender ~%.0f ms per round; contenders "
		       "interleaved message by message\n",
		       B.rounds, B.batch_s * 1000);

	section_engine();
	section_delegated();
	section_memory();
	section_calls();
	section_verify();

	printf("\neip93-bench: done in %.1f s, %d problem(s)\n", now_s() - t0, B.failures);
	EVP_CIPHER_free(B.c_eip93);
	EVP_CIPHER_free(B.c_dflt);
	EVP_CIPHER_free(B.c_eip93_nv);
	OSSL_PROVIDER_unload(B.eip93_nv);
	OSSL_PROVIDER_unload(B.dflt_nv);
	OSSL_LIB_CTX_free(B.lib_nv);
	OSSL_PROVIDER_unload(B.eip93);
	OSSL_PROVIDER_unload(B.dflt);
	return B.failures == 0 ? 0 : 1;
}
