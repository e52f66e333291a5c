// SPDX-License-Identifier: Apache-2.0
/* eip93-icount: shared between the driver (icount.c) and the message shapes (runner.c). */
#ifndef EIP93_ICOUNT_H
#define EIP93_ICOUNT_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/modes.h>

#include "../../alg/gcm/route.h"

#include "engine.h"

#define WARMUP 2
#define MAX_MESSAGES 256
#define MAX_LEN 32768
#define IVLEN 12
#define TAGLEN 16
#define EIV 8
/* The largest output a case compares: a TLS 1.2 record. */
#define MAX_OUT (EIV + MAX_LEN + TAGLEN)

struct opts {
	int messages;
	const char *path;	/* engine, delegated or all */
	const char *contenders; /* comma-separated */
	const char *label;	/* the eip93 contender's name in the dumps */
	const char *only;	/* run only cases whose name contains this */
	const char *raw;	/* the raw loop's backend: fake or afalg */
};
extern struct opts opt;

struct icase {
	const char *path;  /* "delegated" or "engine" */
	const char *shape; /* generic, tls13, tls12, ssh */
	int enc;
	size_t len; /* payload bytes */
};

enum who { WHO_DEFAULT, WHO_EIP93, WHO_RAW };

/* One contender's state over one case. */
struct runner {
	const struct icase *c;
	enum who who;
	int shape; /* index: generic, tls13, tls12, ssh */
	EVP_CIPHER_CTX *ctx;
	struct eip93_engine_key ek; /* WHO_RAW */
	EVP_CIPHER_CTX *ecb;	    /* WHO_RAW on ctr(aes-eip93): the key's AES */
	struct eip93_gcm_route rt;  /* and libcrypto's GHASH (alg/gcm/route.c) */
	unsigned char *in, *out;    /* out == in: in place */
	unsigned char *plain;	    /* the plaintext every encryption starts from */
	unsigned char *pristine;    /* decryption inputs: one per message (ssh) or one */
	size_t stride;		    /* bytes between two messages' inputs in pristine */
	size_t msg;		    /* the message prepared */
	unsigned char nonce[IVLEN], tag[TAGLEN], aad[16];
	size_t aadlen;
	/* AES-CTR/CBC shapes (skc.c) */
	int kind;		  /* 0 (AES-GCM), ctr, cbc, cbc without padding, TLS 1.2 record */
	unsigned char riv[16];	  /* WHO_RAW: the running IV */
	size_t reclen;		  /* decryption: the record's length */
	const unsigned char *mac; /* decryption: tls-mac as the cipher handed it out */
};

int setup_providers(void);
void teardown_providers(void);
/* The eip93 provider's engine message counter. */
uint64_t engine_messages(void);

int runner_open(struct runner *r, const struct icase *c, enum who who);
/* Make message @i ready (not counted). */
int runner_prep(struct runner *r, int i);
/* The counted calls of one message; 0 or -1. */
int runner_op(struct runner *r);
/* The last message's result in comparable form (plaintext for TLS 1.2 encryptions). */
size_t runner_output(struct runner *r, unsigned char *buf);
void runner_close(struct runner *r);
/* The raw loop's library context: the default provider alone. */
OSSL_LIB_CTX *raw_libctx_get(void);

/* AES-CTR and AES-CBC (skc.c): the shape's index, or -1 for an AES-GCM shape. */
int skc_shape(const char *shape);
int skc_setup(void);
void skc_teardown(void);
/* Runs every AES-CTR/CBC case of opt.path through @run; the failures. */
int skc_cases(int (*run)(const struct icase *));
int skc_open(struct runner *r, const struct icase *c, enum who who);
int skc_prep(struct runner *r, int i);
int skc_op(struct runner *r);
size_t skc_output(struct runner *r, unsigned char *buf);

#endif /* EIP93_ICOUNT_H */
