// SPDX-License-Identifier: Apache-2.0
/*
 * The fuzzer's call-script language: what a fuzz input means.
 *
 * An input is a 16-byte header and then up to FZ_MAX_OPS operations of 8
 * bytes each.  Fixed-size operations keep the format easy to mutate (every
 * byte string decodes to some script, nothing is ever rejected) and easy to
 * write by hand for the seed corpus (test/fuzz/seeds.c).  Payload bytes are
 * not carried in the input: they come from a PRNG seeded by the header, so a
 * 100-byte input can drive 32 KiB messages, and both providers see the same
 * bytes.
 *
 * Header:
 *   [0]    flags: bits 0-1 key size (AES-128/192/256, 3 = 256), bits 2 and 4
 *          both set: read every context parameter after every step, bit 3
 *          start decrypting, bit 5 the composition (0: ctr(aes-eip93), 1: the
 *          kernel's gcm_base(ctr(aes-eip93),ghash-generic), harness.c), bit 7
 *          the cipher: 0 AES-GCM (every input written before AES-CTR and
 *          AES-CBC came), 1 AES-CTR or AES-CBC by bit 6 (0 CTR, 1 CBC; with
 *          bit 7 clear, bit 6 means nothing)
 *   [1..7] fault plan of the engine fake: site (12..15; else none), kind|err, nth, every,
 *          block, count, mask (fz_decode())
 *   [8..15] data seed
 * Operation: [0] code, [1..3] flags f1 f2 f3, [4..5] len (LE), [6..7] len2.
 *
 * AES-CTR and AES-CBC inputs (the "skc" worlds) read the header's spare
 * bits too (skc.h): [1] bits 4-5 driver bugs the fake does *not* model
 * (0: both on), bits 6-7 the first IV's class; [2] kind % 9 (tail and page
 * too); [4] bits 1-2 page fault's buffer, bits 3-7 its offset from the page
 * boundary (-16..15); [5] bits 1-5 tail fault's byte; [6] bits 2-3 which
 * page boundary.  Their operation codes are enum fzs_code (skc.h), [0] % FZS_NCODES.
 */
#ifndef EIP93_FUZZ_SCRIPT_H
#define EIP93_FUZZ_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef FUZZ_KEYSTREAM_FAULTS
/*
 * Wrong keystream and unwritten output are faults only integrity checks
 * catch: 1 lets the decoder choose them (the default), 0 leaves them out.
 */
#define FUZZ_KEYSTREAM_FAULTS 1
#endif

#ifndef FUZZ_AVOID_KNOWN
/*
 * 1: the runner does not make the calls that trigger divergences already
 * known and reproduced in test/fuzz/regress, so a campaign or the
 * CI smoke looks for new ones; every call left out is logged on both sides
 * as "avoided(...)".  0 (the default): every call is made.  Goes once alg/
 * is fixed.
 */
#define FUZZ_AVOID_KNOWN 0
#endif

#define FZ_HEADER 16
#define FZ_OPSIZE 8
#define FZ_MAX_OPS 24
#define FZ_MAX_LEN 65536 /* largest payload an operation asks for */
#define FZ_MAX_AAD 1024
#define FZ_MAX_RECORD 16384 /* TLS payloads: modulo this (+1 for 1.3's type byte) */

enum fz_code {
	FZ_INIT,    /* EVP_CipherInit_ex* with any of cipher, key, IV, direction */
	FZ_IVLEN,   /* AEAD IV length by ctrl or parameter */
	FZ_AAD,	    /* one AAD update */
	FZ_DATA,    /* one data update */
	FZ_FINAL,   /* final (or EVP_Cipher(NULL, 0)) */
	FZ_SET_TAG, /* AEAD tag by ctrl or parameter */
	FZ_GET_TAG,
	FZ_QUERY,    /* every gettable context parameter, the EVP accessors */
	FZ_IV_FIXED, /* TLS fixed IV: 4 bytes, -1 (whole IV), other lengths */
	FZ_IV_GEN,   /* EVP_CTRL_GCM_IV_GEN */
	FZ_IV_INV,   /* EVP_CTRL_GCM_SET_IV_INV */
	FZ_TLS_AAD,  /* EVP_CTRL_AEAD_TLS1_AAD alone (any length field) */
	FZ_COPY,     /* EVP_CIPHER_CTX_copy into the other slot */
	FZ_SWITCH,   /* continue on the other slot */
	FZ_MSG,	     /* macro: one generic message */
	FZ_TLS12,    /* macro: one TLS 1.2 record (TLS1_AAD + in-place update/one-shot) */
	FZ_TLS13,    /* macro: one TLS 1.3 record (per-record IV) */
	FZ_SSH,	     /* macro: one OpenSSH packet (IV_GEN, EVP_Cipher AAD/data/final) */
	FZ_PARAMS,   /* set_params with several keys at once */
	FZ_RESET,    /* EVP_CIPHER_CTX_reset */
	FZ_NCODES
};

struct fz_op {
	enum fz_code code;  /* AES-GCM's meaning of [0] */
	unsigned int scode; /* AES-CTR's and AES-CBC's (enum fzs_code, skc.h) */
	uint8_t f1, f2, f3;
	uint16_t len, len2; /* raw: decoded by fz_size() etc. */
};

/* The fake's fault plan, in fuzzer terms (mapped onto eip93_fake_plan). */
struct fz_plan {
	int site; /* 0 none, 1 open, 2 seal, 3 unseal, 4 data */
	int kind; /* 0 errno, 1 short, 2 badmsg, 3 keystream, 4 nowrite, 5 tagmask, 6 skip */
	int err;
	unsigned long nth;
	int every;
	long block;
	unsigned long count;
	unsigned char mask;
	/* AES-CTR and AES-CBC inputs only (kind 7 tail, 8 page): see the header above. */
	unsigned long byte;
	long at;
	int buf; /* 0 out, 1 in, 2 tx */
	unsigned long page;
};

enum { FZ_CTR = 0, FZ_KGCM = 1 };
/* The cipher a script runs (header bit 7, then 6). */
enum { FZ_GCM = 0, FZ_AES_CTR = 1, FZ_AES_CBC = 2, FZ_NCIPHERS = 3 };
/* Driver bugs the fake models for an AES-CTR or AES-CBC input (engine/fake.h's values). */
#define FZ_BUG_DIRECTION 1u
#define FZ_BUG_CTR32 2u

struct fz_script {
	int keysize;	 /* 0, 1, 2: 128, 192, 256 */
	int composition; /* FZ_CTR or FZ_KGCM */
	int cipher;	 /* FZ_GCM, FZ_AES_CTR or FZ_AES_CBC */
	int query_each;
	int start_dec;
	unsigned int bugs; /* FZ_BUG_*: AES-CTR and AES-CBC inputs */
	int iv_class;	   /* the first IV: 0 random, 1-3 near a 32-, 64-, 128-bit counter wrap */
	struct fz_plan plan;
	uint64_t seed;
	size_t nops;
	struct fz_op ops[FZ_MAX_OPS];
};

/* fz_decode() - any byte string is a script (missing bytes read as zero). */
void fz_decode(const uint8_t *data, size_t size, struct fz_script *s);

/* fz_size() - the payload length a raw len field selects (see decode.c). */
size_t fz_size(uint16_t raw);

/* fz_aadlen() - the AAD length a raw len2 field selects. */
size_t fz_aadlen(uint16_t raw);

/* fz_taglen() - the tag length a selector picks (16 most often). */
int fz_taglen(uint8_t sel);

/* What the selectors of FZ_IVLEN, FZ_IV_FIXED, FZ_IV_GEN and FZ_IV_INV mean. */
extern const int fz_ivlens[10];
extern const int fz_fixedlens[8];
extern const int fz_genargs[7];
extern const int fz_invargs[4];

/* fz_describe_op() - one line for a step of the script @s. */
void fz_describe_op(const struct fz_script *s, const struct fz_op *op, char *buf, size_t len);

/* fz_print() - the whole script, one step a line; @mark: step to flag or -1. */
void fz_print(FILE *f, const struct fz_script *s, long mark);

/* fz_encode_*() - the inverse, for writing seeds by hand. */
size_t fz_encode_header(uint8_t *out, int keysize, int flags, const uint8_t plan[7], uint64_t seed);
size_t fz_encode_op(uint8_t *out, unsigned int code, uint8_t f1, uint8_t f2, uint8_t f3,
		    uint16_t len, uint16_t len2);
/* fz_raw_size() - a raw len field that decodes to exactly @n (n <= 8191 or 4096..32768). */
uint16_t fz_raw_size(size_t n);

#endif /* EIP93_FUZZ_SCRIPT_H */
