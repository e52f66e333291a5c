/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eip93-integrity-check's two parts: integrity_check.c (modes, options, the
 * driver's knobs, the checks) and integrity_message.c (one message on eip93
 * and on the default provider, and what the caller got).
 */
#ifndef EIP93_INTEGRITY_H
#define EIP93_INTEGRITY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#define INTEGRITY_MAXLEN 32768
#define INTEGRITY_MAXAAD 1024
#define INTEGRITY_PAGE 4096

/* The ciphers: eip93's and the default provider's AES-256-GCM. */
extern EVP_CIPHER *c_eip93, *c_dflt;

struct key {
	EVP_CIPHER_CTX *c;
	unsigned char key[32];
};

/* Where a message's bytes are: AAD length, the caller's buffers' page offsets. */
struct layout {
	size_t aad;
	size_t in_off;	/* the input's offset in its page (in place: the buffer's) */
	size_t out_off; /* the output's offset in its page (not in place) */
	int in_place;	/* 1 in place, 0 not, -1 either at random per message */
};

/* What one message released that differs from the default provider. */
struct outcome {
	int refused;	    /* a valid message refused (wrong too) */
	size_t wrong_bytes; /* payload and tag bytes that differ */
	int wrong_tag;	    /* an encryption's tag differs */
	/*
	 * The 16-byte blocks of a released output (from the payload's start)
	 * that are not the right output: the input block (encrypting: the
	 * plaintext; decrypting: the ciphertext, i.e. no keystream), other
	 * bytes that are not a few-bit variant of the right block (memory the
	 * engine never wrote: stale), of which the canary the caller's output
	 * held before the message.
	 */
	size_t plain_blocks, stale_blocks, canary_blocks;
};

uint64_t rnd(void);
void fill(unsigned char *b, size_t n);

/*
 * One message on @k (eip93: key already set) and on a fresh default context,
 * laid out as @l says, @inplace or not (an output buffer pre-filled with a
 * canary); 1 if output, tag and result are the same, 0 if not (@o says how),
 * -1 on a harness failure.
 */
int message(struct key *k, int enc, int inplace, size_t len, const struct layout *l,
	    struct outcome *o);

#endif
