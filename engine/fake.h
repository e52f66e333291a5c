// SPDX-License-Identifier: Apache-2.0
/*
 * Test builds only: a software fake of the engine behind engine/engine.h.  It
 * computes AES-CTR or AES-CBC (a key opened on ctr(aes-eip93), cbc(aes-eip93);
 * fake_skc.c, with the driver bugs it models) or AES-GCM in user space (the delegate's library context) the way the
 * kernel's hybrid does: a CTR keystream applied to the payload and GHASH over
 * the ciphertext that results.  A fault plan injects what the AF_ALG backend
 * can meet: an errno at a step, a short read, a tag the "kernel" rejects, a
 * wrong keystream in chosen blocks (the output is then wrong *and*
 * authenticates, as with a real keystream fault), output never written.
 *
 * The plan comes from eip93_fake_set_plan() (programs that link alg/
 * directly, e.g. the fuzzer) or, once, from the environment variable
 * EIP93_TEST_FAKE (programs that load eip93.so), e.g.
 *   EIP93_TEST_FAKE="site=seal,kind=keystream,nth=3,every=1,block=-1"
 * keys: site (probe|open|seal|unseal|data|ahead: seal and unseal count a key's
 * AES-CTR requests too, by the GCM direction they serve; a ctr(aes-eip93)
 * key's check is seal call 1, a gcm_base key's seal 1 and unseal 1 and 2), kind (errno|short|badmsg|
 * keystream|nowrite|tail|page|tagmask|skip), err (errno value), nth (first
 * faulty call at the site, 1-based), every (1: every call from nth on),
 * block (first block, negative counts from the end), count (blocks; 0 = to
 * the end), mask (XOR byte for keystream and tail faults), byte (tail: the
 * byte hit, counted from the end: 1 = the last; 0 = 16, the first of the
 * last 16 bytes, which lies in the block before a partial last block), at
 * (page: the byte hit, counted from a page boundary; negative: before it),
 * buf (page: whose page boundary: out, the request's destination, the
 * default; in, its source; tx, a kernel buffer filled from the payload's
 * first byte, as AF_ALG's skcipher send buffer and /dev/crypto's bounce
 * page), page (page: which boundary within the payload, 1 = the first).
 *
 * Keystream ahead (fake_ahead.c; engine.h's ahead_start, ahead_wait,
 * ahead_drop) completes asynchronously: ahead_start only records the
 * request (counter block, length, direction) in the key and returns
 * (-EBUSY while one is started and not yet waited for); the keystream is
 * computed when ahead_wait asks for it, or at once when the environment
 * variable EIP93_TEST_FAKE_AHEAD=eager (an error then still surfaces at the
 * wait).  It is computed by the fake's AES-CTR request (fake_skc.c) over
 * zeros in place in the key's own buffer, so the whole plan and the
 * modelled driver bugs apply to it: sites seal, unseal and data count it
 * by its direction; site=ahead counts ahead requests only (any kind: errno
 * and short make the wait fail with the buffer scribbled on, err=ETIMEDOUT
 * a request lost; keystream, nowrite, skip, ...  change the keystream; a
 * block skipped or not written stays zero).  A request dropped (or
 * started again) before its wait is never computed, so a plan counts it
 * only in the eager mode.  A wait returns the buffer once: a second wait
 * before the next start is -ENOENT, as is a forked child's (the buffer,
 * mmap'ed with MADV_WIPEONFORK and MADV_DONTDUMP, reaches no child).  The
 * page phases it reports are an AES-CTR request's over that buffer (a
 * kernel buffer from offset 0; the buffer itself, page aligned).
 *
 * The fake stands in for both roads, so it reports (m->pages) the union of
 * the page phases they would: AES-CTR requests the source, the destination
 * and a kernel buffer from offset 0; AEAD requests the source, the
 * destination and a kernel buffer from the AAD's first byte (AF_ALG: that
 * send buffer and the destination; /dev/crypto: the source and the
 * destination).
 */
#ifndef EIP93_FAKE_H
#define EIP93_FAKE_H

#ifdef EIP93_TEST_HOOKS

enum eip93_fake_site {
	EIP93_FAKE_NONE = 0,
	EIP93_FAKE_PROBE,  /* the gate's bind probe */
	EIP93_FAKE_OPEN,   /* opening a key */
	EIP93_FAKE_SEAL,   /* an encryption */
	EIP93_FAKE_UNSEAL, /* a decryption */
	EIP93_FAKE_DATA,   /* either */
	EIP93_FAKE_AHEAD,  /* a keystream-ahead request only (fake_ahead.c) */
};

enum eip93_fake_kind {
	EIP93_FAKE_ERRNO = 0, /* fail with -err; the output is scribbled on */
	EIP93_FAKE_SHORT,     /* half the output written, then -EIO */
	EIP93_FAKE_BADMSG,    /* decryption: -EBADMSG although the tag is right */
	EIP93_FAKE_KEYSTREAM, /* keystream XOR mask in the chosen blocks; succeeds */
	EIP93_FAKE_NOWRITE,   /* keystream zero in the chosen blocks (output = input); succeeds */
	EIP93_FAKE_TAIL,      /* keystream XOR mask in one of the last 16 bytes (byte); succeeds */
	EIP93_FAKE_PAGE,      /* keystream XOR mask near the output's first page boundary (at) */
	EIP93_FAKE_TAGMASK,   /* the request's first block wrong: an AEAD's tag mask E_K(J0)
				 (sealing: a wrong tag; opening: the right tag refused), an
				 AES-CTR request's first payload block */
	EIP93_FAKE_SKIP,      /* the chosen blocks never written (a skipped DMA descriptor):
				 the destination keeps what it held; succeeds */
};

/* EIP93_FAKE_PAGE: whose page boundaries. */
enum eip93_fake_buf {
	EIP93_FAKE_BUF_OUT = 0, /* the request's destination */
	EIP93_FAKE_BUF_IN,	/* its source */
	EIP93_FAKE_BUF_TX,	/* a kernel buffer filled from payload offset 0 */
};

struct eip93_fake_plan {
	enum eip93_fake_site site;
	enum eip93_fake_kind kind;
	int err;		 /* EIP93_FAKE_ERRNO: positive errno (default EIO) */
	unsigned long nth;	 /* first faulty call at the site (1-based; 0 = 1) */
	int every;		 /* 1: every call from nth on; 0: only the nth */
	long block;		 /* first block (16 bytes) hit; negative: from the end */
	unsigned long count;	 /* blocks hit; 0 = from block to the end */
	unsigned char mask;	 /* keystream XOR (0 = 0x01) */
	unsigned long byte;	 /* EIP93_FAKE_TAIL: counted from the end, 1..16 (0 = 16) */
	long at;		 /* EIP93_FAKE_PAGE: bytes from the page boundary */
	enum eip93_fake_buf buf; /* EIP93_FAKE_PAGE: whose boundary */
	unsigned long page;	 /* EIP93_FAKE_PAGE: which one in the payload (0 = 1, the first) */
};

struct eip93_fake_stats {
	unsigned long probes, opens, seals, unseals, ctrs;
	unsigned long aheads; /* keystream-ahead requests started */
	unsigned long faults; /* calls the plan made fail or go wrong */
	unsigned long open_keys;
};

/* eip93_fake_set_plan() - replace the plan (NULL: no faults); restarts call counting. */
void eip93_fake_set_plan(const struct eip93_fake_plan *p);

/* eip93_fake_parse() - parse the EIP93_TEST_FAKE syntax; 0 or -EINVAL. */
int eip93_fake_parse(const char *s, struct eip93_fake_plan *p);

/* The EIP93 driver bugs the fake models (fake_skc.c), or'ed. */
#define EIP93_FAKE_BUG_DIRECTION 1u /* CBC: an encryption after a decryption decrypts */
#define EIP93_FAKE_BUG_CTR32 2u	    /* CTR: the counter's last 32 bits wrap without carry */

/*
 * eip93_fake_set_bugs() - model these bugs from now on (else
 * EIP93_TEST_FAKE_BUGS names them, read again after each eip93_fake_set_plan()).
 */
void eip93_fake_set_bugs(unsigned int bugs);

/* eip93_fake_get_stats() - calls so far (since the last plan). */
void eip93_fake_get_stats(struct eip93_fake_stats *s);

/*
 * What the fake's two files share (fake.c: the plan, keys and AEAD requests;
 * fake_skc.c: skcipher requests and the driver bugs it models); not for
 * callers of the fake.
 */
#include <stddef.h>

#include <openssl/evp.h>

#include "engine.h"

#define EIP93_FAKE_BLOCK 16

struct fake_key {
	unsigned char key[32];
	size_t keylen;
	EVP_CIPHER *gcm;
	EVP_CIPHER *skc; /* a key opened on ctr(aes-eip93) or cbc(aes-eip93) */
	enum eip93_engine_mode mode;
	int inbound; /* the direction bug's state: a CBC decryption ran on this transform */
	struct fake_ahead *ahead; /* keystream ahead (fake_ahead.c); NULL until the first start */
};

/* Does this call at @site fail or go wrong?  Copies the plan into @out. */
int eip93_fake_planned(enum eip93_fake_site site, struct eip93_fake_plan *out);
/* SKIP: a copy of what the destination held (@len + 1 bytes), or NULL. */
unsigned char *eip93_fake_snapshot(const unsigned char *out, size_t len);
/* SKIP: the chosen blocks of @out get back what @prior held. */
void eip93_fake_unwrite(const struct eip93_fake_plan *p, const unsigned char *prior,
			unsigned char *out, size_t len);
/* The keystream difference the plan puts in @d (@ks: the true keystream). */
void eip93_fake_keystream_fault(const struct eip93_fake_plan *p, const unsigned char *ks,
				unsigned char *d, size_t len, const struct eip93_engine_msg *m);
/* The plan's errno and short-read faults: the output scribbled on, and the error (else 0). */
int eip93_fake_failed_call(const struct eip93_fake_plan *p, const struct eip93_engine_msg *m);
/* One more skcipher request counted (stats' ctrs); one more ahead request (stats' aheads). */
void eip93_fake_count_skc(void);
void eip93_fake_count_ahead(void);
/* fake_skc.c: the ops' skc, and the driver bugs read again from the environment. */
int eip93_fake_skc(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc);
/* The same request, planned at site=ahead first when @ahead. */
int eip93_fake_skc_req(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc,
		       int ahead);
/* fake_ahead.c: the ops' keystream ahead; its state freed (cleansed) with the key. */
int eip93_fake_ahead_start(struct eip93_engine_key *k, const unsigned char *cb, size_t len,
			   int enc);
int eip93_fake_ahead_wait(struct eip93_engine_key *k, unsigned char **ks,
			  struct eip93_engine_pages *pg);
void eip93_fake_ahead_drop(struct eip93_engine_key *k);
void eip93_fake_ahead_free(struct fake_key *fk);
void eip93_fake_bugs_reset(void);

#endif /* EIP93_TEST_HOOKS */
#endif /* EIP93_FAKE_H */
