// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-GCM cipher context, shared by the files that make up the cipher
 * (and only by them):
 *   gcm.c      the dispatch functions: every call reaches the delegate, the
 *              shadow state moves after each one
 *   params.c   parameters: cipher-level answers, forwarding, dispatch tables
 *   offload.c  an engine message: first data, replay, final
 *   tls12.c    a TLS 1.2 record on the engine
 *   key.c      the key: lazy open, known-answer check, error and fault accounting
 *   verify.c   the integrity check of every engine result
 * Routing is route.c's alone; the shadow state is shadow.c's alone.
 */
#ifndef EIP93_CTX_H
#define EIP93_CTX_H

#include <stdint.h>

#include <openssl/core_dispatch.h>
#include <openssl/evp.h>

#include "gcm.h"
#include "shadow.h"

struct gcm_key {
	unsigned char bytes[32]; /* kept for the lazy open and to spot the same key */
	size_t len;
	int set;
	int failed; /* failed a check: software for its lifetime */
	struct eip93_engine_key ek;
	EVP_CIPHER_CTX *ecb; /* AES-ECB with this key: keystream for verify.c */
	uint64_t rng;	     /* picks the sampled block of each message */
};

struct gcm_ctx {
	struct eip93_alg_env *env;
	const struct eip93_sw_impl *sw;
	void *swctx;
	struct gcm_key key;
	struct eip93_shadow sh;

	/* The engine message under way (shadow msg == ENGINE). */
	unsigned char *ct; /* its ciphertext, for a replay */
	size_t ctlen;
	unsigned char mtag[EIP93_ENGINE_TAGLEN]; /* engine encryption: its tag */
	/*
	 * The engine refused this message's tag: if software accepts the same
	 * message (no more data, no other tag), the engine was wrong.
	 */
	int engine_rejected;
};

/* key.c */
void eip93_key_take(struct gcm_ctx *ctx, const unsigned char *key, size_t keylen);
void eip93_key_forget(struct gcm_ctx *ctx);
enum eip93_sw_reason eip93_key_ready(struct gcm_ctx *ctx);
void eip93_count_sw(struct gcm_ctx *ctx, enum eip93_sw_reason r);
void eip93_count_engine(struct gcm_ctx *ctx, size_t len);
void eip93_count_replay(struct gcm_ctx *ctx, size_t len);
/* An engine call failed with @err: classify, account; returns the reason to count. */
enum eip93_sw_reason eip93_engine_failed(struct gcm_ctx *ctx, int err, const char *where);
/* An engine operation's result failed its integrity check (a positive return). */
#define EIP93_ENGINE_WRONG 1
/*
 * What an engine operation's non-zero result @e means: a wrong result (a
 * fault), a refused tag (the delegate decides), or an error; accounted, and
 * the reason the message then goes to software returned.
 */
enum eip93_sw_reason eip93_engine_outcome(struct gcm_ctx *ctx, int e, const char *where);
/* The engine's result was wrong: the key goes to software, the fault is counted. */
void eip93_engine_fault(struct gcm_ctx *ctx, const char *what);
int eip93_engine_aead(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
		      const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len,
		      unsigned char *out, unsigned char *tag);

/*
 * verify.c: does @a XOR @b (input and the engine's output, @b the buffer it
 * wrote) show the right keystream in the sampled blocks?  0, -EBADMSG, -ENOMEM.
 */
int eip93_verify_keystream(struct gcm_ctx *ctx, const unsigned char *iv, size_t aadlen,
			   const unsigned char *a, const unsigned char *b, size_t len);
int eip93_verify_key_init(struct gcm_ctx *ctx);
void eip93_verify_key_free(struct gcm_ctx *ctx);

/* offload.c */
typedef int (*eip93_sw_op_fn)(void *, unsigned char *, size_t *, size_t, const unsigned char *,
			      size_t);
int eip93_offload_first_data(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, unsigned char *out,
			     size_t *outl, size_t outsize, const unsigned char *in, size_t inl);
int eip93_offload_replay(struct gcm_ctx *ctx);
int eip93_offload_final(struct gcm_ctx *ctx, unsigned char *out, size_t *outl, size_t outsize);
/* The reason a message without data is counted in software. */
enum eip93_sw_reason eip93_offload_reason_empty(const struct gcm_ctx *ctx);
void eip93_offload_drop(struct gcm_ctx *ctx);
/* Give the delegate's tag buffer @tag, as its own encryption's final would have. */
int eip93_offload_set_delegate_tag(struct gcm_ctx *ctx, const unsigned char *tag);

/* adapt_route.c: adaptive routing around a message the rule gave the engine */
struct eip93_adapt_tok {
	struct eip93_adapt_class *cls; /* NULL: nothing to record */
	enum eip93_adapt_path path;
	size_t len;
	uint64_t t0;
};
/* 1: the estimate says software (the rule's adapt_sw fact). */
int eip93_adapt_begin(struct gcm_ctx *ctx, size_t len, struct eip93_adapt_tok *t);
/* The chosen path starts now. */
void eip93_adapt_clock(struct eip93_adapt_tok *t);
/* The chosen path ran (@ok: and its time says something about its cost). */
void eip93_adapt_end(struct eip93_adapt_tok *t, int ok);

/* tls12.c */
int eip93_tls12_record(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, int oneshot, unsigned char *out,
		       size_t *outl, size_t outsize, const unsigned char *in, size_t inl);

/* gcm.c: the dispatch functions params.c puts in the tables, and the shadow's mover. */
void *eip93_gcm_newctx(void *provctx, enum eip93_keysize ks);
OSSL_FUNC_cipher_freectx_fn eip93_gcm_freectx;
OSSL_FUNC_cipher_dupctx_fn eip93_gcm_dupctx;
OSSL_FUNC_cipher_encrypt_init_fn eip93_gcm_einit;
OSSL_FUNC_cipher_decrypt_init_fn eip93_gcm_dinit;
OSSL_FUNC_cipher_update_fn eip93_gcm_update;
OSSL_FUNC_cipher_final_fn eip93_gcm_final;
OSSL_FUNC_cipher_cipher_fn eip93_gcm_cipher;
OSSL_FUNC_cipher_get_ctx_params_fn eip93_gcm_get_ctx_params;
OSSL_FUNC_cipher_set_ctx_params_fn eip93_gcm_set_ctx_params;
void eip93_shadow_ev(struct gcm_ctx *ctx, enum eip93_shadow_event ev, const unsigned char *data,
		     size_t len);

#endif /* EIP93_CTX_H */
