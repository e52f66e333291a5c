// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-ahead-check's helpers (ahead_pair.c): a pair of AES-GCM contexts,
 * eip93's (the hooks build, the fake engine) and the default provider's in
 * a second library context; every call is made on both and every return
 * value, output byte and tag compared.  A failure prints what and where and
 * counts in ah_fails.
 */
#ifndef EIP93_AHEAD_H
#define EIP93_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#define AH_IVLEN 12
#define AH_TAGLEN 16
#define AH_REC (16384 + 1) /* a full TLS 1.3 record: 16 KiB and the content type */
#define AH_MAXLEN 65536

struct ah_pair {
	EVP_CIPHER_CTX *t; /* eip93 */
	EVP_CIPHER_CTX *r; /* the default provider */
	int enc;
	const char *what;
};

extern int ah_fails;
extern OSSL_PROVIDER *ah_prov; /* eip93 */

/* Set up both library contexts and the ciphers; 0 or -1. */
int ah_setup(void);
void ah_teardown(void);

/* A failure: printed, counted. */
void ah_fail(const char *what, const char *fmt, ...);

/* A provider counter of eip93 (UINT64_MAX: not there). */
uint64_t ah_counter(const char *name);

/* A pair keyed with @key (@keylen 16 or 32) and @iv (may be NULL), direction @enc. */
int ah_pair_init(struct ah_pair *p, const char *what, const unsigned char *key, size_t keylen,
		 const unsigned char *iv, int enc);
/* EVP_CipherInit_ex2(ctx, NULL, @key, @iv, enc) on both (either may be NULL). */
int ah_pair_reinit(struct ah_pair *p, const unsigned char *key, const unsigned char *iv);
/* EVP_CIPHER_CTX_copy of both into @dst (a new pair). */
int ah_pair_copy(struct ah_pair *dst, const struct ah_pair *src, const char *what);
void ah_pair_free(struct ah_pair *p);
/* EVP_CIPHER_CTX_ctrl on both: the same answer, and the same bytes in @ptr (@n of them). */
int ah_pair_ctrl(struct ah_pair *p, int type, int arg, void *ptr, size_t n);

/*
 * One generic message on both: a new IV if @iv != NULL, the AAD, the data
 * (@in, @len), (opening) the tag, the final, (sealing) the tag.  Sealing:
 * @out and @tag get the (identical) ciphertext and tag.  Opening: @tag is
 * the tag to check; returns whether both accepted (1), both refused (0),
 * or -1 on any difference (counted).
 */
int ah_msg(struct ah_pair *p, const unsigned char *iv, const unsigned char *aad, size_t aadlen,
	   const unsigned char *in, size_t len, unsigned char *out, unsigned char *tag);

/* The same in place: @buf holds the input and gets the output. */
int ah_msg_inplace(struct ah_pair *p, const unsigned char *iv, const unsigned char *aad,
		   size_t aadlen, unsigned char *buf, size_t len, unsigned char *tag);

/*
 * A TLS 1.2 record in place on both (EVP_CTRL_AEAD_TLS1_AAD, EVP_Cipher):
 * sealing, @buf holds 8 bytes of room, the @len plaintext bytes and 16 of
 * room; opening, the whole record.  Returns EVP_Cipher's answer (the same
 * on both) and leaves eip93's output in @buf, or -2 on a difference.
 */
int ah_tls12(struct ah_pair *p, uint64_t seq, unsigned char *buf, size_t len);

/* Deterministic test bytes. */
void ah_fill(unsigned char *b, size_t n, unsigned int seed);

#endif /* EIP93_AHEAD_H */
