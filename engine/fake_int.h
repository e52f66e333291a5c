// SPDX-License-Identifier: Apache-2.0
/*
 * Test builds only: what the fake's two files share (fake.c: the plan, keys
 * and AEAD requests; fake_skc.c: skcipher requests and the driver bugs it
 * models).  Not a public interface: fake.h is.
 */
#ifndef EIP93_FAKE_INT_H
#define EIP93_FAKE_INT_H

#ifdef EIP93_TEST_HOOKS

#include <stddef.h>

#include <openssl/evp.h>

#include "engine.h"
#include "fake.h"

#define EIP93_FAKE_BLOCK 16

struct fake_key {
	unsigned char key[32];
	size_t keylen;
	EVP_CIPHER *gcm;
	EVP_CIPHER *skc;	    /* a key opened on ctr(aes-eip93) or cbc(aes-eip93) */
	enum eip93_engine_mode mode;
	int inbound; /* the direction bug's state: a CBC decryption ran on this transform */
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
/* One more skcipher request counted (stats' ctrs). */
void eip93_fake_count_skc(void);
/* fake_skc.c: the ops' skc, and the driver bugs read again from the environment. */
int eip93_fake_skc(struct eip93_engine_key *k, const struct eip93_engine_msg *m, int enc);
void eip93_fake_bugs_reset(void);

#endif /* EIP93_TEST_HOOKS */
#endif /* EIP93_FAKE_INT_H */
