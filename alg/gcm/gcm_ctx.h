// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-GCM cipher context: the base context first (alg/ctx.h: what the
 * core reads), then what only AES-GCM keeps: the shadow of the delegate's
 * state, the per-key GHASH tables, the engine's tag and what the delegate
 * still owes.  Shared by the files of alg/gcm/ (and only by them).
 */
#ifndef EIP93_GCM_CTX_H
#define EIP93_GCM_CTX_H

#include <openssl/core_dispatch.h>
#include <openssl/modes.h>

#include "../ctx.h"
#include "ahead_state.h"
#include "route.h"
#include "shadow.h"

/*
 * What the delegate still owes after an engine message's final (ctx->owed),
 * paid (offload.c) only before a call that could show the difference:
 *   OWE_TAG      encryption: its tag buffer holds the tag of the empty
 *                message it saw; the message's tag is owed_tag.  Nothing but
 *                a tag query reads that buffer in encrypt mode (answered
 *                from owed_tag), a successful encryption final overwrites it.
 *   OWE_IV_USED  decryption: its final failed (it saw no data), so its IV is
 *                still usable where the default provider's would be finished.
 *                A new 12-byte IV makes the two the same again.
 */
#define EIP93_OWE_TAG 1u
#define EIP93_OWE_IV_USED 2u

struct gcm_ctx {
	struct eip93_cctx base; /* must stay first: the core takes &ctx->base */
	struct eip93_shadow sh;
	struct eip93_gcm_route route; /* the key's GHASH key and tag mask in software (route.c) */
	unsigned int tag_checks;      /* kernel AES-GCM: tags recomputed since the key opened */
	unsigned char mtag[EIP93_ENGINE_TAGLEN]; /* engine encryption: its tag */
	unsigned int owed;			 /* EIP93_OWE_* */
	unsigned char owed_tag[EIP93_ENGINE_TAGLEN];
	struct eip93_ahead ahead; /* keystream ahead (ahead.c): the next nonce's, from the engine */
};

/* The AES-GCM context whose base @c is (the base is its first member). */
static inline struct gcm_ctx *gcm_of(struct eip93_cctx *c)
{
	return (struct gcm_ctx *)(void *)c;
}

static inline const struct gcm_ctx *gcm_of_const(const struct eip93_cctx *c)
{
	return (const struct gcm_ctx *)(const void *)c;
}

/* gcm.c: the dispatch functions params.c puts in the tables. */
void *eip93_gcm_newctx(void *provctx, size_t ks);
OSSL_FUNC_cipher_freectx_fn eip93_gcm_freectx;
OSSL_FUNC_cipher_dupctx_fn eip93_gcm_dupctx;
OSSL_FUNC_cipher_encrypt_init_fn eip93_gcm_einit;
OSSL_FUNC_cipher_decrypt_init_fn eip93_gcm_dinit;
OSSL_FUNC_cipher_update_fn eip93_gcm_update;
OSSL_FUNC_cipher_final_fn eip93_gcm_final;
OSSL_FUNC_cipher_cipher_fn eip93_gcm_cipher;
OSSL_FUNC_cipher_get_ctx_params_fn eip93_gcm_get_ctx_params;
OSSL_FUNC_cipher_set_ctx_params_fn eip93_gcm_set_ctx_params;

/* The shadow's mover (shadow.c), for the calls with no more than an event. */
static inline void eip93_shadow_ev(struct gcm_ctx *ctx, enum eip93_shadow_event ev,
				   const unsigned char *data, size_t len)
{
	struct eip93_shadow_ev e = { .ev = ev, .data = data, .len = len };

	eip93_shadow_move(&ctx->sh, &e);
}

#endif /* EIP93_GCM_CTX_H */
