// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-CTR and AES-CBC cipher context (one room, alg/skc/: the two
 * modes share everything but the chaining arithmetic): the base context
 * first (../ctx.h), then the shadow of the delegate's state, which says
 * when a message may go to the engine and how the delegate is brought to
 * where software alone would be after it (offload.c), and the key's
 * decryption transform (kat.c: the driver's direction bug).
 */
#ifndef EIP93_SKC_CTX_H
#define EIP93_SKC_CTX_H

#include <openssl/core_dispatch.h>

#include "../ctx.h"

#define EIP93_SKC_BLK 16

/*
 * What the context knows of its delegate (the default provider's
 * PROV_CIPHER_CTX): @known says the rest is exact; a call whose effect on
 * the delegate cannot be followed (a failed one, a TLS record) clears it
 * until the next init that sets an IV.  What software calls change is
 * followed by arithmetic (@fed, @tail) and the running IV by asking the
 * delegate, lazily, only for a message that could go to the engine (@stale).
 */
struct eip93_skc_shadow {
	int known;
	int enc;			  /* the delegate's direction (its last init's) */
	int pad;			  /* CBC padding on (the default) */
	int tls;			  /* tls-version set: each update is a record (tls.c) */
	unsigned int tlsver;		  /* ... that version */
	size_t tlsmacsize;		  /* tls-mac-size: the MAC a record ends with (0: EtM) */
	int iv_set;			  /* an init has set an IV */
	int stale;			  /* @iv moved in software since: ask the delegate */
	unsigned char iv[EIP93_SKC_BLK];  /* its running IV: CBC's chain, CTR's counter */
	unsigned char oiv[EIP93_SKC_BLK]; /* what "iv" answers: the last IV an init set */
	int oiv_stale;			  /* its own oiv is not @oiv (a sync re-init set it) */
	unsigned int num0;		  /* CTR: its num at the last reset */
	unsigned int cbcnum;		  /* CBC: the num a parameter set (kept, unused) */
	int key_enc;			  /* CBC: the direction its key schedule was made for */
	size_t bufsz;			  /* CBC: the bytes it buffers */
	size_t fed;			  /* bytes its updates (CTR: and ciphers) took since then */
	unsigned char tail[EIP93_SKC_BLK]; /* CBC: the last 16 bytes its updates took */
};

struct skc_ctx {
	struct eip93_cctx base; /* must stay first: the core takes &ctx->base */
	int cbc;		/* AES-CBC (else AES-CTR) */
	struct eip93_skc_shadow sh;
	/* AES-CBC: the key's decryption transform (base.key.ek encrypts); kat.c. */
	struct eip93_engine_key dek;
	int split_dir;	/* decryptions on @dek (the direction workaround) */
	int engine_msg; /* the message under way went to the engine (offload.c) */
	/* A record the engine decrypted: its MAC (tls-mac answers it while @mac_ours). */
	unsigned char *mac;
	size_t maclen;
	int mac_ours;
};

static inline struct skc_ctx *skc_of(struct eip93_cctx *c)
{
	return (struct skc_ctx *)(void *)c;
}

/* skc.c: the dispatch functions params.c puts in the tables. */
void *eip93_skc_newctx(void *provctx, int cbc, size_t ks);
OSSL_FUNC_cipher_freectx_fn eip93_skc_freectx;
OSSL_FUNC_cipher_dupctx_fn eip93_skc_dupctx;
OSSL_FUNC_cipher_encrypt_init_fn eip93_skc_einit;
OSSL_FUNC_cipher_decrypt_init_fn eip93_skc_dinit;
OSSL_FUNC_cipher_update_fn eip93_skc_update;
OSSL_FUNC_cipher_final_fn eip93_skc_final;
OSSL_FUNC_cipher_cipher_fn eip93_skc_cipher;
OSSL_FUNC_cipher_get_ctx_params_fn eip93_skc_get_ctx_params;
OSSL_FUNC_cipher_set_ctx_params_fn eip93_skc_set_ctx_params;

/*
 * offload.c: one update (@oneshot 0) or EVP_Cipher call (1) with data, routed
 * (engine, or the delegate's @sw_op), the shadow following.  The call's answer.
 */
int eip93_skc_data(struct skc_ctx *ctx, int oneshot, unsigned char *out, size_t *outl,
		   size_t outsize, const unsigned char *in, size_t inl);
/*
 * offload.c: the shadow after the delegate took @inl bytes in software (@ok:
 * it did); @in holds the last min(@inl, 16) of them (CBC) as they are after
 * the call: what the delegate copied into its buffer, last of all (in place
 * it may have written over them first).
 */
void eip93_skc_followed(struct skc_ctx *ctx, int oneshot, int ok, const unsigned char *in,
			size_t inl);
/* offload.c: the shadow after a reset of the delegate's buffer and counter position. */
void eip93_skc_reset(struct eip93_skc_shadow *sh, unsigned int num);
/* offload.c: the delegate's running IV into the shadow if it may have moved; 1 or 0. */
int eip93_skc_iv_now(struct skc_ctx *ctx);
/*
 * offload.c: @len bytes of @src through the engine into @dst, which holds a
 * copy of them, from the running IV, and checked; 0, EIP93_ENGINE_WRONG or
 * -errno.
 */
int eip93_skc_run(struct skc_ctx *ctx, const unsigned char *src, unsigned char *dst, size_t len);
/*
 * offload.c: the delegate where software alone would be: an init with the
 * running IV @next, and @hold (NULL: none) fed to it to hold back; 1 or 0.
 */
int eip93_skc_sync(struct skc_ctx *ctx, const unsigned char *next, const unsigned char *hold);

/*
 * tls.c: one TLS 1.2 record (tls-version set), routed: the engine (its CBC,
 * then the padding and MAC handled here as the default provider does) or
 * the delegate.  The call's answer.
 */
int eip93_skc_tls_record(struct skc_ctx *ctx, unsigned char *out, size_t *outl, size_t outsize,
			 const unsigned char *in, size_t inl);
/* tls.c: the record's MAC, released (cleansed). */
void eip93_skc_tls_forget(struct skc_ctx *ctx);
/* tls.c: answer tls-mac from the last record if the engine did it; 1, or 0 (the delegate's). */
int eip93_skc_tls_mac(struct skc_ctx *ctx, OSSL_PARAM params[]);

/* kat.c: the row's key hooks. */
int eip93_skc_key_init(struct eip93_cctx *ctx);
void eip93_skc_key_free(struct eip93_cctx *ctx);
int eip93_skc_key_check(struct eip93_cctx *ctx);
/* kat.c: the transform a request of direction @enc goes to. */
struct eip93_engine_key *eip93_skc_transform(struct skc_ctx *ctx, int enc);

/* check.c: the integrity check of an skcipher result (see there). */
int eip93_skc_check(struct eip93_cctx *ctx, int cbc, int enc, const unsigned char *iv,
		    const struct eip93_engine_pages *pg, const unsigned char *a,
		    const unsigned char *b, size_t len);

/* The workarounds of the driver's bugs (test builds may turn them off: kat.c). */
int eip93_skc_split_dir(void);
int eip93_skc_split_ctr(void);

#endif /* EIP93_SKC_CTX_H */
