// SPDX-License-Identifier: Apache-2.0
/*
 * What the AES-CTR and AES-CBC seed builders share (seeds_skc.c, and the
 * reproducers in seeds_regress.c): the names of their steps' flag bits
 * (skc.h has the decoder they must agree with) and the step encoders.
 */
#ifndef EIP93_FUZZ_SEEDS_SKC_H
#define EIP93_FUZZ_SEEDS_SKC_H

#include "seeds_build.h"
#include "skc.h"

#define CBC_W 0xc0 /* header flags: AES-CBC */
#define CTR_W 0x80 /* header flags: AES-CTR */

/* FZS_INIT: f1 */
#define SI_CIPHER 1
#define SI_KEY 2
#define SI_IV 4
#define SI_ENC 0
#define SI_DEC (1 << 3)
#define SI_KEEP (2 << 3) /* direction -1 */
#define SI_FLIP (3 << 3)
#define SI_API(a) ((a) << 5) /* 0 CipherInit_ex, 1 Enc/DecInit_ex, 2 _ex2, 3 _ex2 with params */
/* FZS_INIT: f2 */
#define SI_KS(k) ((k) << 2) /* 1-3: AES-128/192/256 */
#define SI_OTHER 0x10
#define SI_PPAD 0x20
#define SI_PNUM 0x40
#define SI_PUNK 0x80
/* IV selectors (f3 bits 0-2) */
#define IV_A 0
#define IV_B 1
#define IV_W32 3
#define IV_W64 4
#define IV_W128 5
#define IV_MODEL 6
#define IV_FIRST 7
#define SI_NUM(n) ((n) << 3)
#define SI_PADV 0x80
/* FZS_MSG */
#define M_DEC 1
#define M_API(a) ((a) << 1)
#define M_RE(k) ((k) << 3)
#define M_NOFINAL 0x40
#define M_COPY 0x80
#define M_PARTS(n) ((n)-1)
#define M_CUT(c) ((c) << 2) /* 0 block-aligned, 1 anywhere, 2 partial first, 3 even */
#define M_NOPAD 0x10
#define M_INPLACE 0x20
#define M_CORRUPT 0x40
#define M_ZERO 0x80
#define M_RUNNING 8
#define M_KEY(k) ((k) << 4)
/* FZS_DATA: f2 source, f3 buffers */
#define D_PT 0
#define D_CT 1
#define D_JUNK 2
#define D_INPLACE 1
#define D_OVERLAP 2
#define D_OUTFIRST 4
#define D_IOFF(o) ((o) << 3)
#define D_OOFF(o) ((o) << 6)
/* len2: the size's shape */
#define SH_BLOCKS 0
#define SH_EXACT 2
#define SH_PART(t) (3 | (t) << 2)
/* Header [1]: the driver bugs left out, the first IV's class. */
#define NO_DIR_BUG 0x10
#define NO_CTR32_BUG 0x20
#define FIRST_IV(c) ((c) << 6)

static inline void sh(struct sb *s, int world, int keysize, int flags, const uint8_t plan[7],
		      uint64_t seed)
{
	hdr(s, keysize, flags | world, plan, seed);
}

static inline void sop(struct sb *s, enum fzs_code c, uint8_t f1, uint8_t f2, uint8_t f3,
		       size_t len, uint16_t len2)
{
	s->n += fz_encode_op(s->b + s->n, c, f1, f2, f3, fz_raw_size(len), len2);
}

static inline void msg(struct sb *s, uint8_t f1, uint8_t f2, uint8_t f3, size_t len, uint16_t len2)
{
	sop(s, FZS_MSG, f1, f2, f3, len, len2);
}

/* The reproducers of the divergences the fuzzer found in AES-CTR and AES-CBC (seeds_regress.c). */
void r_cbc_direction_without_key(struct sb *s);
void r_cbc_num_after_engine(struct sb *s);
void r_skc_partial_set_params(struct sb *s);
void r_cbc_padding_off_held_block(struct sb *s);
void r_skc_failed_init_iv(struct sb *s);
void r_cbc_tls_mac_after_engine_record(struct sb *s);
void r_cbc_tls_direction_without_key(struct sb *s);
void r_cbc_tls_empty_record(struct sb *s);
void r_cbc_iv_after_failed_final(struct sb *s);
void r_cbc_tls_after_held_block(struct sb *s);

#endif /* EIP93_FUZZ_SEEDS_SKC_H */
