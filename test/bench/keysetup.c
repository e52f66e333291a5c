// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 6: what a new key costs.  A TLS 1.3-shaped 16 KiB
 * encryption with a key the provider has not seen (a new context, a new key:
 * its engine key opens and its known-answer check runs inside the message)
 * against the same message on a key already open, and a default-provider
 * message with a new key.  Key setup = fresh - steady, given in default
 * 16 KiB messages (the goal: at most 0.25).  Contexts are made and
 * freed outside the timed region; the three contenders alternate.
 */
#include "bench.h"

#include <stdio.h>
#include <string.h>

#define KS_LEN 16384

struct fresh {
	const EVP_CIPHER *c;
	EVP_CIPHER_CTX *ctx;
	unsigned char key[32];
	unsigned long n;
	unsigned char buf[KS_LEN + TAGLEN];
	int steady; /* keep the key and the context: a steady-state message */
};

/* Not timed: a new context with a new key (or, steady, the same one). */
static int fresh_prep(void *v)
{
	struct fresh *f = v;

	if (f->steady && f->ctx != NULL)
		return 0;
	EVP_CIPHER_CTX_free(f->ctx);
	f->ctx = EVP_CIPHER_CTX_new();
	f->n++;
	memcpy(f->key, B.key, sizeof(f->key));
	memcpy(f->key, &f->n, sizeof(f->n)); /* a key no context has had */
	return f->ctx != NULL && EVP_EncryptInit_ex2(f->ctx, f->c, f->key, NULL, NULL) ? 0 : -1;
}

/* Timed: one record; with a new key its first eligible data opens and checks the key. */
static int fresh_op(void *v)
{
	struct fresh *f = v;
	unsigned char iv[IVLEN];
	int n, m;

	nonce_for(iv, base_nonce, ++f->n);
	return EVP_EncryptInit_ex2(f->ctx, NULL, NULL, iv, NULL) &&
			       EVP_EncryptUpdate(f->ctx, NULL, &n, tls13_aad, TLS13_AAD) &&
			       EVP_EncryptUpdate(f->ctx, f->buf, &n, f->buf, KS_LEN) &&
			       EVP_EncryptFinal_ex(f->ctx, f->buf + n, &m) &&
			       EVP_CIPHER_CTX_ctrl(f->ctx, EVP_CTRL_AEAD_GET_TAG, TAGLEN,
						   f->buf + KS_LEN)
		       ? 0
		       : -1;
}

void section_keysetup(void)
{
	static struct fresh a, b, s;
	struct contender c[3];
	struct result r;
	uint64_t k0, k1, e0, e1;
	double setup;

	printf("\n6. Key setup: a 16 KiB TLS 1.3 record with a new key (%s)\n", B.kalg);
	printf("   key setup = new-key record - record on an open key, in default-provider\n"
	       "   16 KiB records with a new key (goal: <= 0.25)\n\n");
	memset(c, 0, sizeof(c));
	a.c = B.c_eip93;
	b.c = B.c_dflt;
	s.c = B.c_eip93;
	s.steady = 1;
	c[0] = (struct contender){ fresh_prep, fresh_op, &a, 0 };
	c[1] = (struct contender){ fresh_prep, fresh_op, &b, 0 };
	c[2] = (struct contender){ fresh_prep, fresh_op, &s, 0 };
	k0 = prov_counter("eip93-key-checks-passed");
	e0 = prov_counter("eip93-engine-messages");
	if (measure(c, 3, B.rounds, B.batch_s, &r) != 0) {
		fail("key setup: a record failed");
		goto out;
	}
	k1 = prov_counter("eip93-key-checks-passed");
	e1 = prov_counter("eip93-engine-messages");
	setup = r.us[0] - r.us[2];
	printf("   %-14s %10s %10s %10s | %10s %8s %6s\n", "", "new key us", "dflt us",
	       "open key us", "setup us", "records", "goal");
	printf("   %-14s %10.1f %10.1f %10.1f | %10.1f %8.2f %6.2f\n", "TLS 1.3 16 KiB", r.us[0],
	       r.us[1], r.us[2], setup, r.us[1] > 0 ? setup / r.us[1] : 0.0, 0.25);
	printf("   key checks passed +%llu, engine messages +%llu\n", (unsigned long long)(k1 - k0),
	       (unsigned long long)(e1 - e0));
	/* Every new key reached the engine (and its check): else this measured software. */
	if (k1 - k0 < (uint64_t)r.msgs0)
		fail("key setup: %llu key checks for %ld new-key records",
		     (unsigned long long)(k1 - k0), r.msgs0);
out:
	EVP_CIPHER_CTX_free(a.ctx);
	EVP_CIPHER_CTX_free(b.ctx);
	EVP_CIPHER_CTX_free(s.ctx);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&s, 0, sizeof(s));
}
