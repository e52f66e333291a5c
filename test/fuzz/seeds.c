// SPDX-License-Identifier: Apache-2.0
/*
 * The seed corpus, written as code so each entry says what it is: a starting
 * point per caller shape for libFuzzer, and one reproducer per review defect.
 * `eip93-fuzz-replay --emit DIR` writes DIR/corpus (must agree today),
 * DIR/regress (issue 11's review defects: agree once alg/ is fixed) and
 * DIR/integrity (keystream/nowrite faults: agree once integrity checks land).
 * The checked-in test/fuzz/{corpus,regress,integrity} are this output;
 * test/fuzz/README.md lists them.
 */
#include "seeds.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "script.h"

struct sb {
	uint8_t b[FZ_HEADER + FZ_OPSIZE * FZ_MAX_OPS];
	size_t n;
};

/* Fault plan bytes (header [1..7]); see fz_decode(). */
#define PLAN_NONE                                                                                  \
	{                                                                                          \
		0, 0, 0, 0, 0, 0, 0                                                                \
	}
#define SITE_OPEN 12
#define SITE_SEAL 13
#define SITE_UNSEAL 14
#define SITE_DATA 15

static void hdr(struct sb *s, int keysize, int flags, const uint8_t plan[7], uint64_t seed)
{
	s->n = fz_encode_header(s->b, keysize, flags, plan, seed);
}

static void op(struct sb *s, enum fz_code c, uint8_t f1, uint8_t f2, uint8_t f3, size_t len,
	       uint16_t len2)
{
	s->n += fz_encode_op(s->b + s->n, c, f1, f2, f3, fz_raw_size(len), len2);
}

/* MSG flags: f1 = dir | api<<1 | timing<<3 | reinit<<5; f2 = aparts | (dparts-1)<<2 | bits. */
#define ENC 0
#define DEC 1
#define API_CIPHERUPDATE 0
#define API_ENCDEC 1
#define API_EVP_CIPHER 2
#define TAG_EARLY 0
#define TAG_LATE 1
#define TAG_BOTH 2
#define RE_IV 0
#define RE_KEYIV 1
#define RE_CIPHER 2
#define RE_NONE 3
#define RE_KEY_THEN_IV 4
#define RE_IV_DIRLESS 5
#define RE_SAMEKEY 6
#define MSG_F1(dir, api, timing, re) ((uint8_t)((dir) | (api) << 1 | (timing) << 3 | (re) << 5))
#define MSG_F2(aparts, dparts) ((uint8_t)((aparts) | ((dparts)-1) << 2))
#define INPLACE 0x10
#define COPYMID 0x20
#define CORRUPT 0x40
#define ZEROUPD 0x80
#define AAD13 0xc001			  /* fz_aadlen(): 13 */
#define AAD(n) ((uint16_t)(0x4000 | (n))) /* up to 512 */

/* INIT flags */
#define I_CIPHER 1
#define I_KEY 2
#define I_IV 4
#define I_ENC (0 << 3)
#define I_DEC (1 << 3)
#define I_SAME (2 << 3)
#define I_FLIP (3 << 3)

#define QUERY_EACH 0x14 /* header flags: read every parameter after every step */
#define START_DEC 0x08

struct seed {
	const char *dir, *name;
	void (*build)(struct sb *s);
};

static const uint8_t none[7] = PLAN_NONE;

static void s_enc_4096(struct sb *s)
{
	hdr(s, 0, 0, none, 1);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 4096, AAD13);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(1, 1), 6, 4096,
	   AAD13);
}

static void s_dec_tag_early_16k(struct sb *s)
{
	hdr(s, 2, 8, none, 2);
	op(s, FZ_MSG, MSG_F1(DEC, API_ENCDEC, TAG_EARLY, RE_KEYIV), MSG_F2(1, 1), 0, 16384,
	   AAD(20));
}

static void s_dec_tag_late(struct sb *s)
{
	hdr(s, 1, 8, none, 3);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_LATE, RE_IV), MSG_F2(1, 1), 0, 8192,
	   AAD(7));
}

static void s_parts(struct sb *s)
{
	hdr(s, 2, 0, none, 4);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(3, 4), 1, 20000, AAD(300));
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(2, 3), 2, 20000,
	   AAD(40));
}

static void s_inplace_32k(struct sb *s)
{
	hdr(s, 0, 0, none, 5);
	op(s, FZ_MSG, MSG_F1(ENC, API_ENCDEC, 0, RE_CIPHER), MSG_F2(1, 1) | INPLACE, 0, 32768,
	   AAD13);
	op(s, FZ_MSG, MSG_F1(DEC, API_ENCDEC, TAG_BOTH, RE_IV), MSG_F2(1, 1) | INPLACE, 6, 32768,
	   AAD13);
}

static void s_sizes(struct sb *s)
{
	static const size_t sz[] = { 0, 1, 15, 16, 17, 4095, 4097, 32767, 32768 };

	hdr(s, 0, 0, none, 6);
	for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++)
		op(s, FZ_MSG, MSG_F1(i & 1, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(1, 1), 0,
		   sz[i], AAD13);
	/* 32769 and 64 KiB through the boundary class */
	s->n += fz_encode_op(s->b + s->n, FZ_MSG, 0, MSG_F2(1, 2), 0, 1 << 13 | 13, AAD13);
	s->n += fz_encode_op(s->b + s->n, FZ_MSG, 0, MSG_F2(1, 2), 0, 1 << 13 | 15, AAD13);
}

static void s_ivlen16(struct sb *s)
{
	hdr(s, 0, QUERY_EACH, none, 7);
	op(s, FZ_IVLEN, 0, 0, 0, 2, 0); /* fz_ivlens[2] = 16 */
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
	op(s, FZ_IVLEN, 1, 0, 0, 0, 0); /* back to 12, by parameter */
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
}

static void s_copy_mid(struct sb *s)
{
	hdr(s, 1, 0, none, 8);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 2) | COPYMID, 0, 12000,
	   AAD13);
	op(s, FZ_SWITCH, 0, 0, 0, 0, 0);
	op(s, FZ_DATA, 0, 0, 0, 6000, 0);
	op(s, FZ_FINAL, 0, 0, 0, 0, 0);
	op(s, FZ_GET_TAG, 0, 0, 0, 0, 0);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(1, 2) | COPYMID, 0,
	   9000, 5);
}

static void s_reinits(struct sb *s)
{
	hdr(s, 2, 0, none, 9);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_KEY_THEN_IV), MSG_F2(1, 1), 0x10, 5000,
	   AAD13);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_NONE), MSG_F2(1, 1), 0, 5000, AAD13);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_SAMEKEY), MSG_F2(1, 1), 0, 5000, AAD13);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV_DIRLESS), MSG_F2(1, 1), 0, 5000,
	   AAD13);
	op(s, FZ_INIT, I_KEY | I_SAME, 1, 0, 0, 0); /* key only, mid-nothing */
	op(s, FZ_INIT, I_SAME, 0, 0, 0, 0);	    /* nothing at all */
	op(s, FZ_DATA, 0, 0, 0, 5000, 0);
	op(s, FZ_FINAL, 0, 0, 0, 0, 0);
}

static void s_flip(struct sb *s)
{
	hdr(s, 0, 0, none, 10);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 7, 6000, AAD13);
	op(s, FZ_INIT, I_IV | I_FLIP, 0, 7, 0, 0); /* decrypt with the first IV */
	op(s, FZ_SET_TAG, 0, 0, 0, 0, 0);
	op(s, FZ_AAD, 0, 0, 0, 0, AAD13);
	op(s, FZ_DATA, 0, 2, 0, 6000, 0);
	op(s, FZ_FINAL, 0, 0, 0, 0, 0);
	op(s, FZ_INIT, I_FLIP, 0, 0, 0, 0); /* flip again, no IV */
	op(s, FZ_DATA, 0, 0, 0, 6000, 0);
}

static void s_bad_tags(struct sb *s)
{
	hdr(s, 0, 8, none, 11);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(1, 1) | CORRUPT, 0,
	   8000, AAD13);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(1, 1), 0, 8000,
	   AAD13);
	op(s, FZ_SET_TAG, 1, 0, 0, 0, 0);
	op(s, FZ_SET_TAG, 2, 1, 4, 0, 0);
	op(s, FZ_SET_TAG, 0, 0, 8, 0, 0);
	op(s, FZ_FINAL, 0, 0, 0, 0, 0);
}

static void s_oneshot_api(struct sb *s)
{
	hdr(s, 1, QUERY_EACH, none, 12);
	op(s, FZ_MSG, MSG_F1(ENC, API_EVP_CIPHER, 0, RE_IV), MSG_F2(1, 1), 0, 10000, AAD13);
	op(s, FZ_MSG, MSG_F1(DEC, API_EVP_CIPHER, TAG_EARLY, RE_IV), MSG_F2(2, 2), 0, 10000, AAD13);
}

static void s_params(struct sb *s)
{
	hdr(s, 0, 0, none, 13);
	op(s, FZ_QUERY, 0, 0, 0, 0, 0);
	op(s, FZ_PARAMS, 0x7f, 0, 0, 4096, 0);
	op(s, FZ_PARAMS, 0x13, 8, 0, 0, 0);
	op(s, FZ_GET_TAG, 1, 0, 0, 0, 0);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 4096, AAD13);
	op(s, FZ_GET_TAG, 1, 0, 4, 0, 0);
	op(s, FZ_QUERY, 0, 0, 0, 0, 0);
}

static void s_tls12(struct sb *s)
{
	hdr(s, 0, 0, none, 14);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_TLS12, 0, 0, 0, 8000, 0);  /* encrypt, CipherUpdate */
	op(s, FZ_TLS12, 2, 0, 0, 16384, 0); /* encrypt, EVP_Cipher */
	op(s, FZ_TLS12, 0, 0, 0, 100, 0);
	op(s, FZ_QUERY, 0, 0, 0, 0, 0);
}

static void s_tls12_dec(struct sb *s)
{
	hdr(s, 2, 8, none, 15);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_TLS12, 1, 0, 0, 8000, 0);
	op(s, FZ_TLS12, 3, 0, 0, 4096, 0);
	op(s, FZ_TLS12, 1 | 3 << 3, 0, 0, 6000, 0); /* bad tag */
	op(s, FZ_TLS12, 3 | 2 << 3, 0, 0, 6000, 0); /* bad ciphertext */
	op(s, FZ_TLS12, 1, 0, 0, 5000, 0);
}

static void s_tls12_ivgen(struct sb *s)
{
	hdr(s, 0, 0, none, 16);
	op(s, FZ_IV_FIXED, 2, 0, 0, 0, 0); /* -1: whole IV */
	op(s, FZ_IV_GEN, 0, 0, 0, 0, 0);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_NONE), MSG_F2(1, 1), 0, 7000, AAD13);
	op(s, FZ_IV_GEN, 3, 0, 0, 0, 0);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_NONE), MSG_F2(1, 1), 0, 7000, AAD13);
	op(s, FZ_INIT, I_DEC, 0, 0, 0, 0);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_IV_INV, 0, 0, 0, 0, 0);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_NONE), MSG_F2(1, 1), 0, 7000,
	   AAD13);
}

static void s_tls13(struct sb *s)
{
	hdr(s, 0, 0, none, 17);
	for (int i = 0; i < 3; i++)
		op(s, FZ_TLS13, (uint8_t)(i << 1), 0, 0, 4000 + 5000 * (size_t)i, 0);
	op(s, FZ_COPY, 1, 0, 0, 0, 0);
	op(s, FZ_TLS13, 0, 0, 0, 16385, 0);
}

static void s_tls13_dec(struct sb *s)
{
	hdr(s, 2, 8, none, 18);
	op(s, FZ_TLS13, 1 | TAG_EARLY << 3, 0, 0, 9000, 0);
	op(s, FZ_TLS13, 1 | TAG_LATE << 3, 0, 0, 9000, 0);
	op(s, FZ_TLS13, 1 | TAG_EARLY << 3 | 0x20, 0, 0, 9000, 0);
	op(s, FZ_TLS13, 3 | TAG_BOTH << 3, 0, 0, 300, 0);
}

static void s_ssh(struct sb *s)
{
	hdr(s, 2, 0, none, 19);
	op(s, FZ_IV_FIXED, 2, 0, 0, 0, 0);
	for (int i = 0; i < 4; i++)
		op(s, FZ_SSH, 0, 0, 0, 4096 + 4096 * (size_t)i, 0);
	op(s, FZ_SSH, 4, 0, 0, 4096, 0); /* no IV_GEN: the IV is used */
}

static void s_ssh_dec(struct sb *s)
{
	hdr(s, 0, 8, none, 20);
	op(s, FZ_IV_FIXED, 2, 0, 0, 0, 0);
	op(s, FZ_SSH, 1, 0, 0, 8192, 0);
	op(s, FZ_SSH, 1, 0, 0, 32752, 0);
	op(s, FZ_SSH, 3, 0, 0, 8192, 0); /* bad tag */
	op(s, FZ_SSH, 1, 0, 0, 64, 0);
}

static void s_low_level(struct sb *s)
{
	hdr(s, 1, QUERY_EACH, none, 21);
	op(s, FZ_INIT, I_IV | I_ENC, 0, 1, 0, 0);
	op(s, FZ_AAD, 0, 0, 0, 0, AAD(100));
	op(s, FZ_AAD, 1, 0, 0, 0, AAD(100));
	op(s, FZ_DATA, 0, 0, 1, 9000, 0);
	op(s, FZ_AAD, 0, 0, 0, 0, AAD(10)); /* AAD after data */
	op(s, FZ_DATA, 1, 0, 0, 9000, 0);
	op(s, FZ_GET_TAG, 0, 0, 0, 0, 0); /* before final */
	op(s, FZ_FINAL, 1, 0, 0, 0, 0);
	op(s, FZ_FINAL, 0, 0, 0, 0, 0);	  /* twice */
	op(s, FZ_DATA, 0, 0, 0, 9000, 0); /* after final */
	op(s, FZ_RESET, 0, 0, 0, 0, 0);
	op(s, FZ_INIT, I_CIPHER | I_KEY | I_IV | I_DEC | 3 << 5, 4, 2, 0, 0);
	op(s, FZ_DATA, 0, 1, 2, 9000, 0); /* overlapping buffers */
}

static void s_iv_edges(struct sb *s)
{
	hdr(s, 0, 0, none, 22);
	for (uint8_t i = 0; i < 8; i++)
		op(s, FZ_IV_FIXED, i, 0, 0, 0, 0);
	for (uint8_t i = 0; i < 7; i++)
		op(s, FZ_IV_GEN, i, 0, 0, 0, 0);
	for (uint8_t i = 0; i < 4; i++)
		op(s, FZ_IV_INV, i, 1, 0, 0, 0);
	op(s, FZ_TLS_AAD, 0, 0, 0, 5000, 0);
	op(s, FZ_TLS_AAD, 2, 0, 0, 3, 0);
	op(s, FZ_TLS_AAD, 3, 1, 0, 5000, 0);
}

/* Fault plans: h[1] site, h[2] kind | err<<4, h[3] nth-1, h[4] every. */
static void faulty(struct sb *s, uint8_t site, uint8_t kind, uint8_t nth, uint8_t every,
		   uint64_t seed)
{
	uint8_t p[7] = { site, kind, (uint8_t)(nth - 1), every, 0, 1, 0x80 };

	hdr(s, (int)(seed % 3), 0, p, seed);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(1, 1), 6, 8192,
	   AAD13);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1) | INPLACE, 0, 12000,
	   AAD13);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(1, 1) | INPLACE, 6,
	   12000, AAD13);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_TLS12, 0, 0, 0, 8000, 0);
	op(s, FZ_TLS13, 0, 0, 0, 8000, 0);
}

static void s_f_open(struct sb *s)
{
	faulty(s, SITE_OPEN, 0 | 1 << 4, 1, 1, 30);
}
static void s_f_seal(struct sb *s)
{
	faulty(s, SITE_SEAL, 0, 2, 0, 31);
}
static void s_f_unseal(struct sb *s)
{
	faulty(s, SITE_UNSEAL, 0 | 3 << 4, 3, 0, 32);
}
static void s_f_data_every(struct sb *s)
{
	faulty(s, SITE_DATA, 0 | 5 << 4, 4, 1, 33);
}
static void s_f_short(struct sb *s)
{
	faulty(s, SITE_DATA, 1, 4, 1, 34);
}
static void s_f_badmsg(struct sb *s)
{
	faulty(s, SITE_UNSEAL, 2, 3, 1, 35);
}
static void s_f_keycheck(struct sb *s)
{
	faulty(s, SITE_SEAL, 0, 1, 0, 36);
}
static void s_f_ks_first(struct sb *s)
{
	faulty(s, SITE_DATA, 3, 4, 1, 37);
}
static void s_f_nowrite_last(struct sb *s)
{
	faulty(s, SITE_SEAL, 4, 2, 1, 38);
	s->b[5] = 0xff; /* block -1 */
}

/* Review defect: TLS fixed IV, a whole IV by init, one record, then a generic message. */
static void r_tls_record_then_generic(struct sb *s)
{
	hdr(s, 0, 0, none, 100);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_INIT, I_IV | I_ENC, 0, 1, 0, 0);
	op(s, FZ_TLS12, 0, 0, 0, 1000, 0);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_NONE), MSG_F2(1, 1), 0, 8192, AAD13);
}

/*
 * Review defect: TLS1_AAD, a zero-length update, then the record.  The
 * defect needs an IV the context believes it knows (a whole IV by init):
 * the empty update ends eip93's record and the record goes to the engine
 * as a generic message under that IV.
 */
static void zero_update(struct sb *s, int fixed, uint8_t f1, uint64_t seed)
{
	hdr(s, 0, f1 & 1 ? 8 : 0, none, seed);
	if (fixed)
		op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_INIT, I_IV | (f1 & 1 ? I_DEC : I_ENC), 0, 1, 0, 0);
	op(s, FZ_TLS12, f1 | 4, 0, 0, 8192, 0);
}

static void r_tls_aad_zero_update(struct sb *s)
{
	zero_update(s, 1, 0, 101);
}
static void r_tls_aad_zero_update_oneshot(struct sb *s)
{
	zero_update(s, 1, 2, 102);
}
static void r_tls_aad_zero_update_no_fixed(struct sb *s)
{
	zero_update(s, 0, 0, 103);
}
static void s_tls_aad_zero_update_dec(struct sb *s)
{
	zero_update(s, 1, 1, 104);
}

/* Found by the fuzzer: SET_IV_INV longer than the invocation field rewrites the fixed IV. */
static void r_set_iv_inv_over_fixed(struct sb *s)
{
	hdr(s, 2, 8, none, 105);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_IV_INV, 3, 1, 0, 0, 0); /* arg 12 */
	op(s, FZ_TLS12, 1, 0, 0, 5000, 0);
}

/* Found by the fuzzer: a record AAD, then a new IV by init, then a generic message. */
static void r_tls_aad_then_init(struct sb *s)
{
	hdr(s, 0, 0, none, 106);
	op(s, FZ_TLS_AAD, 0, 0, 0, 8192, 0);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
}

/* Found by the fuzzer: a refused record AAD (length field too small) still arms the default's record mode. */
static void r_tls_aad_refused_then_message(struct sb *s)
{
	hdr(s, 1, 8, none, 107);
	op(s, FZ_TLS_AAD, 2, 0, 0, 3, 0);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(0, 1), 0, 4353, 0);
}

/* Found by the fuzzer: the tag read after a record AAD that follows an engine encryption. */
static void r_tag_after_tls_aad(struct sb *s)
{
	hdr(s, 1, 0, none, 108);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
	op(s, FZ_TLS_AAD, 0, 0, 0, 100, 0);
	op(s, FZ_GET_TAG, 0, 0, 0, 0, 0);
}

/* Found by the fuzzer: after an engine encryption, a tag set by parameter, a failed final, the tag. */
static void r_stale_engine_tag(struct sb *s)
{
	hdr(s, 0, 0, none, 109);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
	op(s, FZ_SET_TAG, 1, 1, 4, 0, 0); /* corrupted, 12 bytes, by parameter */
	op(s, FZ_FINAL, 1, 0, 0, 0, 0);
	op(s, FZ_GET_TAG, 0, 0, 0, 0, 0);
}

/*
 * Found by the fuzzer: a set_params that fails part-way (a record AAD too
 * short for a decryption, after a new IV length) leaves the default with the
 * new IV length; eip93's copy stays old and it refuses a 4-byte TLS fixed IV
 * the default takes.
 */
static void r_partial_set_params_ivlen(struct sb *s)
{
	hdr(s, 2, 8, none, 110);
	op(s, FZ_IVLEN, 0, 0, 0, 3, 0);	     /* ivlen 1 */
	op(s, FZ_PARAMS, 1 | 8, 0, 0, 0, 0); /* ivlen 12, then TLS1_AAD with length 8: fails */
	op(s, FZ_PARAMS, 4, 0, 0, 0, 0);     /* TLS fixed IV, 4 bytes */
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
}

/*
 * Found by the fuzzer (with the known defects avoided): a 13-byte tag set,
 * then a TLS 1.2 record the engine decrypts: the default reports a tag
 * length of 16 after its own record processing, eip93 still 13.
 */
static void r_taglen_after_engine_record(struct sb *s)
{
	hdr(s, 0, 8, none, 111);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_SET_TAG, 2, 1, 9, 0, 0); /* junk, 13 bytes, by parameter */
	op(s, FZ_TLS12, 1, 0, 0, 8192, 0);
	op(s, FZ_QUERY, 0, 0, 0, 0, 0);
}

/*
 * Found by the campaign: a zero-length AAD through EVP_Cipher, then a
 * key-only init, then a message by EVP_Cipher: the ciphertext differs.
 */
static void r_rekey_after_zero_aad(struct sb *s)
{
	hdr(s, 1, 0, none, 112);
	op(s, FZ_AAD, 2, 0, 0, 0, 0);		   /* EVP_Cipher(ctx, NULL, aad, 0) */
	op(s, FZ_INIT, I_KEY | I_ENC, 2, 2, 0, 0); /* key only */
	op(s, FZ_SSH, 0, 0, 0, 8192, 0);	   /* EVP_Cipher AAD, data, (NULL, 0), tag */
}

/*
 * Found by the campaign: AAD and a zero-length update through EVP_Cipher,
 * EVP_CIPHER_CTX_copy, then more AAD, a packet and the tag on the copy:
 * the tag differs (the ciphertext agrees).  Raw bytes, as the fuzzer left them.
 */
static void r_copy_after_empty_update(struct sb *s)
{
	static const uint8_t plan[7] = { 0xb3, 0xb3, 0xb3, 0xb3, 0xb3, 0xb3, 0x00 };

	hdr(s, 2, 0, plan, 0x0000006569703801ULL); /* site 0xb3 & 15 = 3: no faults */
	s->n += fz_encode_op(s->b + s->n, FZ_MSG, 0xc4, 0x79, 0x7e, 0x0000, 0x2600);
	s->n += fz_encode_op(s->b + s->n, FZ_SWITCH, 0x70, 0x38, 0x7b, 0x128b, 0x8000);
	s->n += fz_encode_op(s->b + s->n, FZ_SSH, 0, 0, 1, 0x7f00, 0x40fe);
}

/*
 * What the fuzzer found, as libFuzzer minimized it (raw input bytes):
 * - tag-over-aad-refused-record (fuzz_smoke in CI): TLS1_AAD on a
 *   decrypting context, a set_params whose tag overwrites the record AAD in
 *   the default's buffer, an encrypting message the default refuses as a
 *   record without a fixed IV, the tag read: eip93 had given its delegate
 *   the record AAD back (bytes 8-12 differed);
 * - tag-after-tls-aad-record: TLS1_AAD and a fixed IV, a tag set on the
 *   decrypting context (copied over the record AAD), an encrypting message
 *   in place that the default makes as a record: its tag differed (eip93
 *   sealed it over the AAD the caller set);
 * - rekey-after-iv-gen: SET_IV_FIXED(-1), IV_GEN(8), a key-only init, a
 *   decryption: the new key wiped the GCM state IV_GEN had set up and the
 *   default goes on from it (and refuses the tag); eip93 opened the message
 *   with the IV it knew and accepted the tag;
 * - iv-gen-short-iv, record-short-iv: SET_IV_FIXED(-1), a 1-byte IV length,
 *   IV_GEN (or a TLS record): OpenSSL writes the 8-byte invocation field
 *   before its IV buffer, over its IV state and flags; after a 12-byte IV
 *   length and a new IV the default refuses data, eip93 took it.
 */
static const uint8_t raw_tag_over_aad[] = { 0x6e, 0x61, 0x6d, 0x65, 0x00, 0x0d, 0x86, 0x86,
					    0x86, 0x86, 0x86, 0x86, 0x86, 0x86, 0x96, 0x00,
					    0x6f, 0x00, 0xd6, 0x12, 0x13, 0x08, 0x00, 0x00,
					    0x12, 0x13, 0x08, 0x00, 0x00, 0x00, 0xd6, 0x00,
					    0xd6, 0xd6, 0xd6, 0xd6, 0xd6, 0xd6 };
static const uint8_t raw_tag_after_tls_aad[] = { 0x08, 0x00, 0x00, 0x00, 0x0a, 0x53, 0x65, 0x63,
						 0x01, 0xc3, 0xbe, 0x63, 0x41, 0x6f, 0x6d, 0x70,
						 0x3a, 0xfe, 0xfe, 0xfe, 0x41, 0x41, 0x41, 0x41,
						 0x41, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe,
						 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe };
static const uint8_t raw_rekey_after_iv_gen[] = { 0x00, 0x2a, 0x54, 0x89, 0x80, 0xfe, 0x7f, 0x00,
						  0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x10,
						  0x08, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
						  0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
						  0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0,
						  0x0e, 0x60, 0x01, 0x62, 0x00, 0x62 };

static const uint8_t raw_iv_gen_short_iv[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x70, 0x3a, 0x00, 0x00, 0xff, 0xd0,
	0x89, 0x53, 0x08, 0x73, 0x74, 0x61, 0x74, 0x75, 0x73, 0x00, 0x65, 0x30, 0x6d, 0x65,
	0x73, 0xf3, 0x61, 0x2b, 0x61, 0x63, 0x61, 0xae, 0xae, 0x61, 0x61, 0x61, 0x01, 0x00,
	0x7f, 0xfe, 0xd0, 0x34, 0x94, 0x2d, 0xae, 0xae, 0xae, 0xaf, 0xae, 0xae
};
static const uint8_t raw_record_short_iv[] = { 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x80, 0x00, 0x00,
					       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x80, 0x7b,
					       0x7b, 0x00, 0x00, 0x00, 0x10, 0x50, 0x01, 0xc0, 0x0e,
					       0x01, 0x01, 0x11, 0x06, 0x37, 0xc8, 0xc8, 0xc8, 0xc8,
					       0x0f, 0x00, 0x00, 0x00, 0x37, 0x37, 0x37, 0x37, 0x37,
					       0x50, 0x01, 0xc0, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00,
					       0x00, 0x00, 0x0e, 0x00, 0x00, 0x50, 0x01, 0xc0 };

static const struct raw_seed {
	const char *name;
	const uint8_t *b;
	size_t n;
} raw_seeds[] = {
	{ "tag-over-aad-refused-record", raw_tag_over_aad, sizeof(raw_tag_over_aad) },
	{ "tag-after-tls-aad-record", raw_tag_after_tls_aad, sizeof(raw_tag_after_tls_aad) },
	{ "rekey-after-iv-gen", raw_rekey_after_iv_gen, sizeof(raw_rekey_after_iv_gen) },
	{ "iv-gen-short-iv", raw_iv_gen_short_iv, sizeof(raw_iv_gen_short_iv) },
	{ "record-short-iv", raw_record_short_iv, sizeof(raw_record_short_iv) },
};

static const struct seed seeds[] = {
	{ "corpus", "enc-dec-4096", s_enc_4096 },
	{ "corpus", "dec-tag-early-16k", s_dec_tag_early_16k },
	{ "corpus", "dec-tag-late", s_dec_tag_late },
	{ "corpus", "aad-data-in-parts", s_parts },
	{ "corpus", "in-place-32k", s_inplace_32k },
	{ "corpus", "boundary-sizes", s_sizes },
	{ "corpus", "ivlen-16", s_ivlen16 },
	{ "corpus", "copy-mid-message", s_copy_mid },
	{ "corpus", "reinit-kinds", s_reinits },
	{ "corpus", "direction-flips", s_flip },
	{ "corpus", "bad-tags", s_bad_tags },
	{ "corpus", "evp-cipher-api", s_oneshot_api },
	{ "corpus", "params", s_params },
	{ "corpus", "tls12-encrypt", s_tls12 },
	{ "corpus", "tls12-decrypt", s_tls12_dec },
	{ "corpus", "iv-fixed-gen-inv", s_tls12_ivgen },
	{ "corpus", "tls13-encrypt", s_tls13 },
	{ "corpus", "tls13-decrypt", s_tls13_dec },
	{ "corpus", "openssh-encrypt", s_ssh },
	{ "corpus", "openssh-decrypt", s_ssh_dec },
	{ "corpus", "low-level-calls", s_low_level },
	{ "corpus", "iv-control-edges", s_iv_edges },
	{ "corpus", "tls12-zero-update-decrypt", s_tls_aad_zero_update_dec },
	{ "corpus", "fault-open-errno", s_f_open },
	{ "corpus", "fault-seal-errno", s_f_seal },
	{ "corpus", "fault-unseal-errno", s_f_unseal },
	{ "corpus", "fault-data-errno-every", s_f_data_every },
	{ "corpus", "fault-short", s_f_short },
	{ "corpus", "fault-badmsg", s_f_badmsg },
	{ "corpus", "fault-key-check", s_f_keycheck },
	{ "integrity", "keystream-first-block", s_f_ks_first },
	{ "integrity", "nowrite-last-block", s_f_nowrite_last },
	{ "regress", "tls-record-then-generic", r_tls_record_then_generic },
	{ "regress", "tls-aad-zero-update", r_tls_aad_zero_update },
	{ "regress", "tls-aad-zero-update-oneshot", r_tls_aad_zero_update_oneshot },
	{ "regress", "tls-aad-zero-update-no-fixed-iv", r_tls_aad_zero_update_no_fixed },
	{ "regress", "set-iv-inv-over-fixed", r_set_iv_inv_over_fixed },
	{ "regress", "tls-aad-then-init", r_tls_aad_then_init },
	{ "regress", "tls-aad-refused-then-message", r_tls_aad_refused_then_message },
	{ "regress", "tag-after-tls-aad", r_tag_after_tls_aad },
	{ "regress", "stale-engine-tag", r_stale_engine_tag },
	{ "regress", "partial-set-params-ivlen", r_partial_set_params_ivlen },
	{ "regress", "taglen-after-engine-record", r_taglen_after_engine_record },
	{ "regress", "rekey-after-zero-aad", r_rekey_after_zero_aad },
	{ "regress", "copy-after-empty-update", r_copy_after_empty_update },
};

static int emit(const char *dir, const char *sub, const char *name, const uint8_t *b, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(b, 1, n, f) != n || fclose(f) != 0)
		return -1;
	printf("%s/%s: %zu bytes\n", sub, name, n);
	return 0;
}

int fz_emit_seeds(const char *dir)
{
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct sb s;

		memset(&s, 0, sizeof(s));
		seeds[i].build(&s);
		if (emit(dir, seeds[i].dir, seeds[i].name, s.b, s.n) != 0)
			return -1;
	}
	for (size_t i = 0; i < sizeof(raw_seeds) / sizeof(raw_seeds[0]); i++)
		if (emit(dir, "regress", raw_seeds[i].name, raw_seeds[i].b, raw_seeds[i].n) != 0)
			return -1;
	return 0;
}
