// SPDX-License-Identifier: Apache-2.0
/*
 * engine/cryptodev.c's page layout (m->pages, engine/engine.h): the phases a
 * request that succeeds reports are those of the buffers it handed the
 * module, as cryptodev-linux uses them (the header comment of
 * engine/cryptodev.c): CIOCCRYPT the src and dst pages (zero copy) and phase 0
 * (its one-page bounce path); CIOCAUTHCRYPT the src and dst it passed (the
 * caller's, or the backend's own buffer), no phase 0.  A tiny stand-in
 * /dev/crypto (the link wraps open, openat, ioctl and close; descriptors on
 * /dev/null) serves sessions and records the pointers of each request
 * without computing anything.  A failed request reports nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/cryptodev_abi.h"
#include "engine/engine.h"
#include "test/unit/check.h"

#define CTR "ctr(aes-eip93)"
#define GCM "gcm_base(ctr(aes-eip93),ghash-generic)"
#define PG ((size_t)EIP93_ENGINE_PAGE)

int __real_open(const char *path, int flags, ...);
int __real_openat(int dirfd, const char *path, int flags, ...);
int __real_ioctl(int fd, unsigned long req, ...);
int __real_close(int fd);
int __wrap_open(const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_close(int fd);
int eip93_sandboxed(void);

/* ---- the stand-in: sessions by number, each request's pointers recorded ---- */

static int dev_fd = -1, fail_errno;
static uint32_t ciphers[8], nses;
static const unsigned char *last_src, *last_dst;

int eip93_sandboxed(void)
{
	return 0;
}

int __wrap_open(const char *path, int flags, ...)
{
	if (strcmp(path, "/dev/crypto") != 0)
		return __real_open(path, flags, 0);
	dev_fd = __real_open("/dev/null", O_RDONLY | O_CLOEXEC);
	return dev_fd;
}

int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	if (strcmp(path, "/dev/crypto") == 0)
		return __wrap_open(path, flags);
	return __real_openat(dirfd, path, flags, 0);
}

int __wrap_close(int fd)
{
	if (fd == dev_fd)
		dev_fd = -1;
	return __real_close(fd);
}

static int request(unsigned long req, void *arg)
{
	if (req == EIP93_CIOCGSESSION) {
		struct eip93_cdev_session *s = arg;

		if (nses == sizeof(ciphers) / sizeof(ciphers[0]))
			return -ENOMEM;
		ciphers[nses] = s->cipher;
		s->ses = nses++;
		return 0;
	}
	if (req == EIP93_CIOCGSESSINFO) {
		struct eip93_cdev_session_info *i = arg;

		snprintf(i->cipher.driver, sizeof(i->cipher.driver), "%s",
			 ciphers[i->ses] == EIP93_CDEV_AES_CTR ? CTR : GCM);
		return 0;
	}
	if (req == EIP93_CIOCFSESSION)
		return 0;
	if (fail_errno != 0)
		return -fail_errno;
	if (req == EIP93_CIOCCRYPT) {
		struct eip93_cdev_crypt *c = arg;

		last_src = c->src;
		last_dst = c->dst;
		return 0;
	}
	if (req == EIP93_CIOCAUTHCRYPT) {
		struct eip93_cdev_auth_crypt *a = arg;

		last_src = a->src;
		last_dst = a->dst;
		return 0;
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
	if (fd != dev_fd)
		return __real_ioctl(fd, req, arg);
	r = request(req, arg);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

/* ---- the checks ---- */

static const struct eip93_engine_ops *E = &eip93_engine_cryptodev;
static unsigned char *a, *b; /* page-aligned, 4 pages each */

/* The phase of a buffer whose payload starts at @p: its first page boundary's payload offset. */
static unsigned int phase(const void *p)
{
	return (unsigned int)((PG - (uintptr_t)p % PG) % PG);
}

/* @got lists exactly the @n phases that follow (in any order). */
static int same(const struct eip93_engine_pages *got, unsigned int n, ...)
{
	unsigned int want[EIP93_ENGINE_MAX_PHASES], k = 0;
	va_list ap;
	int ok = got->n == n;

	va_start(ap, n);
	for (unsigned int i = 0; i < n && i < EIP93_ENGINE_MAX_PHASES; i++)
		want[k++] = va_arg(ap, unsigned int);
	va_end(ap);
	for (unsigned int i = 0; ok && i < k; i++) {
		int found = 0;

		for (unsigned int j = 0; j < got->n; j++)
			found |= got->q[j] == want[i];
		ok = found;
	}
	if (!ok) {
		fprintf(stderr, "  phases reported:");
		for (unsigned int j = 0; j < got->n; j++)
			fprintf(stderr, " %u", got->q[j]);
		fprintf(stderr, " (want %u of them)\n", n);
	}
	return ok;
}

static void kopen(struct eip93_engine_key *k, const char *kalg)
{
	static const unsigned char key[16];
	struct eip93_engine_cfg c = { .kalg = kalg, .max_sockets = 8, .timeout_ms = 100 };

	eip93_engine_key_init(k);
	CHECK_EQ_INT(E->key_open(k, &c, key, sizeof(key)), 0);
}

/* One request on @k: @fn's answer, the phases it reported in @pg (cleared first). */
static int run(struct eip93_engine_key *k, int op, struct eip93_engine_msg *m,
	       struct eip93_engine_pages *pg)
{
	memset(pg, 0, sizeof(*pg));
	m->pages = pg;
	last_src = last_dst = NULL;
	return op == 0 ? E->skc(k, m, 1) : op == 1 ? E->seal(k, m) : E->unseal(k, m);
}

static void ctr_layouts(void)
{
	static const unsigned char iv[EIP93_ENGINE_CTRBLK];
	struct eip93_engine_key k;
	struct eip93_engine_pages pg;
	struct eip93_engine_msg m = { .iv = iv };

	kopen(&k, CTR);
	/* In place, 100 bytes into a page: its phase and the bounce path's 0. */
	m.in = m.out = a + 100;
	m.len = 5000;
	CHECK_EQ_INT(run(&k, 0, &m, &pg), 0);
	CHECK(last_src == a + 100 && last_dst == a + 100);
	CHECK(same(&pg, 2, 3996u, 0u));
	/* Not in place: both buffers' phases, and 0. */
	m.in = a + 100;
	m.out = b + 2048;
	m.len = 3 * PG;
	CHECK_EQ_INT(run(&k, 0, &m, &pg), 0);
	CHECK(last_src == a + 100 && last_dst == b + 2048);
	CHECK(same(&pg, 3, 3996u, 2048u, 0u));
	m.in = a + 4095; /* input one byte before a boundary, output aligned */
	m.out = b;
	CHECK_EQ_INT(run(&k, 0, &m, &pg), 0);
	CHECK(same(&pg, 2, 1u, 0u));
	/* Page-aligned, in place: one phase. */
	m.in = m.out = a;
	CHECK_EQ_INT(run(&k, 0, &m, &pg), 0);
	CHECK(same(&pg, 1, 0u));
	/* No payload, a failed request, no pages wanted: nothing reported, nothing broken. */
	m.in = m.out = a + 100;
	m.len = 0;
	CHECK_EQ_INT(run(&k, 0, &m, &pg), 0);
	CHECK_EQ_INT(pg.n, 0);
	m.len = 64;
	fail_errno = EIO;
	CHECK_EQ_INT(run(&k, 0, &m, &pg), -EIO);
	CHECK_EQ_INT(pg.n, 0);
	fail_errno = 0;
	m.pages = NULL;
	CHECK_EQ_INT(E->skc(&k, &m, 0), 0);
	E->key_close(&k);
}

static void gcm_layouts(void)
{
	static const unsigned char iv[EIP93_ENGINE_IVLEN], aad[20];
	struct eip93_engine_key k;
	struct eip93_engine_pages pg;
	struct eip93_engine_msg m = { .iv = iv, .aad = aad, .aadlen = sizeof(aad) };
	unsigned char tag[EIP93_ENGINE_TAGLEN];

	kopen(&k, GCM);
	/* Sealing with the tag right after the output: the caller's src and dst, no 0. */
	m.in = a + 100;
	m.out = b + 2048;
	m.len = 3000;
	m.tag = b + 2048 + 3000;
	CHECK_EQ_INT(run(&k, 1, &m, &pg), 0);
	CHECK(last_src == a + 100 && last_dst == b + 2048);
	CHECK(same(&pg, 2, 3996u, 2048u));
	/* Sealing in place, tag after it: one buffer, one phase. */
	m.in = m.out = a + 300;
	m.tag = a + 300 + 3000;
	CHECK_EQ_INT(run(&k, 1, &m, &pg), 0);
	CHECK(last_src == a + 300 && last_dst == a + 300);
	CHECK(same(&pg, 1, 3796u));
	/* Sealing with the tag elsewhere: the backend's own buffer, in place, alone. */
	m.in = a + 100;
	m.out = b + 2048;
	m.tag = tag;
	CHECK_EQ_INT(run(&k, 1, &m, &pg), 0);
	CHECK(last_src != NULL && last_src == last_dst && last_dst != b + 2048 &&
	      last_src != a + 100);
	CHECK(same(&pg, 1, phase(last_dst)));
	/* Opening in place with the tag after the data (a TLS 1.2 record): that buffer. */
	m.in = m.out = b + 10;
	m.tag = b + 10 + 3000;
	CHECK_EQ_INT(run(&k, 2, &m, &pg), 0);
	CHECK(last_src == b + 10 && last_dst == b + 10);
	CHECK(same(&pg, 1, 4086u));
	/* Opening not in place: the backend's own buffer, in place, alone. */
	m.in = a + 100;
	m.out = b + 2048;
	m.tag = tag;
	CHECK_EQ_INT(run(&k, 2, &m, &pg), 0);
	CHECK(last_src != NULL && last_src == last_dst && last_src != a + 100);
	CHECK(same(&pg, 1, phase(last_src)));
	/* A failed request reports nothing. */
	fail_errno = EBADMSG;
	CHECK_EQ_INT(run(&k, 2, &m, &pg), -EBADMSG);
	CHECK_EQ_INT(pg.n, 0);
	fail_errno = 0;
	E->key_close(&k);
}

int main(void)
{
	a = aligned_alloc(PG, 4 * PG);
	b = aligned_alloc(PG, 4 * PG);
	if (a == NULL || b == NULL)
		return 2;
	memset(a, 0, 4 * PG);
	memset(b, 0, 4 * PG);
	ctr_layouts();
	gcm_layouts();
	CHECK_EQ_INT(dev_fd, -1); /* the last key's close closed the descriptor */
	free(a);
	free(b);
	return check_done("test_cdev_pages");
}
