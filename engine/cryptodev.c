// SPDX-License-Identifier: Apache-2.0
/*
 * The /dev/crypto backend (the cryptodev-linux module) behind engine/engine.h:
 * a session per key, one ioctl per message.
 *
 * Compositions: a key on ctr(aes-eip93) opens a CRYPTO_AES_CTR session and
 * each skc() is one CIOCCRYPT (AES-CTR messages, and the CTR-only GCM
 * composition: GHASH and the tag in libcrypto, alg/gcm/compose.c); a key on
 * cbc(aes-eip93) a CRYPTO_AES_CBC session, each skc() one CIOCCRYPT in its
 * direction; a key on a kernel AES-GCM such as
 * gcm_base(ctr(aes-eip93),ghash-generic) opens a CRYPTO_AES_GCM session and
 * each seal() or unseal() is one CIOCAUTHCRYPT (a wrong tag: -EBADMSG).  The
 * module asks the kernel for the generic names "ctr(aes)", "cbc(aes)" and "gcm(aes)",
 * which resolve by priority and may land on a CPU implementation; a session
 * is therefore used only when CIOCGSESSINFO names, as its driver, exactly the
 * kernel algorithm the gate bound.  Any other driver (ctr-aes-aesni,
 * gcm-aes-lib, ...) is refused with -ENODEV, at the probe and at every key
 * open, and the probe hands the name it found to its caller, for the
 * gate's status (eip93_cryptodev_probe(), engine/engine.h).  -ENOENT stays what
 * open(2) says of a missing /dev/crypto (the module not loaded), -EACCES an
 * unreadable one.
 *
 * Processes (docs/contract.md "Processes and secrets"): one /dev/crypto
 * descriptor per process, opened lazily (at the first key open, or for the
 * gate's probe; never at provider load) and closed again whenever no key
 * holds a session and no probe uses it (after the last probe, and at the
 * last key's close), O_CLOEXEC, and never under a seccomp filter (the probe
 * and the open ask eip93_sandboxed(); alg/key.c asks it too before any key
 * opens).  Every provider instance of the process shares it: a probe counts
 * itself among its users while it holds it (under the descriptor's lock),
 * so another instance's probe or last key close never closes it under the
 * probe.  Sessions belong to the open file, which a forked child
 * shares with its parent: the child must neither use nor free them.  A
 * pthread_atfork child handler closes the child's copy of the descriptor
 * and starts a new generation; a key whose session is of an older
 * generation reads as closed (key_is_open() 0), so alg/key.c opens it again
 * on a descriptor of the child's own, and closing it frees nothing of the
 * parent's.  The descriptor is opened and stored under the lock the fork
 * handlers take, so no fork sees it open but unrecorded.
 *
 * The cap (cfg->max_sockets, "max-sockets"): what a key holds here is a
 * kernel session (a transform), not a descriptor, so each open key counts
 * one against the cap and resources() reports the sessions this process
 * holds; the shared descriptor and the probe's transient session do not
 * count.  At the cap key_open() returns -EMFILE, as the AF_ALG backend does.
 *
 * Timeouts (cfg->timeout_ms) do not apply: CIOCCRYPT and CIOCAUTHCRYPT
 * are synchronous, and the module waits for an asynchronous driver's
 * completion uninterruptibly, so no descriptor option or signal bounds a
 * request from user space the way SO_RCVTIMEO bounds an AF_ALG read.  A
 * stuck driver blocks the calling thread; bounding it would need the
 * module's asynchronous requests (CIOCASYNCCRYPT with poll), a later step.
 *
 * Errors are -errno from the ioctls, classified as for AF_ALG
 * (eip93_route_resource_error(), alg/route.h; accounting in alg/account.c):
 * ENOMEM, ENOBUFS, EMFILE, ENFILE and EFAULT say nothing about the engine;
 * anything else (EINVAL, EIO, ENODEV, ...) does.
 *
 * Page layout (m->pages, engine/engine.h; the module's source is the
 * reference): CIOCCRYPT (main.c crypto_run) runs zero copy when it can:
 * __crypto_run_zc() has zc.c get_userbuf() pin the caller's src and dst
 * pages and hands the engine scatterlists over them (one list when src is
 * dst), so the engine reads and writes the caller's pages, breaking where
 * their addresses do.  When the transform's alignmask rejects either
 * address, or pinning fails, it runs __crypto_run_std() instead: one kernel
 * page (__get_free_page) as a bounce buffer, filled, run in place and
 * copied back in PAGE_SIZE chunks from payload offset 0, so the engine's
 * buffer breaks at payload offsets k * PAGE_SIZE.  Which of the two ran is
 * not visible from user space (the alignmask may be known, a failed pin
 * is not), so a CIOCCRYPT reports all three: the phases of m->in and
 * m->out and phase 0.  CIOCAUTHCRYPT (authenc.c crypto_auth_run,
 * crypto_auth_zc_aead) has no bounce path: it pins the src and dst pages it
 * is given (get_userbuf(); a failure is an error) and copies the AAD into
 * a kernel page of its own, chained before them, so the payload starts a
 * new scatterlist entry at its user page offset and the AAD moves no page
 * boundary of it; it reports the phases of the src and dst it passed: the
 * caller's buffers or gcm_request()'s own buffer.  A request with no
 * payload reports nothing.
 *
 * Keys: the session is created from the caller's key bytes directly; this
 * backend makes no copy of a key (the module copies it into the kernel's
 * transform), so there is nothing of it to cleanse here.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "cryptodev_abi.h"
#include "engine.h"
#include "../detect/sandbox.h"

#define CDEV_PATH "/dev/crypto"

/*
 * Process-wide by nature: the descriptor, its generation (a new one in
 * each forked child), the sessions held (for the cap) and the probes using
 * the descriptor now (under cd_lock; they keep it open, as a session does).
 */
static pthread_mutex_t cd_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int cd_fd = -1;
static atomic_uint cd_gen;
static atomic_uint cd_sessions;
static unsigned int cd_probes;
static pthread_once_t cd_once = PTHREAD_ONCE_INIT;

/* One key's session. */
struct cdev_key {
	uint32_t ses;
	unsigned int gen; /* the generation of the descriptor it was created on */
	int fd;
};

static void atfork_prepare(void)
{
	pthread_mutex_lock(&cd_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&cd_lock);
}

/* In the child: the parent's descriptor and sessions are the parent's. */
static void atfork_child(void)
{
	int fd = atomic_exchange(&cd_fd, -1);

	if (fd >= 0)
		close(fd);
	atomic_fetch_add(&cd_gen, 1);
	atomic_store(&cd_sessions, 0);
	cd_probes = 0; /* the probing threads are the parent's */
	pthread_mutex_unlock(&cd_lock);
}

static void atfork_register(void)
{
	(void)pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/*
 * The process's descriptor, opened on first use; its generation in @gen.
 * @probe: count the caller among the probes holding it (it stays open
 * until probe_done()).  fd or -errno.
 */
static int cdev_fd(unsigned int *gen, int probe)
{
	int fd, err = 0;

	pthread_once(&cd_once, atfork_register);
	if (eip93_sandboxed())
		return -EPERM;
	pthread_mutex_lock(&cd_lock);
	fd = atomic_load(&cd_fd);
	if (fd < 0) {
		fd = open(CDEV_PATH, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			err = -errno;
		else
			atomic_store(&cd_fd, fd);
	}
	if (err == 0 && probe)
		cd_probes++;
	*gen = atomic_load(&cd_gen);
	pthread_mutex_unlock(&cd_lock);
	return err < 0 ? err : fd;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

static void free_session(int fd, uint32_t ses)
{
	(void)xioctl(fd, EIP93_CIOCFSESSION, &ses);
}

/*
 * A session of @kalg's type with @key, kept only when its driver is @kalg.
 * The driver found goes to @driver (EIP93_CDEV_NAME_MAX bytes) when not
 * NULL.  0 and *ses, -ENODEV (another driver) or -errno.
 */
static int new_session(int fd, const char *kalg, const unsigned char *key, size_t keylen,
		       uint32_t *ses, char *driver)
{
	struct eip93_cdev_session s;
	struct eip93_cdev_session_info info;
	int r;

	memset(&s, 0, sizeof(s));
	switch (eip93_engine_kalg_mode(kalg)) {
	case EIP93_EMODE_CTR:
		s.cipher = EIP93_CDEV_AES_CTR;
		break;
	case EIP93_EMODE_CBC:
		s.cipher = EIP93_CDEV_AES_CBC;
		break;
	case EIP93_EMODE_ECB:
		s.cipher = EIP93_CDEV_AES_ECB;
		break;
	default:
		s.cipher = EIP93_CDEV_AES_GCM;
		break;
	}
	s.keylen = (uint32_t)keylen;
	s.key = (unsigned char *)key; /* read only, by the kernel */
	r = xioctl(fd, EIP93_CIOCGSESSION, &s);
	if (r < 0)
		return r;
	memset(&info, 0, sizeof(info));
	info.ses = s.ses;
	r = xioctl(fd, EIP93_CIOCGSESSINFO, &info);
	if (r == 0) {
		info.cipher.driver[sizeof(info.cipher.driver) - 1] = '\0';
		if (driver != NULL)
			memcpy(driver, info.cipher.driver, sizeof(info.cipher.driver));
		if (strcmp(info.cipher.driver, kalg) != 0)
			r = -ENODEV;
	}
	if (r < 0) {
		free_session(fd, s.ses);
		return r;
	}
	*ses = s.ses;
	return 0;
}

/*
 * With no session held and no probe using it, the descriptor closes again:
 * a probe leaves nothing open, and neither does the last key's close (so
 * nothing stays open once the keys are freed, nor after the provider is
 * unloaded).  A key open reserves its session before it asks for the
 * descriptor, and a probe counts itself when it takes it (cdev_fd()), so
 * neither can be on its way to, or using, the one this closes.
 * @probe_done: the caller is a probe that is done with it.
 */
static void close_if_idle(int probe_done)
{
	int fd;

	pthread_mutex_lock(&cd_lock);
	if (probe_done && cd_probes > 0)
		cd_probes--;
	fd = atomic_load(&cd_fd);
	if (fd >= 0 && atomic_load(&cd_sessions) == 0 && cd_probes == 0) {
		atomic_store(&cd_fd, -1);
		close(fd);
	}
	pthread_mutex_unlock(&cd_lock);
}

int eip93_cryptodev_probe(const char *kalg, char *driver, size_t n)
{
	static const unsigned char zero_key[16]; /* not a secret: the probe's key */
	char found[EIP93_CDEV_NAME_MAX] = "";
	unsigned int gen;
	uint32_t ses;
	int fd, r;

	fd = cdev_fd(&gen, 1);
	if (fd < 0) {
		r = fd;
	} else {
		r = new_session(fd, kalg, zero_key, sizeof(zero_key), &ses, found);
		if (r == 0)
			free_session(fd, ses);
		close_if_idle(1);
	}
	if (driver != NULL && n > 0) {
		size_t len = strnlen(found, sizeof(found) - 1);

		if (len >= n)
			len = n - 1;
		memcpy(driver, found, len);
		driver[len] = '\0';
	}
	return r;
}

/* The ops table's probe: the same, the driver not wanted. */
static int cd_probe(const char *kalg)
{
	return eip93_cryptodev_probe(kalg, NULL, 0);
}

static int cd_is_open(const struct eip93_engine_key *k)
{
	const struct cdev_key *p = k->priv;

	return p != NULL && p->gen == atomic_load(&cd_gen);
}

static void cd_close(struct eip93_engine_key *k)
{
	struct cdev_key *p = k->priv;

	if (p == NULL)
		return;
	/* A session of an older generation is the parent's: neither freed nor counted here. */
	if (p->gen == atomic_load(&cd_gen)) {
		free_session(p->fd, p->ses);
		if (atomic_fetch_sub(&cd_sessions, 1) == 1)
			close_if_idle(0);
	}
	free(p);
	k->priv = NULL;
}

/* Reserve one session under the cap; 0 or -EMFILE. */
static int reserve(unsigned int cap)
{
	unsigned int cur = atomic_load(&cd_sessions);

	do {
		if (cur + 1 > cap)
			return -EMFILE;
	} while (!atomic_compare_exchange_weak(&cd_sessions, &cur, cur + 1));
	return 0;
}

static int cd_open(struct eip93_engine_key *k, const struct eip93_engine_cfg *c,
		   const unsigned char *key, size_t keylen)
{
	struct cdev_key *p;
	int fd, r;

	cd_close(k);
	eip93_engine_key_mode(k, c->kalg);
	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	r = reserve(c->max_sockets);
	if (r < 0)
		return r;
	p = malloc(sizeof(*p));
	if (p == NULL) {
		r = -ENOMEM;
		goto err;
	}
	fd = cdev_fd(&p->gen, 0);
	if (fd < 0) {
		r = fd;
		goto err;
	}
	p->fd = fd;
	r = new_session(fd, c->kalg, key, keylen, &p->ses, NULL);
	if (r < 0)
		goto err;
	k->priv = p;
	return 0;

err:
	free(p);
	if (atomic_fetch_sub(&cd_sessions, 1) == 1)
		close_if_idle(0);
	return r;
}

/* The session of an open key of the right kind (an AEAD, or an skcipher: @skc), or NULL. */
static const struct cdev_key *usable(const struct eip93_engine_key *k, int skc)
{
	return cd_is_open(k) && (k->mode != EIP93_EMODE_AEAD) == skc ? k->priv : NULL;
}

/*
 * One CIOCAUTHCRYPT.  The module wants the tag next to the data (sealing:
 * written after the ciphertext; opening: read after it).  When the caller's
 * buffers are laid out so (sealing: m->tag right after m->out; opening in
 * place: m->tag right after m->in, as a TLS 1.2 record is), the request
 * uses them directly.  Otherwise the message passes through a buffer of
 * len + 16 bytes, run in place: it holds a copy of the input first (so a
 * block the engine skips is its input there too, as in the caller's
 * destination, and never stale memory) and is cleansed after.  m->out and
 * m->tag are written only on success (the direct seal writes them as the
 * request runs; a failed seal's output is released by no caller).
 */
static int gcm_request(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc)
{
	const struct cdev_key *p = usable(k, 0);
	struct eip93_cdev_auth_crypt a;
	unsigned char iv[EIP93_ENGINE_IVLEN], *buf = NULL;
	size_t blen = m->len + EIP93_ENGINE_TAGLEN;
	int r, direct;

	if (p == NULL)
		return -EBADF;
	if (m->aadlen > EIP93_ENGINE_MAX_AAD || m->len > UINT32_MAX - EIP93_ENGINE_TAGLEN)
		return -EINVAL;
	direct = enc ? m->tag == m->out + m->len : m->out == m->in && m->tag == m->out + m->len;
	if (!direct) {
		buf = OPENSSL_malloc(blen);
		if (buf == NULL)
			return -ENOMEM;
	}
	memcpy(iv, m->iv, sizeof(iv));
	memset(&a, 0, sizeof(a));
	a.ses = p->ses;
	a.op = enc ? EIP93_CDEV_ENCRYPT : EIP93_CDEV_DECRYPT;
	a.auth_len = (uint32_t)m->aadlen;
	a.auth_src = m->aadlen != 0 ? (unsigned char *)m->aad : NULL; /* read only */
	a.dst = direct ? m->out : buf;
	a.tag_len = EIP93_ENGINE_TAGLEN;
	a.iv = iv;
	a.iv_len = EIP93_ENGINE_IVLEN;
	if (!direct) {
		if (m->len != 0)
			memcpy(buf, m->in, m->len);
		if (enc)
			memset(buf + m->len, 0, EIP93_ENGINE_TAGLEN);
		else
			memcpy(buf + m->len, m->tag, EIP93_ENGINE_TAGLEN);
	}
	if (enc) {
		a.src = direct ? (unsigned char *)m->in : buf; /* m->in read only */
		a.len = (uint32_t)m->len;
	} else {
		a.src = direct ? m->out : buf;
		a.len = (uint32_t)blen;
	}
	r = xioctl(p->fd, EIP93_CIOCAUTHCRYPT, &a);
	if (r == 0 && m->len != 0) {
		eip93_engine_pages_buf(m->pages, a.src);
		eip93_engine_pages_buf(m->pages, a.dst);
	}
	if (direct)
		return r;
	if (r == 0) {
		if (m->len != 0)
			memcpy(m->out, buf, m->len);
		if (enc)
			memcpy(m->tag, buf + m->len, EIP93_ENGINE_TAGLEN);
	}
	OPENSSL_clear_free(buf, blen); /* may hold the plaintext either way */
	return r;
}

static int cd_seal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return gcm_request(k, m, 1);
}

static int cd_unseal(struct eip93_engine_key *k, const struct eip93_engine_msg *m)
{
	return gcm_request(k, m, 0);
}

/*
 * One CIOCCRYPT, in place or not: AES-CTR from the counter block m->iv
 * (asked as an encryption whatever it serves), AES-CBC from the chaining
 * value m->iv in the direction @enc, AES-ECB (no IV: m->iv NULL) as an
 * encryption.
 */
static int cd_skc(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc)
{
	const struct cdev_key *p = usable(k, 1);
	struct eip93_cdev_crypt c;
	unsigned char ctrblk[EIP93_ENGINE_CTRBLK];
	int r;

	if (p == NULL)
		return -EBADF;
	if (m->len > UINT32_MAX || (k->mode == EIP93_EMODE_ECB) != (m->iv == NULL) ||
	    (k->mode != EIP93_EMODE_CTR && m->len % EIP93_ENGINE_CTRBLK != 0))
		return -EINVAL;
	if (m->iv != NULL)
		memcpy(ctrblk, m->iv, sizeof(ctrblk));
	memset(&c, 0, sizeof(c));
	c.ses = p->ses;
	c.op = k->mode == EIP93_EMODE_CBC && !enc ? EIP93_CDEV_DECRYPT : EIP93_CDEV_ENCRYPT;
	c.len = (uint32_t)m->len;
	c.src = (unsigned char *)m->in; /* read only (unless it is m->out) */
	c.dst = m->out;
	c.iv = m->iv != NULL ? ctrblk : NULL; /* AES-ECB has none */
	r = xioctl(p->fd, EIP93_CIOCCRYPT, &c);
	if (r == 0 && m->len != 0) {
		eip93_engine_pages_buf(m->pages, m->in); /* zero copy: the caller's pages */
		eip93_engine_pages_buf(m->pages, m->out);
		eip93_engine_pages_add(m->pages, 0); /* the bounce page, from payload offset 0 */
	}
	return r;
}

static unsigned int cd_resources(void)
{
	return atomic_load(&cd_sessions);
}

const struct eip93_engine_ops eip93_engine_cryptodev = {
	.name = "cryptodev",
	.probe = cd_probe,
	.key_open = cd_open,
	.key_close = cd_close,
	.key_is_open = cd_is_open,
	.seal = cd_seal,
	.unseal = cd_unseal,
	.skc = cd_skc,
	.resources = cd_resources,
};
