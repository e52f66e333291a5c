// SPDX-License-Identifier: Apache-2.0
/*
 * The engine interface: what the AES-GCM layer needs from whatever computes
 * an eligible message (the shape of OpenSSL's PROV_GCM_HW).  A backend opens
 * a key, seals (encrypts) or unseals (decrypts) one whole message with a
 * 12-byte IV and a 16-byte tag, and closes the key.  Backends return 0 or
 * -errno and never touch OpenSSL's error stack; they know nothing of EVP,
 * routing, replays or integrity checks, which live above them, once.
 *
 * Two kinds of kernel algorithm sit behind it (the "composition", named by
 * the algorithm the gate bound): a kernel AES-GCM such as
 * gcm_base(ctr(aes-eip93),ghash-generic), whose seal and unseal are one
 * backend request each, and the engine's AES-CTR alone, ctr(aes-eip93),
 * for which the backend offers ctr() and the AES-GCM layer composes the
 * message with GHASH and the tag in libcrypto (alg/gcm/compose.c).
 *
 * Backends: AF_ALG (engine/afalg.c) and cryptodev's /dev/crypto
 * (engine/cryptodev.c), the product's two roads, and, in test builds only, a
 * user-space fake with fault injection (engine/fake.c).  What a backend keeps
 * per key is its own (struct eip93_engine_key's @priv); every backend
 * function is static behind its ops table.
 */
#ifndef EIP93_ENGINE_H
#define EIP93_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <openssl/types.h>

#include "shape.h"

/*
 * The kinds of composition a kernel algorithm can be (a SoC profile,
 * provider/soc.c, lists its names in the gate's order and says which kind
 * each is; the roads' "why" texts reason over the kinds).
 */
enum eip93_comp_kind {
	EIP93_COMP_CTR = 0,	/* the engine's AES-CTR alone: GHASH and the tag in this process */
	EIP93_COMP_GCM_NEON,	/* the kernel's GCM over it, with ghash-neon */
	EIP93_COMP_GCM_GENERIC, /* ... with ghash-generic (the table GHASH) */
	EIP93_COMP_GCM_LIB,	/* ... with ghash-lib (the only GHASH name from Linux 7.1) */
	EIP93_COMP_ECB,		/* the engine's AES-ECB of the counter blocks: the rest here */
	EIP93_NCOMP_KINDS
};

/* What a kernel algorithm computes: an AEAD, or an skcipher of one AES mode. */
enum eip93_engine_mode {
	EIP93_EMODE_AEAD = 0, /* an AES-GCM (seal, unseal) */
	EIP93_EMODE_CTR,      /* AES-CTR (skc) */
	EIP93_EMODE_CBC,      /* AES-CBC (skc) */
	EIP93_EMODE_ECB,      /* AES-ECB (skc; no IV): only under AES-GCM's ECB composition */
};
#define EIP93_EMODES 4 /* the modes above */

/*
 * eip93_engine_kalg_mode() - what @kalg computes, by its name: a kernel
 * algorithm ("ctr(...)", "cbc(...)", "ecb(...)") or a driver's own name
 * ("ctr-aes-qce", "mv-ecb-aes", "__driver-ecb-aes-spacemit-ce1"); anything
 * else, "gcm_base(...)" among them, is an AEAD.
 */
static inline enum eip93_engine_mode eip93_engine_kalg_mode(const char *kalg)
{
	static const char *const names[3][2] = { { "ctr(", "ctr-aes" },
						 { "cbc(", "cbc-aes" },
						 { "ecb(", "ecb-aes" } };

	if (strncmp(kalg, "gcm", 3) == 0)
		return EIP93_EMODE_AEAD;
	for (int i = 0; i < 3; i++)
		if (strncmp(kalg, names[i][0], 4) == 0 || strstr(kalg, names[i][1]) != NULL)
			return (enum eip93_engine_mode)(EIP93_EMODE_CTR + i);
	return EIP93_EMODE_AEAD;
}

/* eip93_engine_kalg_is_ctr() - does @kalg name an AES-CTR (skcipher) rather than an AEAD? */
static inline int eip93_engine_kalg_is_ctr(const char *kalg)
{
	return eip93_engine_kalg_mode(kalg) == EIP93_EMODE_CTR;
}

/*
 * eip93_engine_kalg_composes() - is AES-GCM composed in this process over
 * @kalg (its AES-CTR, or its AES-ECB of the counter blocks), rather than a
 * kernel AES-GCM?
 */
static inline int eip93_engine_kalg_composes(const char *kalg)
{
	enum eip93_engine_mode m = eip93_engine_kalg_mode(kalg);

	return m == EIP93_EMODE_CTR || m == EIP93_EMODE_ECB;
}

/* What opening a key needs besides the key bytes. */
struct eip93_engine_cfg {
	const char *kalg;	  /* kernel algorithm the gate bound */
	unsigned int max_sockets; /* process-wide cap: AF_ALG sockets, /dev/crypto sessions */
	unsigned int timeout_ms;  /* AF_ALG's send/receive timeout (/dev/crypto has none) */
	OSSL_LIB_CTX *libctx;	  /* the delegate's library context (fake only) */
};

/* One key's backend state. */
struct eip93_engine_key {
	void *priv; /* the backend's own, NULL when closed (eip93_engine_key_init) */
	int is_ctr; /* opened on an AES-CTR algorithm */
	enum eip93_engine_mode mode; /* what the algorithm it was opened on computes */
	int no_reuse; /* set before key_close: a wrong result seen, its transform not kept */
};

/*
 * Where the buffers the engine really reads and writes cross a page, as
 * payload offsets (docs/design.md "Integrity: the buffers the engine
 * touches").  A DMA or cache-maintenance fault lands where a buffer the
 * engine's descriptors point at breaks; the integrity check (alg/verify.c)
 * windows every phase q listed here: payload offsets q, q + 4096, q + 8192,
 * ...  A user buffer the kernel maps (zero copy) breaks where its addresses
 * do; a kernel buffer filled page by page from the payload's first byte
 * breaks at 0 (mod 4096).  4096 is the smallest page of every target, and
 * a larger page's boundaries are among its multiples, so they are covered.
 * A backend fills this on every request that succeeds, for the buffers it
 * handed the kernel; a phase of the payload's own first byte (0 for a
 * kernel buffer) still counts the later boundaries.
 */
#define EIP93_ENGINE_PAGE 4096u
#define EIP93_ENGINE_MAX_PHASES 4
struct eip93_engine_pages {
	unsigned int n;				 /* phases listed */
	unsigned int q[EIP93_ENGINE_MAX_PHASES]; /* distinct, each < EIP93_ENGINE_PAGE */
};

/* eip93_engine_pages_add() - phase @q (a payload offset, taken mod the page) into @p, once. */
static inline void eip93_engine_pages_add(struct eip93_engine_pages *p, size_t q)
{
	unsigned int v = (unsigned int)(q % EIP93_ENGINE_PAGE);

	if (p == NULL)
		return;
	for (unsigned int i = 0; i < p->n; i++)
		if (p->q[i] == v)
			return;
	if (p->n < EIP93_ENGINE_MAX_PHASES)
		p->q[p->n++] = v;
}

/* eip93_engine_pages_buf() - the phase of a user buffer whose payload starts at @payload. */
static inline void eip93_engine_pages_buf(struct eip93_engine_pages *p, const void *payload)
{
	uintptr_t a = (uintptr_t)payload;

	eip93_engine_pages_add(
		p, (size_t)((EIP93_ENGINE_PAGE - a % EIP93_ENGINE_PAGE) % EIP93_ENGINE_PAGE));
}

/* One whole message: AAD and payload in, payload and (sealing) tag out. */
struct eip93_engine_msg {
	const unsigned char *iv; /* EIP93_ENGINE_IVLEN bytes */
	const unsigned char *aad;
	size_t aadlen;		 /* at most EIP93_ENGINE_MAX_AAD */
	const unsigned char *in; /* may equal out */
	unsigned char *out;
	size_t len;
	unsigned char *tag; /* seal: written; open: read */
	/* Out, may be NULL: the page phases of what the engine read and wrote
	 * (cleared by the caller; a backend only adds). */
	struct eip93_engine_pages *pages;
};

struct eip93_engine_ops {
	const char *name;
	/* Does @kalg bind (as an AEAD, or an skcipher when it is AES-CTR)?  0 or -errno. */
	int (*probe)(const char *kalg);
	/* Open @key; 0, -EMFILE at the socket cap, or -errno. */
	int (*key_open)(struct eip93_engine_key *k, const struct eip93_engine_cfg *c,
			const unsigned char *key, size_t keylen);
	/* Idempotent; cleanses what the backend holds of the key. */
	void (*key_close)(struct eip93_engine_key *k);
	int (*key_is_open)(const struct eip93_engine_key *k);
	/* Encrypt: writes m->out and m->tag.  On failure m->in is untouched
	 * unless it equals m->out. */
	int (*seal)(struct eip93_engine_key *k, const struct eip93_engine_msg *m);
	/* Decrypt: -EBADMSG when the tag is wrong (m->out then holds
	 * unauthenticated bytes that must never be released). */
	int (*unseal)(struct eip93_engine_key *k, const struct eip93_engine_msg *m);
	/*
	 * A key opened on an skcipher algorithm, one request from the 16-byte
	 * block m->iv (EIP93_ENGINE_CTRBLK bytes), m->len bytes of m->in into
	 * m->out; m->aad and m->tag unused.  AES-CTR: m->in XOR the keystream
	 * from the counter block m->iv (incremented per block), always asked
	 * as an encryption (the same operation both ways); @enc is the
	 * direction it serves (fault plans only).  AES-CBC: m->len a multiple
	 * of 16, m->iv the chaining value, @enc the direction.  AES-ECB:
	 * m->len a multiple of 16, m->iv unused (NULL), always an encryption
	 * (of counter blocks: @enc is the direction the message serves).
	 */
	int (*skc)(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc);
	/* Sockets (or their stand-ins) this process holds now, for the cap. */
	unsigned int (*resources)(void);
	/*
	 * Keystream ahead (docs/design.md "Keystream ahead"), on a key opened
	 * on AES-CTR; NULL where the road has no asynchronous request (the
	 * caller then takes the synchronous path).  At most one is outstanding
	 * per key.
	 * ahead_start: start the AES-CTR keystream (the encryption of zeros)
	 *   of @len bytes (whole blocks, at most EIP93_AHEAD_MAX) from the
	 *   counter block @cb (EIP93_ENGINE_CTRBLK bytes), and return without
	 *   waiting for it: 0, -EBUSY (one is outstanding), or -errno.  @enc is
	 *   the direction the message it is for serves (fault plans only).
	 * ahead_wait: wait for it (the backend bounds each request): 0 and *@ks the
	 *   backend's buffer holding it (@len bytes; a block the engine did not
	 *   write is zero), the page phases of the buffers the engine touched
	 *   added to @pg (may be NULL); -ENOENT when none is outstanding (a
	 *   forked child's key, a key closed and opened again), or -errno.  The
	 *   buffer is the caller's to read (and XOR from) until ahead_drop,
	 *   the next ahead_start or key_close.
	 * ahead_drop: wait for one outstanding, cleanse the buffer; idempotent.
	 *   key_close drops.  The buffer never reaches a forked child.
	 */
	int (*ahead_start)(struct eip93_engine_key *k, const unsigned char *cb, size_t len,
			   int enc);
	int (*ahead_wait)(struct eip93_engine_key *k, unsigned char **ks,
			  struct eip93_engine_pages *pg);
	void (*ahead_drop)(struct eip93_engine_key *k);
};

/* Keystream ahead: the longest keystream one request computes ahead. */
#define EIP93_AHEAD_MAX 65536u

/* eip93_engine_key_init() - a closed key of any backend. */
static inline void eip93_engine_key_init(struct eip93_engine_key *k)
{
	k->priv = NULL;
	k->is_ctr = 0;
	k->mode = EIP93_EMODE_AEAD;
	k->no_reuse = 0;
}

/* eip93_engine_key_mode() - set @k's mode (and is_ctr) from the algorithm @kalg it opens on. */
static inline void eip93_engine_key_mode(struct eip93_engine_key *k, const char *kalg)
{
	k->mode = eip93_engine_kalg_mode(kalg);
	k->is_ctr = k->mode == EIP93_EMODE_CTR;
}

extern const struct eip93_engine_ops eip93_engine_afalg;
extern const struct eip93_engine_ops eip93_engine_cryptodev;
/*
 * eip93_afalg_pool_flush() - close the AF_ALG transforms kept for reuse
 * across keys (engine/afalg.c) and join the keystream-ahead worker thread
 * (engine/afalg_aio.c; the next request starts another): when a provider
 * instance goes, before the module may be unloaded.
 */
void eip93_afalg_pool_flush(void);
/* eip93_afalg_pool_sockets() - the AF_ALG sockets the pool holds now (idle, keyed with zeros). */
unsigned int eip93_afalg_pool_sockets(void);

/*
 * The roads to the engine, one row each, in engine-backend = auto's order:
 * X(ID, engine-backend value, name in a calibration file, road in words,
 * status suffix, ops, prefix), where prefix##_probe, _dead, _tried and _why
 * are the road's words (struct eip93_engine_row).  A new backend is its file (ops table and words) and
 * one line here; the enum below, the config's accepted values and
 * eip93_engine_rows[] (engine/engine.c) follow from it.
 */
#define EIP93_ENGINE_ROWS(X)                                                                       \
	X(AFALG, "afalg", "af_alg", "AF_ALG", "", eip93_engine_afalg, eip93_afalg)                 \
	X(CRYPTODEV, "cryptodev", "cryptodev", "/dev/crypto", " via /dev/crypto",                  \
	  eip93_engine_cryptodev, eip93_cryptodev)

/* engine-backend: AUTO (0) lets the rows' order decide; else a row's id. */
enum eip93_backend {
	EIP93_BACKEND_AUTO = 0,
#define EIP93_ROW_ID(id, name, file, road, via, ops, words) EIP93_BACKEND_##id,
	EIP93_ENGINE_ROWS(EIP93_ROW_ID)
#undef EIP93_ROW_ID
		EIP93_BACKEND_END
};
#define EIP93_NENGINES (EIP93_BACKEND_END - 1)

/* What eip93_engine_word() tells of a row. */
enum eip93_engine_word { EIP93_WORD_NAME, EIP93_WORD_FILE, EIP93_WORD_ROAD };

/*
 * eip93_engine_word() - row @id's engine-backend value, its name in a
 * calibration file, or its road in words, from EIP93_ENGINE_ROWS alone (no
 * backend linked in); NULL: no such row.
 */
static inline const char *eip93_engine_word(int id, enum eip93_engine_word w)
{
#define EIP93_ROW_WORD(i, name, file, road, via, ops, words)                                       \
	case EIP93_BACKEND_##i:                                                                    \
		return w == EIP93_WORD_NAME ? name : w == EIP93_WORD_FILE ? file : road;
	switch (id) {
		EIP93_ENGINE_ROWS(EIP93_ROW_WORD)
	default:
		return NULL;
	}
#undef EIP93_ROW_WORD
}

/* What the failed tries on one road were: the input of a row's why(). */
struct eip93_engine_tries {
	const char *release;	    /* uname -r; NULL when unknown */
	const char *driver_ctr;	    /* the SoC driver's AES-CTR, e.g. "ctr(aes-eip93)" */
	const char *driver;	    /* the SoC's driver in words, e.g. "the EIP93 driver" */
	int err[EIP93_NCOMP_KINDS]; /* positive errno of each kind's try; 0: bound or not tried */
};

/**
 * struct eip93_engine_row - one road to the engine.
 * @id: its EIP93_BACKEND_* value
 * @name: its engine-backend value in openssl.cnf ("afalg")
 * @road: in words ("AF_ALG", "/dev/crypto")
 * @via: after a kernel algorithm in the gate's status ("", " via /dev/crypto")
 * @ops: the backend (its @name is the eip93-backend parameter)
 * @probe: does @kalg bind: 0; -ENODEV when another driver serves it (named
 *	in @driver, @n bytes, when known); or -errno
 * @dead: after this error no composition can bind on this road (NULL: never)
 * @tried: one failed try in words, into @buf
 * @why: what the failed tries mean, in one line, into @buf (returned)
 */
struct eip93_engine_row {
	int id;
	const char *name;
	const char *road;
	const char *via;
	const struct eip93_engine_ops *ops;
	int (*probe)(const char *kalg, char *driver, size_t n);
	int (*dead)(int err);
	void (*tried)(char *buf, size_t n, const char *kalg, int err, const char *driver);
	const char *(*why)(const struct eip93_engine_tries *t, char *buf, size_t n);
};

/* The product's rows, in auto's order (engine/engine.c). */
extern const struct eip93_engine_row eip93_engine_rows[EIP93_NENGINES];

/* eip93_engine_row_by_id() - the row of @rows (@n of them) with id @id; NULL: none. */
static inline const struct eip93_engine_row *eip93_engine_row_by_id(
	const struct eip93_engine_row *rows, size_t n, int id)
{
	for (size_t i = 0; rows != NULL && i < n; i++)
		if (rows[i].id == id)
			return &rows[i];
	return NULL;
}

/* Each road's words (engine/afalg_words.c, engine/cryptodev_words.c): pure, no I/O but
 * the facts detect/ reads. */
int eip93_afalg_probe(const char *kalg, char *driver, size_t n);
int eip93_afalg_dead(int err);
void eip93_afalg_tried(char *buf, size_t n, const char *kalg, int err, const char *driver);
const char *eip93_afalg_why(const struct eip93_engine_tries *t, char *buf, size_t n);
/**
 * eip93_afalg_why_facts() - eip93_afalg_why() with the kernel's facts given:
 * @restrict_val /proc/sys/crypto/af_alg_restrict (-1 absent), @driver_state
 * (1/0/-1: is @t->driver_ctr registered in /proc/crypto).  The doctor's too.
 */
const char *eip93_afalg_why_facts(const struct eip93_engine_tries *t, int restrict_val,
				  int driver_state, char *buf, size_t n);
/**
 * eip93_cryptodev_probe() - does @kalg bind on /dev/crypto: a session of its
 * type whose driver (CIOCGSESSINFO) is @kalg?  (engine/cryptodev.c)
 * @kalg:   the kernel algorithm
 * @driver: receives the driver this probe's session named, NUL-terminated
 *          and truncated to @n ("" when it got no session: no /dev/crypto,
 *          or the session was refused); may be NULL
 * @n:      size of @driver
 *
 * The same probe as eip93_engine_cryptodev.probe.  Thread-safe, and safe
 * beside other provider instances' probes and key closes: the process's
 * descriptor stays open while the probe uses it; the driver is this call's
 * own.  Return: 0, -ENODEV (another driver serves @kalg) or -errno.
 */
int eip93_cryptodev_probe(const char *kalg, char *driver, size_t n);
int eip93_cryptodev_dead(int err);
void eip93_cryptodev_tried(char *buf, size_t n, const char *kalg, int err, const char *driver);
const char *eip93_cryptodev_why(const struct eip93_engine_tries *t, char *buf, size_t n);

#ifdef EIP93_TEST_HOOKS
/*
 * Test builds only: AES-GCM computed in user space, with the failures the
 * AF_ALG backend can meet injected on demand (engine/fake.h).
 */
extern const struct eip93_engine_ops eip93_engine_fake;
/* Its row: it stands in for AF_ALG (engine-backend = cryptodev then finds no row). */
extern const struct eip93_engine_row eip93_engine_row_fake;
#endif

#endif /* EIP93_ENGINE_H */
