// SPDX-License-Identifier: Apache-2.0
/*
 * The base context every cipher's context begins with (struct gcm_ctx,
 * alg/gcm/gcm_ctx.h, embeds it first), and what ctx.c does with it: its
 * lifecycle and the message buffer.  The cipher-independent core (key.c,
 * account.c, verify.c, verdict.c, adapt_route.c, pipeline.h, request.c)
 * takes this context, never a cipher's.
 */
#ifndef EIP93_CTX_H
#define EIP93_CTX_H

#include <stdint.h>

#include <openssl/evp.h>

#include "cipher.h"
#include "env.h"

struct eip93_key {
	unsigned char bytes[32]; /* kept for the lazy open and to spot the same key */
	size_t len;
	int set;
	int failed;	  /* failed a check: software for its lifetime */
	int verified_pid; /* these key bytes passed the known-answer check in this process
			     (here or in the context this one was copied from): not checked
			     again; a forked child checks them again (0: not verified) */
	struct eip93_engine_key ek;
	EVP_CIPHER_CTX *ecb; /* AES-ECB with this key: keystream for verify.c */
	uint64_t rng;	     /* picks the sampled block and tag of each message */
};

struct eip93_cctx {
	struct eip93_alg_env *env;
	const struct eip93_cipher *cipher; /* its row: key.c's hooks */
	const struct eip93_sw_impl *sw;
	void *swctx;
	struct eip93_key key;

	/*
	 * The message buffer, allocated per engine message (or record) and
	 * freed when it ends: the engine message under way keeps its
	 * ciphertext here for a replay (ctlen > 0), a record its engine output
	 * or its input copy.
	 */
	unsigned char *ct;
	size_t ctcap;
	size_t ctlen;
	/*
	 * The engine refused this message's tag: if software accepts the same
	 * message (no more data, no other tag), the engine was wrong.
	 */
	int engine_rejected;
};

/* The delegate's own call for a whole message (update or cipher). */
typedef int (*eip93_sw_op_fn)(void *, unsigned char *, size_t *, size_t, const unsigned char *,
			      size_t);

/*
 * A zeroed @ctx for key size @ks of @cipher: its delegate context made.
 * 1, or 0 (no delegate for that name, or no memory).
 */
int eip93_cctx_init(struct eip93_cctx *ctx, struct eip93_alg_env *env,
		    const struct eip93_cipher *cipher, size_t ks);
/*
 * A zeroed @dst as a copy of @src: the key bytes and verdict, the message
 * buffer, the delegate's context copied; never the engine key (the copy opens
 * its own).  1, or 0 (then eip93_cctx_free(@dst) releases what it holds).
 */
int eip93_cctx_dup(struct eip93_cctx *dst, const struct eip93_cctx *src);
/*
 * Release the message buffer (cleansed) and the delegate's context; a freed
 * context's key is forgotten first (eip93_key_forget(), key.c).
 */
void eip93_cctx_free(struct eip93_cctx *ctx);

/* A message buffer of @len bytes (NULL: out of memory), and its release (@plain: cleansed). */
unsigned char *eip93_cctx_scratch(struct eip93_cctx *ctx, size_t len);
void eip93_cctx_release(struct eip93_cctx *ctx, int plain);

#endif /* EIP93_CTX_H */
