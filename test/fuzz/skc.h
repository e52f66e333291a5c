// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-CTR and AES-CBC worlds of the call-script language (header bit 7,
 * script.h): their operations and what their flag bits mean, and the
 * runner's entry points for them (skc_steps.c, skc_macro.c; the words in
 * skc_script.c).  The same lockstep as AES-GCM's: every step on eip93 (with
 * the engine fake, the driver's two bugs modelled unless the header says
 * not) and then on the default provider, every call's return, length,
 * output byte, error reason and parameter compared.
 *
 * Sizes: fzs_size() — len picks a size as AES-GCM's do (fz_size(): over
 * half in the engine's 4-32 KiB window), len2's two low bits its shape:
 * 0, 1 whole blocks (cut down to a multiple of 16), 2 exact, 3 whole
 * blocks and a partial one of 1-15 bytes (len2 >> 2).
 *
 * IV selectors (3 bits): 0-2 fresh, 3-5 fresh but near the wrap of the
 * counter's last 32 bits, 64 bits, all 128 bits (at most 2047 blocks
 * before it), 6 the slot's last IV again, 7 the first IV.
 */
#ifndef EIP93_FUZZ_SKC_H
#define EIP93_FUZZ_SKC_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

enum fzs_code {
	/*
	 * An init. f1: bit 0 cipher, 1 key, 2 IV, bits 3-4 direction (enc,
	 * dec, -1, the other one), bits 5-6 the call (EVP_CipherInit_ex,
	 * EVP_Encrypt/DecryptInit_ex, EVP_CipherInit_ex2, EVP_CipherInit_ex2
	 * with parameters).  f2: bits 0-1 key number, bits 2-3 key size (0 the
	 * script's, 1-3 AES-128/192/256), bit 4 the other mode's cipher
	 * (CTR <-> CBC), parameters: bit 5 padding, bit 6 num, bit 7 an unknown
	 * one.  f3: bits 0-2 IV selector, bits 3-6 num, bit 7 padding's value.
	 */
	FZS_INIT,
	/*
	 * One update or EVP_Cipher with data.  f1 % 3 the call (EVP_CipherUpdate,
	 * EVP_Encrypt/DecryptUpdate, EVP_Cipher); f2 % 3 the input (plaintext,
	 * the model's ciphertext from its last IV, junk); f3: bit 0 in place,
	 * bit 1 overlapping by a block (bit 2: the output before the input),
	 * bits 3-5 the input's offset in its buffer, bits 6-7 the output's (x5).
	 */
	FZS_DATA,
	FZS_FINAL, /* f1 % 3: EVP_CipherFinal_ex, EVP_Encrypt/DecryptFinal_ex, EVP_Cipher(NULL, 0) */
	/*
	 * EVP_CIPHER_CTX_set_params with several keys.  f1: bit 0 padding
	 * (f2 bit 0), 1 num (fzs_nums[f3 % 8]), 2 keylen (f2 bit 1: 8 bytes
	 * more), 3 tls-version (fzs_tlsvers[(f2 >> 2) & 3]), 4 tls-mac-size
	 * (fzs_macsizes[(f2 >> 4) & 7]), 5 ivlen (f2 bit 7: 12, else 16), 6 an
	 * unknown key, 7 the keys in reverse order.
	 */
	FZS_PARAMS,
	/*
	 * An EVP setter.  f1 % 4: EVP_CIPHER_CTX_set_padding(f2 & 1),
	 * EVP_CIPHER_CTX_set_num(fzs_nums[f2 % 8]), EVP_CIPHER_CTX_set_key_length
	 * (16, 24, 32, 0, 15, 64 by f2 % 6), EVP_CIPHER_CTX_ctrl(SET_IVLEN,
	 * 16 or 12 by f2 & 1).
	 */
	FZS_SETTER,
	FZS_QUERY,  /* every gettable parameter at several sizes, the accessors, the lists */
	FZS_COPY,   /* EVP_CIPHER_CTX_copy into the other slot; f1 bit 0: continue there */
	FZS_SWITCH, /* continue on the other slot */
	FZS_RESET,  /* EVP_CIPHER_CTX_reset */
	/*
	 * Macro: one message.  f1: bit 0 decrypt, bits 1-2 the call (% 3, as
	 * FZS_DATA), bits 3-5 the init first (fzs_reinits[]), bit 6 no final,
	 * bit 7 a copy after the first part (continued on).  f2: bits 0-1
	 * parts - 1, bits 2-3 where they are cut (block-aligned, anywhere, a
	 * partial block first, evenly), bit 4 padding off (set_padding after
	 * the init), bit 5 in place, bit 6 a corrupted last block, bit 7 a
	 * zero-length update after every part.  f3: bits 0-2 IV selector, bit 3
	 * the running IV and num read after every part, bits 4-5 key number.
	 * A decryption gets the reference cipher's encryption (padded as the
	 * model says) of the plaintext from the IV the init set.
	 */
	FZS_MSG,
	/*
	 * Macro: one TLS record (tls-version and tls-mac-size set first, the
	 * record in place).  f1: bit 0 decrypt, bits 1-2 the version
	 * (fzs_tls_version()), bits 3-5 fzs_macsizes[], bit 6 a wrong padding
	 * byte, bit 7 not in place.  len: the payload, modulo 16385.
	 */
	FZS_TLS,
	FZS_NCODES
};

/* What the selectors mean (skc_script.c). */
extern const unsigned int fzs_nums[8];
extern const unsigned int fzs_tlsvers[4];
extern const size_t fzs_macsizes[8];
extern const char *const fzs_reinits[8];

/* FZS_TLS's version: TLS 1.0, TLS 1.2, TLS 1.0, SSL 3 by f1 bits 1-2. */
static inline unsigned int fzs_tls_version(uint8_t f1)
{
	static const unsigned int v[4] = { 0x301, 0x303, 0x301, 0x300 };

	return v[(f1 >> 1) & 3];
}

/* fzs_size() - a payload length from len and len2 (see above). */
size_t fzs_size(uint16_t len, uint16_t len2);
/* fzs_header() - the AES-CTR/AES-CBC meaning of the header's spare bits (script.h). */
void fzs_header(const uint8_t h[16], struct fz_script *s);
/* fzs_describe_op() - one line for an AES-CTR or AES-CBC step. */
void fzs_describe_op(const struct fz_op *op, char *buf, size_t len);

/* skc_steps.c: the side's start (the implicit first init) and one step. */
void fzs_side_start(struct fz_side *sd, const struct fz_script *s);
void fzs_run_op(struct fz_side *sd, const struct fz_op *op);
/* fzs_query() - every gettable parameter and accessor of the slot's context. */
void fzs_query(struct fz_side *sd);
/* fzs_iv() - the 16-byte IV an IV selector picks (the model's, the first, fresh ones). */
void fzs_iv(struct fz_side *sd, uint8_t sel, unsigned char iv[16]);
/* fzs_reason() - the reason of the last error queued (0: none) logged; the queue emptied. */
void fzs_reason(struct fz_side *sd, const char *what);
/* fzs_running() - the running IV and num read (between the parts of a message). */
void fzs_running(struct fz_side *sd);
/*
 * fzs_avoid_flip() - with FUZZ_AVOID_KNOWN, leave out an init without a key
 * (nor a cipher) that puts a CBC context in the other direction than its
 * key schedule's (regress/cbc-direction-without-key): 1; else 0.
 */
int fzs_avoid_flip(struct fz_side *sd, const EVP_CIPHER *c, const unsigned char *key, int enc);
/*
 * fzs_copy() - FZS_COPY (fz_copy()), unless the slot's context may hold an
 * allocated tls-mac: OpenSSL's AES-CBC dupctx copies the pointer, and both
 * contexts free it (3.0 and 3.5; a double free in the default provider's
 * code, whichever side), so that copy is never asked for (logged alike).
 */
void fzs_copy(struct fz_side *sd, int cont);
/* fzs_tls_used() - the model after a CBC update: a tls-mac may now be allocated. */
void fzs_tls_used(struct fz_model *m);
/*
 * fzs_avoid_num() - with FUZZ_AVOID_KNOWN, leave out a nonzero num for a CBC
 * context (@mode 1) (regress/cbc-num-after-engine): 1; else 0.
 */
int fzs_avoid_num(struct fz_side *sd, int mode, unsigned int num);
/*
 * fzs_avoid_pad() - with FUZZ_AVOID_KNOWN, leave out a padding change of a
 * CBC context that has taken data since its init
 * (regress/cbc-padding-off-held-block): 1; else 0.
 */
int fzs_avoid_pad(struct fz_side *sd);
/* fzs_keyed() - the model after a successful init with @c, @key and direction @enc. */
void fzs_keyed(struct fz_model *m, const EVP_CIPHER *c, const unsigned char *key, int enc);
/* fzs_tls_mac_ptr() - where the tls-mac parameter points now (NULL: nowhere), not logged. */
const void *fzs_tls_mac_ptr(struct fz_side *sd);
/* fzs_tls_mac() - the tls-mac parameter after a record (its bytes if set by it: skc_query.c). */
void fzs_tls_mac(struct fz_side *sd, int fresh, const unsigned char *at);
/*
 * fzs_update() - one update (@api 0, 1) or EVP_Cipher (2) with data, logged
 * with its error reason; the output's length into *@outl.  1 on success.
 */
int fzs_update(struct fz_side *sd, const char *what, int api, unsigned char *out,
	       const unsigned char *in, size_t inl, size_t *outl);
/* fzs_final() - a final (@api as fzs_update(); 2: EVP_Cipher(NULL, 0)) into @out (16 bytes). */
int fzs_final(struct fz_side *sd, const char *what, int api, unsigned char *out);
/*
 * fzs_ref() - the reference cipher (default provider) over @len bytes from
 * the model's key and @iv, padded if @pad (CBC), encrypting if @enc; the
 * output's length (-1: refused, then @out holds @in).  @out has room for
 * @len + 16.
 */
long fzs_ref(const struct fz_side *sd, const struct fz_model *m, const unsigned char *iv, int enc,
	     int pad, const unsigned char *in, size_t len, unsigned char *out);

/* skc_macro.c */
void fzs_macro_msg(struct fz_side *sd, const struct fz_op *op);
void fzs_macro_tls(struct fz_side *sd, const struct fz_op *op);

#endif /* EIP93_FUZZ_SKC_H */
