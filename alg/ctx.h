// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-GCM cipher context, shared by the files that make up the cipher
 * (and only by them; docs/design.md has the table of alg/ and what each file
 * owns).  Routing is route.h's alone, the message pipeline pipeline.h's, the
 * shadow state shadow.c's.
 */
#ifndef EIP93_CTX_H
#define EIP93_CTX_H

#include <stdint.h>

#include <openssl/core_dispatch.h>
#include <openssl/evp.h>
#include <openssl/modes.h>

#include "gcm.h"
#include "shadow.h"

struct gcm_key {
	unsigned char bytes[32]; /* kept for the lazy open and to spot the same key */
	size_t len;
	int set;
	int failed;	  /* failed a check: software for its lifetime */
	int verified_pid; /* these key bytes passed the known-answer check in this process
			     (here or in the context this one was copied from): not checked
			     again; a forked child checks them again (0: not verified) */
	struct eip93_engine_key ek;
	EVP_CIPHER_CTX *ecb;	 /* AES-ECB with this key: keystream for verify.c */
	GCM128_CONTEXT *gcm;	 /* GHASH key and tag mask in software (compose.c) */
	unsigned int tag_checks; /* kernel AES-GCM: tags recomputed since the key opened */
	uint64_t rng;		 /* picks the sampled block and tag of each message */
};

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
	struct eip93_alg_env *env;
	const struct eip93_sw_impl *sw;
	void *swctx;
	struct gcm_key key;
	struct eip93_shadow sh;

	/*
	 * The message buffer (offload.c), allocated per engine message or TLS
	 * 1.2 record and freed when it ends: the engine message under way keeps
	 * its ciphertext here for a replay (ctlen > 0), a record its engine
	 * output or its input copy.
	 */
	unsigned char *ct;
	size_t ctcap;
	size_t ctlen;
	unsigned char mtag[EIP93_ENGINE_TAGLEN]; /* engine encryption: its tag */
	unsigned int owed;			 /* EIP93_OWE_* */
	unsigned char owed_tag[EIP93_ENGINE_TAGLEN];
	/*
	 * The engine refused this message's tag: if software accepts the same
	 * message (no more data, no other tag), the engine was wrong.
	 */
	int engine_rejected;
};

/* key.c: the key; eip93_key_ready(): open and checked, or the runtime outcome that says why not */
void eip93_key_take(struct gcm_ctx *ctx, const unsigned char *key, size_t keylen);
void eip93_key_forget(struct gcm_ctx *ctx);
enum eip93_sw_reason eip93_key_ready(struct gcm_ctx *ctx);
/* AES-GCM encryption by the delegate in a context of its own, with the context's key; 1 or 0. */
int eip93_key_sw_seal(struct gcm_ctx *ctx, const unsigned char *iv, const unsigned char *aad,
		      size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		      unsigned char *tag);

/*
 * verdict.c: the key checks an instance saw pass in this process, by a keyed
 * hash of the key bytes and what they were checked on (never the key).
 */
#define EIP93_VERDICT_TAGLEN 32
struct eip93_verdict_query {
	unsigned char tag[EIP93_VERDICT_TAGLEN]; /* the key's keyed hash (ok) */
	uint64_t trouble; /* the instance's engine errors + faults when the query began */
	uint64_t serial;  /* the table it was made on */
	int ok;		  /* tag computed */
};
/*
 * 1: @ctx's key bytes passed a check on this instance in this process, and
 * no engine error or fault was counted since that check began.  Fills @q.
 */
int eip93_verdict_find(struct gcm_ctx *ctx, struct eip93_verdict_query *q);
/* The check that followed @q's miss @passed (kept) or not (forgotten); cleanses @q. */
void eip93_verdict_keep(struct gcm_ctx *ctx, struct eip93_verdict_query *q, int passed);

/* account.c: counters, and what errors and faults say about the engine */
/* (Inline: per message.) */
static inline void eip93_count_sw(struct gcm_ctx *ctx, enum eip93_sw_reason r)
{
	eip93_stat_add(&ctx->env->stats->sw_by_reason[r], 1); /* the total is their sum */
}

static inline void eip93_count_engine(struct gcm_ctx *ctx, size_t len)
{
	struct eip93_stats *st = ctx->env->stats;

	atomic_store_explicit(&ctx->env->consecutive_errors, 0, memory_order_relaxed);
	eip93_stat_add(&st->engine_messages, 1);
	eip93_stat_add(&st->engine_bytes, len);
}
void eip93_count_replay(struct gcm_ctx *ctx, size_t len);
/* An engine call failed with @err: classify, account; returns the reason to count. */
enum eip93_sw_reason eip93_account_error(struct gcm_ctx *ctx, int err, const char *where);
/*
 * What an engine step's non-zero result @e means (eip93_route_outcome(); @tls:
 * a TLS 1.2 record): a wrong result (a fault), a refused tag (the delegate
 * decides), a record the engine could not take, or an error; accounted, and
 * the reason the message then goes to software returned.
 */
enum eip93_sw_reason eip93_account_outcome(struct gcm_ctx *ctx, int e, const char *where);
/* The engine's result was wrong: the key goes to software, the fault is counted. */
void eip93_account_fault(struct gcm_ctx *ctx, const char *what);

/*
 * compose.c: one engine message in the bound composition (engine AES-CTR
 * with GHASH and tag here, or a kernel AES-GCM request with its tag
 * sampled): 0, EIP93_ENGINE_WRONG (a sampled tag was wrong), -EBADMSG (the
 * tag refused) or -errno.
 */
int eip93_engine_message(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 size_t len, unsigned char *out, unsigned char *tag,
			 struct eip93_engine_pages *pg);
/*
 * eip93_engine_message() from @in into @out with the whole integrity check of
 * its result.  @out must hold a copy of the input before the call (then a
 * block the engine skips or leaves unencrypted equals its input, and is
 * caught); @orig is the input as it was (@in, or a copy when @in == @out).
 * 0, EIP93_ENGINE_WRONG, -EBADMSG (the tag refused) or -errno.
 */
int eip93_engine_checked(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 const unsigned char *orig, unsigned char *out, size_t len,
			 unsigned char *tag);
/* A kernel AES-GCM key's backend request alone (the known-answer check). */
int eip93_engine_request(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 size_t len, unsigned char *out, unsigned char *tag);
/* An AES-CTR key's backend request alone: @len bytes from counter block @ctrblk. */
int eip93_engine_ctr(struct gcm_ctx *ctx, const unsigned char *ctrblk, const unsigned char *in,
		     unsigned char *out, size_t len);
/* The key's GCM128 context (after eip93_verify_key_init()); 0 or -ENOMEM. */
int eip93_compose_key_init(struct gcm_ctx *ctx);
void eip93_compose_key_free(struct gcm_ctx *ctx);

/*
 * verify.c: does @a XOR @b (input and the engine's output, @b the buffer it
 * wrote) show the right keystream in the sampled blocks: the message's
 * edges, both sides of every page boundary of the phases in @pg (what the
 * backend reported for the request; NULL or none: @b's own), one random
 * block?  0, -EBADMSG, -ENOMEM.
 */
int eip93_verify_keystream(struct gcm_ctx *ctx, const unsigned char *iv,
			   const struct eip93_engine_pages *pg, const unsigned char *a,
			   const unsigned char *b, size_t len);
/*
 * verify.c: is every whole block of @b (@len bytes) different from the same
 * block of @a?  An engine destination that held its input before the request
 * then has no block left unencrypted or unwritten.  0 or -EBADMSG.
 */
int eip93_verify_written(const unsigned char *a, const unsigned char *b, size_t len);
int eip93_verify_key_init(struct gcm_ctx *ctx);
void eip93_verify_key_free(struct gcm_ctx *ctx);
/* The key's sampling generator's next value. */
uint64_t eip93_verify_rand(struct gcm_ctx *ctx);

/* offload.c */
typedef int (*eip93_sw_op_fn)(void *, unsigned char *, size_t *, size_t, const unsigned char *,
			      size_t);
int eip93_offload_first_data(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, unsigned char *out,
			     size_t *outl, size_t outsize, const unsigned char *in, size_t inl);
/* Replay an engine message under way and pay what is owed, except @keep (EIP93_OWE_*). */
int eip93_offload_settle_slow(struct gcm_ctx *ctx, unsigned int keep);
int eip93_offload_final(struct gcm_ctx *ctx, unsigned char *out, size_t *outl, size_t outsize);
/* The reason a message without data is counted in software. */
enum eip93_sw_reason eip93_offload_reason_empty(const struct gcm_ctx *ctx);
/* A message buffer of @len bytes (NULL: out of memory), and its release (@plain: cleansed). */
unsigned char *eip93_offload_scratch(struct gcm_ctx *ctx, size_t len);
void eip93_offload_release(struct gcm_ctx *ctx, int plain);
void eip93_offload_drop(struct gcm_ctx *ctx);

/*
 * Before a delegate call: the delegate must hold what software alone would
 * have left in it, except what @keep says the call can neither see nor change.
 */
static inline int eip93_offload_settle(struct gcm_ctx *ctx, unsigned int keep)
{
	if (ctx->sh.msg != EIP93_MSG_ENGINE && (ctx->owed & ~keep) == 0)
		return 1;
	return eip93_offload_settle_slow(ctx, keep);
}

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

/* gcm.c: the dispatch functions params.c puts in the tables; the shadow's mover. */
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
static inline void eip93_shadow_ev(struct gcm_ctx *ctx, enum eip93_shadow_event ev,
				   const unsigned char *data, size_t len)
{
	struct eip93_shadow_ev e = { .ev = ev, .data = data, .len = len };

	eip93_shadow_move(&ctx->sh, &e);
}

#endif /* EIP93_CTX_H */
