// SPDX-License-Identifier: Apache-2.0
/*
 * engine/cryptodev.c with stand-in syscalls: the link wraps open, openat,
 * ioctl and close, and a stand-in /dev/crypto (descriptors on /dev/null)
 * keeps sessions per descriptor and process, names a configurable driver
 * for CIOCGSESSINFO, fails a chosen request with a chosen errno, and
 * computes AES-CTR and AES-GCM with OpenSSL as the module would (the tag
 * next to the data).  Checked: nothing opens before the first probe; the
 * descriptor is O_RDWR | O_CLOEXEC, one per process, and the probe leaves
 * it closed; a driver other than the bound algorithm is refused (-ENODEV)
 * and named; -errno of each failing request comes back and no session is
 * left behind; under seccomp nothing is opened; the cap counts sessions;
 * the session is made from the caller's key bytes (no copy to cleanse);
 * results equal OpenSSL's; a wrong tag is -EBADMSG; a forked child neither
 * uses nor frees its parent's sessions and reopens on its own descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "engine/cryptodev_abi.h"
#include "engine/engine.h"
#include "test/unit/check.h"

#define CTR "ctr(aes-eip93)"
#define GCM "gcm_base(ctr(aes-eip93),ghash-generic)"
#define MAXSES 16
#define MAXFDS 4

int __real_open(const char *path, int flags, ...);
int __real_openat(int dirfd, const char *path, int flags, ...);
int __real_ioctl(int fd, unsigned long req, ...);
int __real_close(int fd);
int __wrap_open(const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_close(int fd);
int eip93_sandboxed(void);

/* ---- the stand-in /dev/crypto ---- */

struct standin_ses {
	int used, fd;
	pid_t owner;
	uint32_t id, cipher;
	unsigned char key[32];
	size_t keylen;
};
static struct standin_ses ses[MAXSES];
static int dev_fds[MAXFDS], ndev;	  /* stand-in descriptors open in this process */
static int opens, open_flags, open_errno; /* open_errno: fail the next opens with it */
static int live, freed, foreign;	  /* sessions held; CIOCFSESSIONs; another process's used */
static uint32_t next_id = 0x1000, last_cipher;
static const unsigned char *last_key;
static char drv_ctr[64] = CTR, drv_gcm[64] = GCM;
static unsigned long fail_req; /* the request that fails, with fail_errno */
static int fail_errno, sandboxed;

int eip93_sandboxed(void)
{
	return sandboxed;
}

static void plan(unsigned long req, int err)
{
	fail_req = req;
	fail_errno = err;
}

static int is_dev(int fd)
{
	for (int i = 0; i < ndev; i++)
		if (dev_fds[i] == fd)
			return 1;
	return 0;
}

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	int fd;

	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (strcmp(path, "/dev/crypto") != 0)
		return __real_open(path, flags, mode);
	opens++;
	open_flags = flags;
	if (open_errno != 0) {
		errno = open_errno;
		return -1;
	}
	fd = __real_open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && ndev < MAXFDS)
		dev_fds[ndev++] = fd;
	return fd;
}

int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (strcmp(path, "/dev/crypto") == 0)
		return __wrap_open(path, flags, mode);
	return __real_openat(dirfd, path, flags, mode);
}

int __wrap_close(int fd)
{
	for (int i = 0; i < ndev; i++)
		if (dev_fds[i] == fd)
			dev_fds[i] = dev_fds[--ndev];
	return __real_close(fd);
}

static struct standin_ses *find(int fd, uint32_t id)
{
	for (int i = 0; i < MAXSES; i++)
		if (ses[i].used && ses[i].id == id && ses[i].fd == fd) {
			if (ses[i].owner != getpid())
				foreign++;
			return &ses[i];
		}
	return NULL;
}

static const EVP_CIPHER *aes(const char *mode, size_t keylen)
{
	char name[32];

	snprintf(name, sizeof(name), "AES-%zu-%s", keylen * 8, mode);
	return EVP_get_cipherbyname(name);
}

/* AES-CTR or AES-GCM (enc or dec) of @len bytes; 0, or -EBADMSG for a wrong GCM tag. */
static int compute(const char *mode, const unsigned char *key, size_t keylen,
		   const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		   const unsigned char *in, size_t len, unsigned char *out, unsigned char *tag,
		   int enc)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, ok, gcm = strcmp(mode, "GCM") == 0;

	ok = c != NULL && EVP_CipherInit_ex2(c, aes(mode, keylen), key, iv, enc, NULL);
	if (ok && gcm && aadlen != 0)
		ok = EVP_CipherUpdate(c, NULL, &n, aad, (int)aadlen);
	if (ok && len != 0)
		ok = EVP_CipherUpdate(c, out, &n, in, (int)len);
	if (ok && gcm && !enc)
		ok = EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0;
	if (ok && !EVP_CipherFinal_ex(c, out + n, &n)) {
		EVP_CIPHER_CTX_free(c);
		return -EBADMSG;
	}
	if (ok && gcm && enc)
		ok = EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -EIO;
}

static int session_new(int fd, struct eip93_cdev_session *s)
{
	last_cipher = s->cipher;
	last_key = s->key;
	if (s->cipher != EIP93_CDEV_AES_CTR && s->cipher != EIP93_CDEV_AES_GCM)
		return -EINVAL;
	if (s->keylen != 16 && s->keylen != 24 && s->keylen != 32)
		return -EINVAL;
	for (int i = 0; i < MAXSES; i++) {
		if (ses[i].used)
			continue;
		ses[i].used = 1;
		ses[i].fd = fd;
		ses[i].owner = getpid();
		ses[i].id = next_id++;
		ses[i].cipher = s->cipher;
		memcpy(ses[i].key, s->key, s->keylen);
		ses[i].keylen = s->keylen;
		s->ses = ses[i].id;
		live++;
		return 0;
	}
	return -ENOMEM;
}

static int request(int fd, unsigned long req, void *arg)
{
	struct standin_ses *p;

	if (req == EIP93_CIOCGSESSION)
		return session_new(fd, arg);
	if (req == EIP93_CIOCFSESSION) {
		p = find(fd, *(uint32_t *)arg);
		if (p == NULL)
			return -ENOENT;
		memset(p, 0, sizeof(*p));
		live--;
		freed++;
		return 0;
	}
	if (req == EIP93_CIOCGSESSINFO) {
		struct eip93_cdev_session_info *i = arg;

		p = find(fd, i->ses);
		if (p == NULL)
			return -EINVAL;
		snprintf(i->cipher.name, sizeof(i->cipher.name), "%s",
			 p->cipher == EIP93_CDEV_AES_CTR ? "ctr(aes)" : "gcm(aes)");
		snprintf(i->cipher.driver, sizeof(i->cipher.driver), "%s",
			 p->cipher == EIP93_CDEV_AES_CTR ? drv_ctr : drv_gcm);
		return 0;
	}
	if (req == EIP93_CIOCCRYPT) {
		struct eip93_cdev_crypt *c = arg;

		p = find(fd, c->ses);
		if (p == NULL || p->cipher != EIP93_CDEV_AES_CTR || c->iv == NULL)
			return -EINVAL;
		return compute("CTR", p->key, p->keylen, c->iv, NULL, 0, c->src, c->len, c->dst,
			       NULL, 1);
	}
	if (req == EIP93_CIOCAUTHCRYPT) {
		struct eip93_cdev_auth_crypt *a = arg;
		int enc = a->op == EIP93_CDEV_ENCRYPT;
		size_t n = enc ? a->len : a->len - 16;

		p = find(fd, a->ses);
		if (p == NULL || p->cipher != EIP93_CDEV_AES_GCM || a->tag_len != 16 ||
		    (!enc && a->len < 16) || a->iv == NULL)
			return -EINVAL;
		/* The module's layout: the tag after the data, in dst sealing, in src opening. */
		return compute("GCM", p->key, p->keylen, a->iv, a->auth_src, a->auth_len, a->src, n,
			       a->dst, enc ? a->dst + n : a->src + n, enc);
	}
	return -ENOTTY;
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int r;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	req = (unsigned int)req; /* the kernel's 32-bit command (musl's ioctl() takes an int) */
	if (!is_dev(fd)) {
		if (fcntl(fd, F_GETFD) < 0)
			return -1; /* EBADF: a descriptor this process does not hold */
		return __real_ioctl(fd, req, arg);
	}
	r = req == fail_req ? -fail_errno : request(fd, req, arg);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

/* ---- the checks ---- */

static const struct eip93_engine_ops *E = &eip93_engine_cryptodev;
static unsigned char key32[32];

static int kopen(struct eip93_engine_key *k, const char *kalg, size_t keylen, unsigned int cap)
{
	struct eip93_engine_cfg c = { .kalg = kalg, .max_sockets = cap, .timeout_ms = 100 };

	return E->key_open(k, &c, key32, keylen);
}

/*
 * eip93_cryptodev_probe(@kalg) answers @want and names @driver in the caller's buffer
 * (truncated to a small one), as the ops table's probe answers @want.
 */
static void check_driver(const char *kalg, int want, const char *driver)
{
	char d[EIP93_CDEV_NAME_MAX], small[5];

	memset(d, 'x', sizeof(d));
	CHECK_EQ_INT(eip93_cryptodev_probe(kalg, d, sizeof(d)), want);
	CHECK(strcmp(d, driver) == 0);
	if (strcmp(d, driver) != 0)
		fprintf(stderr, "  driver '%s', expected '%s'\n", d, driver);
	memset(small, 'x', sizeof(small));
	CHECK_EQ_INT(eip93_cryptodev_probe(kalg, small, sizeof(small)), want);
	CHECK(strncmp(small, driver, 4) == 0 && small[strnlen(driver, 4)] == '\0');
	CHECK_EQ_INT(eip93_cryptodev_probe(kalg, NULL, 0), want);
	CHECK_EQ_INT(E->probe(kalg), want);
}

static void probes(void)
{
	struct eip93_engine_key k;

	CHECK_EQ_INT(opens, 0); /* nothing at load */
	CHECK_EQ_INT(E->probe(CTR), 0);
	CHECK_EQ_INT(opens, 1);
	CHECK(open_flags & O_CLOEXEC);
	CHECK_EQ_INT(open_flags & O_ACCMODE, O_RDWR);
	CHECK_EQ_INT(last_cipher, EIP93_CDEV_AES_CTR);
	check_driver(CTR, 0, CTR);
	CHECK_EQ_INT(live, 0); /* the probe's session freed */
	CHECK_EQ_INT(ndev, 0); /* and the descriptor closed */
	CHECK_EQ_INT(E->resources(), 0);
	CHECK_EQ_INT(E->probe(GCM), 0);
	CHECK_EQ_INT(last_cipher, EIP93_CDEV_AES_GCM);
	check_driver(GCM, 0, GCM);

	/* Another driver behind the generic name: refused, and named. */
	snprintf(drv_ctr, sizeof(drv_ctr), "ctr-aes-aesni");
	CHECK_EQ_INT(E->probe(CTR), -ENODEV);
	check_driver(CTR, -ENODEV, "ctr-aes-aesni");
	snprintf(drv_gcm, sizeof(drv_gcm), "gcm-aes-lib");
	CHECK_EQ_INT(E->probe(GCM), -ENODEV);
	check_driver(GCM, -ENODEV, "gcm-aes-lib");
	CHECK_EQ_INT(live, 0);
	eip93_engine_key_init(&k);
	CHECK_EQ_INT(kopen(&k, CTR, 16, 8), -ENODEV); /* at a key open too */
	CHECK_EQ_INT(live, 0);
	CHECK_EQ_INT(E->resources(), 0);
	CHECK(!E->key_is_open(&k));
	snprintf(drv_ctr, sizeof(drv_ctr), CTR);
	snprintf(drv_gcm, sizeof(drv_gcm), GCM);

	/* A key open that failed holds no session: the descriptor is closed again, as after a probe. */
	CHECK_EQ_INT(ndev, 0);
	CHECK_EQ_INT(E->probe(CTR), 0);
	CHECK_EQ_INT(ndev, 0);

	/* No /dev/crypto: open(2)'s errno; no driver to name. */
	open_errno = ENOENT;
	CHECK_EQ_INT(E->probe(CTR), -ENOENT);
	check_driver(CTR, -ENOENT, "");
	open_errno = EACCES;
	CHECK_EQ_INT(kopen(&k, CTR, 16, 8), -EACCES);
	CHECK_EQ_INT(E->resources(), 0);
	open_errno = 0;

	/* Under seccomp, /dev/crypto is never opened. */
	sandboxed = 1;
	opens = 0;
	CHECK_EQ_INT(E->probe(CTR), -EPERM);
	CHECK_EQ_INT(kopen(&k, CTR, 16, 8), -EPERM);
	CHECK_EQ_INT(opens, 0);
	CHECK_EQ_INT(E->resources(), 0);
	sandboxed = 0;
}

static void open_faults(void)
{
	struct eip93_engine_key k;

	eip93_engine_key_init(&k);
	plan(EIP93_CIOCGSESSION, ENOMEM);
	CHECK_EQ_INT(kopen(&k, CTR, 16, 8), -ENOMEM);
	plan(EIP93_CIOCGSESSION, EINVAL);
	CHECK_EQ_INT(kopen(&k, GCM, 16, 8), -EINVAL);
	plan(EIP93_CIOCGSESSINFO, EIO);
	CHECK_EQ_INT(kopen(&k, CTR, 16, 8), -EIO);
	CHECK_EQ_INT(live, 0); /* the session made before the failing request is freed */
	plan(0, 0);
	CHECK_EQ_INT(kopen(&k, CTR, 20, 8), -EINVAL);
	CHECK_EQ_INT(E->resources(), 0);
	CHECK(!E->key_is_open(&k));
}

static void ctr_results(void)
{
	static unsigned char in[4103], out[4103], exp[4103];
	unsigned char cb[16], tag[16];
	struct eip93_engine_key k;
	struct eip93_engine_msg m;
	int f0;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 31 + 7);
	memset(cb, 0x3c, 12);
	cb[12] = cb[13] = cb[14] = 0;
	cb[15] = 2;
	for (size_t keylen = 16; keylen <= 32; keylen += 8) {
		eip93_engine_key_init(&k);
		CHECK_EQ_INT(kopen(&k, CTR, keylen, 8), 0);
		CHECK(E->key_is_open(&k));
		CHECK(k.is_ctr);
		CHECK(last_key == key32); /* the caller's bytes: no copy of the key made */
		CHECK_EQ_INT(E->resources(), 1);
		CHECK_EQ_INT(
			compute("CTR", key32, keylen, cb, NULL, 0, in, sizeof(in), exp, NULL, 1),
			0);
		memset(&m, 0, sizeof(m));
		m.iv = cb;
		m.in = in;
		m.out = out;
		m.len = sizeof(in);
		CHECK_EQ_INT(E->skc(&k, &m, 1), 0);
		CHECK(memcmp(out, exp, sizeof(out)) == 0);
		memcpy(out, in, sizeof(in)); /* in place */
		m.in = out;
		CHECK_EQ_INT(E->skc(&k, &m, 0), 0);
		CHECK(memcmp(out, exp, sizeof(out)) == 0);
		m.in = in;
		m.len = 1;
		CHECK_EQ_INT(E->skc(&k, &m, 1), 0);
		CHECK_EQ_INT(out[0], exp[0]);
		plan(EIP93_CIOCCRYPT, EIO);
		CHECK_EQ_INT(E->skc(&k, &m, 1), -EIO);
		plan(0, 0);
		m.tag = tag;
		CHECK_EQ_INT(E->seal(&k, &m), -EBADF); /* not an AEAD session */
		f0 = freed;
		E->key_close(&k);
		CHECK_EQ_INT(freed, f0 + 1);
		E->key_close(&k); /* idempotent */
		CHECK_EQ_INT(freed, f0 + 1);
		CHECK(!E->key_is_open(&k));
		CHECK_EQ_INT(E->skc(&k, &m, 1), -EBADF);
		CHECK_EQ_INT(live, 0);
		CHECK_EQ_INT(E->resources(), 0);
	}
}

static void gcm_results(void)
{
	static unsigned char in[1000], out[1000], exp[1000];
	unsigned char iv[12], aad[13], tag[16] = { 0 }, etag[16];
	struct eip93_engine_key k;
	struct eip93_engine_msg m;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 17 + 3);
	memset(iv, 0x5a, sizeof(iv));
	memset(aad, 0xa1, sizeof(aad));
	eip93_engine_key_init(&k);
	CHECK_EQ_INT(kopen(&k, GCM, 32, 8), 0);
	CHECK(!k.is_ctr);
	CHECK_EQ_INT(compute("GCM", key32, 32, iv, aad, sizeof(aad), in, sizeof(in), exp, etag, 1),
		     0);
	memset(&m, 0, sizeof(m));
	m.iv = iv;
	m.aad = aad;
	m.aadlen = sizeof(aad);
	m.in = in;
	m.out = out;
	m.len = sizeof(in);
	m.tag = tag;
	CHECK_EQ_INT(E->seal(&k, &m), 0);
	CHECK(memcmp(out, exp, sizeof(out)) == 0 && memcmp(tag, etag, 16) == 0);
	m.in = out; /* open in place */
	CHECK_EQ_INT(E->unseal(&k, &m), 0);
	CHECK(memcmp(out, in, sizeof(in)) == 0);
	memcpy(out, exp, sizeof(out));
	tag[7] ^= 0x40;
	CHECK_EQ_INT(E->unseal(&k, &m), -EBADMSG);
	CHECK(memcmp(out, exp, sizeof(out)) == 0); /* nothing released */
	tag[7] ^= 0x40;
	plan(EIP93_CIOCAUTHCRYPT, EIO);
	CHECK_EQ_INT(E->unseal(&k, &m), -EIO);
	CHECK_EQ_INT(E->seal(&k, &m), -EIO);
	plan(0, 0);
	m.aad = NULL; /* no AAD */
	m.aadlen = 0;
	m.in = in;
	CHECK_EQ_INT(compute("GCM", key32, 32, iv, NULL, 0, in, sizeof(in), exp, etag, 1), 0);
	CHECK_EQ_INT(E->seal(&k, &m), 0);
	CHECK(memcmp(out, exp, sizeof(out)) == 0 && memcmp(tag, etag, 16) == 0);
	m.aadlen = EIP93_ENGINE_MAX_AAD + 1;
	CHECK_EQ_INT(E->seal(&k, &m), -EINVAL);
	CHECK_EQ_INT(E->skc(&k, &m, 1), -EBADF); /* not a CTR session */
	E->key_close(&k);
	CHECK_EQ_INT(live, 0);
}

static void cap_and_descriptor(void)
{
	struct eip93_engine_key k[3];
	int o;

	CHECK_EQ_INT(E->probe(CTR), 0); /* the descriptor closed */
	o = opens;

	for (int i = 0; i < 3; i++)
		eip93_engine_key_init(&k[i]);
	CHECK_EQ_INT(kopen(&k[0], CTR, 16, 2), 0);
	CHECK_EQ_INT(kopen(&k[1], GCM, 16, 2), 0);
	CHECK_EQ_INT(kopen(&k[2], CTR, 16, 2), -EMFILE);
	CHECK_EQ_INT(E->resources(), 2);
	CHECK_EQ_INT(live, 2);
	CHECK_EQ_INT(opens, o + 1); /* one descriptor for every key */
	CHECK_EQ_INT(ndev, 1);
	E->key_close(&k[0]);
	CHECK_EQ_INT(E->resources(), 1);
	CHECK_EQ_INT(kopen(&k[2], CTR, 16, 2), 0);
	CHECK_EQ_INT(E->probe(CTR), 0); /* a probe with keys open leaves the descriptor */
	CHECK_EQ_INT(ndev, 1);
	E->key_close(&k[1]);
	E->key_close(&k[2]);
	CHECK_EQ_INT(E->resources(), 0);
	CHECK_EQ_INT(live, 0);
}

static void fork_child(struct eip93_engine_key *k, struct eip93_engine_key *k2, int pfd)
{
	static unsigned char in[256], out[256], exp[256];
	unsigned char cb[16] = { 1, 2, 3 };
	struct eip93_engine_msg m = { .iv = cb, .in = in, .out = out, .len = sizeof(in) };
	int f0 = freed, o0 = opens;

	CHECK_EQ_INT(fcntl(pfd, F_GETFD), -1); /* the parent's descriptor is gone */
	CHECK(!E->key_is_open(k));	       /* its sessions are the parent's */
	CHECK(!E->key_is_open(k2));
	CHECK_EQ_INT(E->resources(), 0);
	CHECK_EQ_INT(E->skc(k, &m, 1), -EBADF);
	CHECK_EQ_INT(kopen(k, CTR, 16, 8), 0); /* what alg/key.c does next */
	CHECK_EQ_INT(freed, f0);	       /* reopening freed nothing of the parent's */
	CHECK_EQ_INT(opens, o0 + 1);	       /* on a descriptor of its own */
	CHECK_EQ_INT(ndev, 1);
	CHECK_EQ_INT(compute("CTR", key32, 16, cb, NULL, 0, in, sizeof(in), exp, NULL, 1), 0);
	CHECK_EQ_INT(E->skc(k, &m, 1), 0);
	CHECK(memcmp(out, exp, sizeof(out)) == 0);
	E->key_close(k2); /* the parent's: not freed from here */
	CHECK_EQ_INT(freed, f0);
	E->key_close(k);
	CHECK_EQ_INT(freed, f0 + 1);
	CHECK_EQ_INT(foreign, 0); /* no request ever named a parent's session */
	CHECK_EQ_INT(E->resources(), 0);
	_exit(check_failures == 0 ? 0 : 1);
}

static void forked(void)
{
	static unsigned char in[256], out[256], exp[256];
	unsigned char cb[16] = { 9 };
	struct eip93_engine_msg m = { .iv = cb, .in = in, .out = out, .len = sizeof(in) };
	struct eip93_engine_key k, k2;
	pid_t pid;
	int st = -1;

	eip93_engine_key_init(&k);
	eip93_engine_key_init(&k2);
	CHECK_EQ_INT(kopen(&k, CTR, 16, 8), 0);
	CHECK_EQ_INT(kopen(&k2, GCM, 16, 8), 0);
	CHECK_EQ_INT(ndev, 1);
	CHECK_EQ_INT(E->skc(&k, &m, 1), 0);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		fork_child(&k, &k2, dev_fds[0]);
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* The parent's keys are untouched. */
	CHECK(E->key_is_open(&k) && E->key_is_open(&k2));
	CHECK_EQ_INT(E->resources(), 2);
	CHECK_EQ_INT(compute("CTR", key32, 16, cb, NULL, 0, in, sizeof(in), exp, NULL, 1), 0);
	CHECK_EQ_INT(E->skc(&k, &m, 1), 0);
	CHECK(memcmp(out, exp, sizeof(out)) == 0);
	E->key_close(&k);
	CHECK_EQ_INT(ndev, 1); /* k2 still holds a session */
	E->key_close(&k2);
	CHECK_EQ_INT(live, 0);
	CHECK_EQ_INT(ndev, 0); /* the last key's close closes the descriptor */
	CHECK_EQ_INT(foreign, 0);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(key32); i++)
		key32[i] = (unsigned char)(0xc0 + i);
	probes();
	open_faults();
	ctr_results();
	gcm_results();
	cap_and_descriptor();
	forked();
	return check_done("test_cryptodev");
}
