// SPDX-License-Identifier: Apache-2.0
/*
 * What the seed builders share (seeds.c, seeds_regress.c): the buffer an
 * input is built in, the header and step encoders, and the names of the
 * flag bits of each step (script.h has the decoder they must agree with).
 */
#ifndef EIP93_FUZZ_SEEDS_BUILD_H
#define EIP93_FUZZ_SEEDS_BUILD_H

#include <stddef.h>
#include <stdint.h>

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

static inline void hdr(struct sb *s, int keysize, int flags, const uint8_t plan[7], uint64_t seed)
{
	s->n = fz_encode_header(s->b, keysize, flags, plan, seed);
}

static inline void op(struct sb *s, enum fz_code c, uint8_t f1, uint8_t f2, uint8_t f3, size_t len,
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
#define KGCM 0x20 /* header flags: the kernel AES-GCM composition's world */

struct seed {
	const char *dir, *name;
	void (*build)(struct sb *s);
};

static const uint8_t none[7] = PLAN_NONE;

/* Builders in seeds_regress.c, listed in seeds.c's table. */
void r_tls_record_then_generic(struct sb *s);
void r_tls_aad_zero_update(struct sb *s);
void r_tls_aad_zero_update_oneshot(struct sb *s);
void r_tls_aad_zero_update_no_fixed(struct sb *s);
void s_tls_aad_zero_update_dec(struct sb *s);
void r_set_iv_inv_over_fixed(struct sb *s);
void r_tls_aad_then_init(struct sb *s);
void r_tls_aad_refused_then_message(struct sb *s);
void r_tag_after_tls_aad(struct sb *s);
void r_stale_engine_tag(struct sb *s);
void r_partial_set_params_ivlen(struct sb *s);
void r_taglen_after_engine_record(struct sb *s);
void r_rekey_after_zero_aad(struct sb *s);
void r_copy_after_empty_update(struct sb *s);

/* Inputs kept as the fuzzer left them (seeds_regress.c), written to regress/. */
struct raw_seed {
	const char *name;
	const uint8_t *b;
	size_t n;
};
extern const struct raw_seed fz_raw_seeds[];
extern const size_t fz_raw_seeds_count;

/* The AES-CTR and AES-CBC seeds (seeds_skc.c). */
extern const struct seed fz_skc_seeds[];
extern const size_t fz_skc_seeds_count;

#endif /* EIP93_FUZZ_SEEDS_BUILD_H */
