// SPDX-License-Identifier: Apache-2.0
/*
 * A user-space /dev/crypto for unmodified programs (test builds only):
 * an LD_PRELOAD library interposing open (and its 64-bit and fortified
 * forms), openat, ioctl and close.  An open of "/dev/crypto" returns a
 * descriptor (a memfd named cdev-shim) that this library serves: CIOCGSESSION,
 * CIOCFSESSION, CIOCGSESSINFO, CIOCCRYPT (AES-CTR, AES-CBC) and CIOCAUTHCRYPT
 * (AES-GCM, the tag next to the data as the module has it), computed with
 * the default provider in a library context of the library's own.
 *
 * Environment:
 *   EIP93_TEST_CDEV_CTR_DRIVER, EIP93_TEST_CDEV_CBC_DRIVER, EIP93_TEST_CDEV_GCM_DRIVER
 *       the driver CIOCGSESSINFO names for a CTR / CBC / GCM session (defaults
 *       ctr(aes-eip93), cbc(aes-eip93) and gcm_base(ctr(aes-eip93),ghash-generic))
 *   EIP93_TEST_CDEV_FAULT=PLAN[,PLAN...], PLAN = REQ:KIND:NTH[:every]
 *       REQ  open, gsession, fsession, sessinfo, crypt, authcrypt
 *       KIND an errno name (EIO, ENOMEM, ETIMEDOUT, EINTR, ...): the call
 *            fails with it; flip: the call succeeds with bit 0 of the
 *            output's first byte flipped; fliplast: of its last byte;
 *            short: only the first half of the output is written;
 *            driver=NAME (sessinfo): NAME is named as the driver;
 *            srcpage=K, dstpage=K (crypt, authcrypt): the output byte at
 *            the K-th page boundary of the source (destination) buffer
 *            within the payload is wrong, as a DMA fault where that
 *            buffer breaks would make it (K < 0: the byte before the
 *            -K-th boundary); skip=B: payload block B (16 bytes) is never
 *            written, the destination keeps what it held
 *       NTH  the NTH such call of the process is the first hit; "every":
 *            each later one too
 *   EIP93_TEST_CDEV_ENGINE
 *       replaces the value of a setenv("EIP93_TEST_ENGINE", ...) by the
 *       program (the fuzz harness forces "fake"; this makes it "cryptodev")
 *
 * Report (stdout), for the test's checks: when the program unloads a
 * provider named eip93, its counters as "cdev-shim counters: k=v ..." and
 * its gate; then "cdev-shim injected: N" (faults injected so far) and
 * "cdev-shim after unload: descriptors=D sessions=S" (/dev/crypto
 * descriptors still open and sessions not freed once it is gone).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "engine/cryptodev_abi.h"
#include "cdev_fault.h"

#define CTR_DRIVER "ctr(aes-eip93)"
#define CBC_DRIVER "cbc(aes-eip93)"
#define GCM_DRIVER "gcm_base(ctr(aes-eip93),ghash-generic)"
#define MAXSES 256
#define MAXFDS 16
#define MAXPLANS 8

struct session {
	int used, fd;
	uint32_t id, cipher;
	unsigned char key[32];
	size_t keylen;
};

/*
 * Recursive: computing may load a configuration whose providers open /dev/crypto.  Made so by
 * init(), which every entry point runs first (musl has no static recursive initializer).
 */
static pthread_mutex_t lock;
static OSSL_LIB_CTX *shim_lib; /* the default provider alone: never the program's configuration */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct plan plans[MAXPLANS];
static int nplans;
static unsigned long calls[R_N];
static unsigned long injected;
static struct session ses[MAXSES];
static int dev_fds[MAXFDS], ndev;
static uint32_t next_id = 0x100;

static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
/* ioctl()'s request as the C library declares it: unsigned long in glibc, int in musl. */
#ifdef __GLIBC__
typedef unsigned long ioctl_req;
#else
typedef int ioctl_req;
#endif
static int (*real_ioctl)(int, ioctl_req, ...);
static int (*real_close)(int);
static int (*real_unload)(OSSL_PROVIDER *);

static void init(void)
{
	const char *v = getenv("EIP93_TEST_CDEV_FAULT");
	pthread_mutexattr_t attr;

	if (pthread_mutexattr_init(&attr) != 0 ||
	    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) != 0 ||
	    pthread_mutex_init(&lock, &attr) != 0) {
		fprintf(stderr, "cdev-shim: cannot make its recursive mutex\n");
		exit(2);
	}
	pthread_mutexattr_destroy(&attr);
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	real_ioctl = (int (*)(int, ioctl_req, ...))dlsym(RTLD_NEXT, "ioctl");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	real_unload = (int (*)(OSSL_PROVIDER *))dlsym(RTLD_NEXT, "OSSL_PROVIDER_unload");
	if (v != NULL && *v != '\0') {
		char *copy = strdup(v), *save = NULL;

		if (copy == NULL)
			cdev_die("memory", v);
		for (char *t = strtok_r(copy, ",", &save); t != NULL;
		     t = strtok_r(NULL, ",", &save)) {
			char one[128];

			snprintf(one, sizeof(one), "%s", t);
			if (nplans == MAXPLANS)
				cdev_die("more than 8 plans", v);
			cdev_plan_parse(one, &plans[nplans++]);
		}
		free(copy);
	}
}

/* The plan hitting this call of @r (counted here), or NULL.  Under the lock. */
static const struct plan *hit(enum req r)
{
	unsigned long n = ++calls[r];

	for (int i = 0; i < nplans; i++)
		if (plans[i].req == r &&
		    (n == plans[i].nth || (plans[i].every && n > plans[i].nth))) {
			injected++;
			return &plans[i];
		}
	return NULL;
}

static int is_dev(int fd)
{
	for (int i = 0; i < ndev; i++)
		if (dev_fds[i] == fd)
			return 1;
	return 0;
}

static int dev_open(void)
{
	const struct plan *p;
	int fd;

	pthread_mutex_lock(&lock);
	p = hit(R_OPEN);
	if (p != NULL && p->kind == K_ERRNO) {
		pthread_mutex_unlock(&lock);
		errno = p->err;
		return -1;
	}
	fd = memfd_create("cdev-shim", MFD_CLOEXEC); /* "/memfd:cdev-shim" in /proc/self/fd */
	if (fd >= 0 && ndev < MAXFDS)
		dev_fds[ndev++] = fd;
	pthread_mutex_unlock(&lock);
	return fd;
}

static int mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) != 0 ? va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	pthread_once(&once, init);
	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (strcmp(path, "/dev/crypto") == 0)
		return dev_open();
	return real_open(path, flags, mode);
}

#ifdef __GLIBC__
/* glibc's 64-bit and fortified forms (musl has neither: open64 is open there). */
int open64(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return open(path, flags, mode);
}

/* glibc's fortified forms (declared by <fcntl.h> only under _FORTIFY_SOURCE). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int __open64_2(const char *path, int flags)
{
	return open(path, flags);
}
#endif

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	pthread_once(&once, init);
	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (strcmp(path, "/dev/crypto") == 0)
		return dev_open();
	return real_openat(dirfd, path, flags, mode);
}

#ifdef __GLIBC__
int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return openat(dirfd, path, flags, mode);
}
#endif

int close(int fd)
{
	pthread_once(&once, init);
	pthread_mutex_lock(&lock);
	for (int i = 0; i < ndev; i++)
		if (dev_fds[i] == fd)
			dev_fds[i] = dev_fds[--ndev];
	pthread_mutex_unlock(&lock);
	return real_close(fd);
}

static struct session *find(int fd, uint32_t id)
{
	for (int i = 0; i < MAXSES; i++)
		if (ses[i].used && ses[i].id == id && ses[i].fd == fd)
			return &ses[i];
	return NULL;
}

/* AES-CTR, AES-CBC (no padding) or AES-GCM of @len bytes; 0, or -EBADMSG for a wrong GCM tag. */
static int compute(const struct session *s, const unsigned char *iv, const unsigned char *aad,
		   size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		   unsigned char *tag, int enc)
{
	int gcm = s->cipher == EIP93_CDEV_AES_GCM, n = 0, ok;
	char name[32];
	EVP_CIPHER *c;
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();

	snprintf(name, sizeof(name), "AES-%zu-%s", s->keylen * 8,
		 gcm				   ? "GCM"
		 : s->cipher == EIP93_CDEV_AES_CBC ? "CBC"
						   : "CTR");
	if (shim_lib == NULL) {
		shim_lib = OSSL_LIB_CTX_new();
		if (shim_lib == NULL || OSSL_PROVIDER_load(shim_lib, "default") == NULL)
			return -EIO;
	}
	c = EVP_CIPHER_fetch(shim_lib, name, "provider=default");
	ok = x != NULL && c != NULL && EVP_CipherInit_ex2(x, c, s->key, iv, enc, NULL) &&
	     EVP_CIPHER_CTX_set_padding(x, 0);
	if (ok && gcm && aadlen != 0)
		ok = EVP_CipherUpdate(x, NULL, &n, aad, (int)aadlen);
	if (ok && len != 0)
		ok = EVP_CipherUpdate(x, out, &n, in, (int)len);
	if (ok && gcm && !enc)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0;
	if (ok && !EVP_CipherFinal_ex(x, out + n, &n))
		ok = -1;
	if (ok == 1 && gcm && enc)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	return ok == 1 ? 0 : ok == -1 ? -EBADMSG : -EIO;
}

static int session_new(int fd, struct eip93_cdev_session *s)
{
	if (s->cipher != EIP93_CDEV_AES_CTR && s->cipher != EIP93_CDEV_AES_CBC &&
	    s->cipher != EIP93_CDEV_AES_GCM)
		return -EINVAL;
	if (s->keylen != 16 && s->keylen != 24 && s->keylen != 32)
		return -EINVAL;
	for (int i = 0; i < MAXSES; i++) {
		if (ses[i].used)
			continue;
		ses[i].used = 1;
		ses[i].fd = fd;
		ses[i].id = next_id++;
		ses[i].cipher = s->cipher;
		memcpy(ses[i].key, s->key, s->keylen);
		ses[i].keylen = s->keylen;
		s->ses = ses[i].id;
		return 0;
	}
	return -ENOMEM;
}

static int do_crypt(int fd, struct eip93_cdev_crypt *c, const struct plan *p)
{
	struct session *s = find(fd, c->ses);
	unsigned char *tmp;
	int r;

	int enc = s == NULL || s->cipher != EIP93_CDEV_AES_CBC || c->op == EIP93_CDEV_ENCRYPT;

	if (s == NULL || s->cipher == EIP93_CDEV_AES_GCM || c->iv == NULL ||
	    (s->cipher == EIP93_CDEV_AES_CBC && c->len % 16 != 0))
		return -EINVAL;
	if (p == NULL)
		return compute(s, c->iv, NULL, 0, c->src, c->len, c->dst, NULL, enc);
	tmp = malloc(c->len + 1);
	if (tmp == NULL)
		return -ENOMEM;
	r = compute(s, c->iv, NULL, 0, c->src, c->len, tmp, NULL, enc);
	if (r == 0)
		cdev_damage(p, tmp, c->dst, c->len, c->src, c->len);
	free(tmp);
	return r;
}

static int do_authcrypt(int fd, struct eip93_cdev_auth_crypt *a, const struct plan *p)
{
	struct session *s = find(fd, a->ses);
	int enc = a->op == EIP93_CDEV_ENCRYPT;
	size_t n = enc ? a->len : a->len - 16, olen = enc ? a->len + 16 : n;
	unsigned char *tmp;
	int r;

	if (s == NULL || s->cipher != EIP93_CDEV_AES_GCM || a->tag_len != 16 ||
	    (!enc && a->len < 16) || a->iv == NULL)
		return -EINVAL;
	tmp = malloc(olen + 1);
	if (tmp == NULL)
		return -ENOMEM;
	/* The module's layout: the tag after the data, in dst sealing, in src opening. */
	r = compute(s, a->iv, a->auth_src, a->auth_len, a->src, n, tmp, enc ? tmp + n : a->src + n,
		    enc);
	if (r == 0 && p == NULL)
		memcpy(a->dst, tmp, olen);
	else if (r == 0)
		cdev_damage(p, tmp, a->dst, olen, a->src, n);
	free(tmp);
	return r;
}

static int request(int fd, unsigned long req, void *arg)
{
	const struct plan *p;
	struct session *s;
	enum req r;

	if (req == EIP93_CIOCGSESSION)
		r = R_GSESSION;
	else if (req == EIP93_CIOCFSESSION)
		r = R_FSESSION;
	else if (req == EIP93_CIOCGSESSINFO)
		r = R_SESSINFO;
	else if (req == EIP93_CIOCCRYPT)
		r = R_CRYPT;
	else if (req == EIP93_CIOCAUTHCRYPT)
		r = R_AUTHCRYPT;
	else
		return -ENOTTY;
	p = hit(r);
	if (p != NULL && p->kind == K_ERRNO)
		return -p->err;
	switch (r) {
	case R_GSESSION:
		return session_new(fd, arg);
	case R_FSESSION:
		s = find(fd, *(uint32_t *)arg);
		if (s == NULL)
			return -ENOENT;
		memset(s, 0, sizeof(*s));
		return 0;
	case R_SESSINFO: {
		struct eip93_cdev_session_info *i = arg;
		const char *ctr = getenv("EIP93_TEST_CDEV_CTR_DRIVER");
		const char *cbc = getenv("EIP93_TEST_CDEV_CBC_DRIVER");
		const char *gcm = getenv("EIP93_TEST_CDEV_GCM_DRIVER");

		s = find(fd, i->ses);
		if (s == NULL)
			return -EINVAL;
		snprintf(i->cipher.name, sizeof(i->cipher.name), "%s",
			 s->cipher == EIP93_CDEV_AES_CTR   ? "ctr(aes)"
			 : s->cipher == EIP93_CDEV_AES_CBC ? "cbc(aes)"
							   : "gcm(aes)");
		snprintf(i->cipher.driver, sizeof(i->cipher.driver), "%s",
			 p != NULL && p->kind == K_DRIVER  ? p->driver
			 : s->cipher == EIP93_CDEV_AES_CTR ? (ctr != NULL ? ctr : CTR_DRIVER)
			 : s->cipher == EIP93_CDEV_AES_CBC ? (cbc != NULL ? cbc : CBC_DRIVER)
							   : (gcm != NULL ? gcm : GCM_DRIVER));
		return 0;
	}
	case R_CRYPT:
		return do_crypt(fd, arg, p != NULL && p->kind != K_DRIVER ? p : NULL);
	default:
		return do_authcrypt(fd, arg, p != NULL && p->kind != K_DRIVER ? p : NULL);
	}
}

int ioctl(int fd, ioctl_req req, ...)
{
	va_list ap;
	void *arg;
	int r;

	pthread_once(&once, init);
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	pthread_mutex_lock(&lock);
	if (!is_dev(fd)) {
		pthread_mutex_unlock(&lock);
		return real_ioctl(fd, req, arg);
	}
	r = request(fd, (unsigned int)req, arg); /* the kernel's command: 32 bits */
	pthread_mutex_unlock(&lock);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

/*
 * EIP93_TEST_CDEV_ENGINE=cryptodev: a program that sets EIP93_TEST_ENGINE itself
 * (the fuzz harness sets "fake") gets this value instead.
 */
int setenv(const char *name, const char *value, int overwrite)
{
	static int (*real_setenv)(const char *, const char *, int);
	const char *force = getenv("EIP93_TEST_CDEV_ENGINE");

	if (real_setenv == NULL)
		real_setenv = (int (*)(const char *, const char *, int))dlsym(RTLD_NEXT, "setenv");
	if (force != NULL && strcmp(name, "EIP93_TEST_ENGINE") == 0)
		value = force;
	return real_setenv(name, value, overwrite);
}

static void report_counters(OSSL_PROVIDER *prov)
{
	static const char *const names[] = {
		"eip93-engine-messages",	 "eip93-engine-errors",
		"eip93-engine-faults",		 "eip93-software-messages",
		"eip93-software-messages-error", "eip93-software-messages-fault",
		"eip93-software-messages-gate",	 "eip93-key-checks-failed",
	};
	char *gate = NULL;
	OSSL_PARAM q[2];

	printf("cdev-shim counters:");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint64_t v = 0;

		q[0] = OSSL_PARAM_construct_uint64(names[i], &v);
		q[1] = OSSL_PARAM_construct_end();
		if (OSSL_PROVIDER_get_params(prov, q) && OSSL_PARAM_modified(&q[0]))
			printf(" %s=%llu", names[i], (unsigned long long)v);
	}
	printf("\n");
	q[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", &gate, 0);
	q[1] = OSSL_PARAM_construct_end();
	if (OSSL_PROVIDER_get_params(prov, q) && gate != NULL)
		printf("cdev-shim gate: %s\n", gate);
}

int OSSL_PROVIDER_unload(OSSL_PROVIDER *prov)
{
	int eip93 = prov != NULL && strcmp(OSSL_PROVIDER_get0_name(prov), "eip93") == 0;
	int r, nses = 0;

	pthread_once(&once, init);
	if (eip93)
		report_counters(prov);
	r = real_unload(prov);
	if (eip93) {
		pthread_mutex_lock(&lock);
		for (int i = 0; i < MAXSES; i++)
			nses += ses[i].used;
		printf("cdev-shim injected: %lu\n", injected);
		printf("cdev-shim after unload: descriptors=%d sessions=%d\n", ndev, nses);
		pthread_mutex_unlock(&lock);
		fflush(stdout);
	}
	return r;
}
