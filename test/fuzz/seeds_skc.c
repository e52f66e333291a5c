// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-CTR and AES-CBC seeds (corpus/ctr-*, corpus/cbc-*): one starting
 * point per call shape and fault of the new worlds (skc.h has what the bits
 * mean).  Listed with the others by fz_emit_seeds() (seeds.c); test/fuzz/
 * README.md says what each is.
 */
#include "seeds_skc.h"

/*
 * A message encrypted, then decrypted with the IV it had (both on the engine
 * when whole blocks).  A direction changes with the key given again: without
 * it OpenSSL's CBC keeps the other direction's key schedule (regress/
 * cbc-direction-without-key).
 */
static void enc_dec(struct sb *s, uint8_t f2, size_t len)
{
	msg(s, M_RE(6), f2, IV_A, len, SH_EXACT);
	msg(s, M_DEC | M_RE(6), f2, IV_MODEL, len, SH_EXACT);
}

static void ctr_enc_dec(struct sb *s)
{
	sh(s, CTR_W, 0, 0, none, 200);
	enc_dec(s, M_PARTS(1), 8192);
	enc_dec(s, M_PARTS(1), 32768);
}

static void cbc_enc_dec(struct sb *s)
{
	sh(s, CBC_W, 2, 0, none, 201);
	enc_dec(s, M_PARTS(1), 8192); /* padded: 8208 bytes of ciphertext, the last block held */
	enc_dec(s, M_PARTS(1) | M_NOPAD, 8192);
	msg(s, M_RE(7), M_NOPAD, IV_B, 16384, SH_EXACT); /* padding off by init_ex2's parameter */
	msg(s, M_DEC | M_RE(7), M_NOPAD, IV_MODEL, 16384, SH_EXACT);
}

static void sizes(struct sb *s, int world, uint64_t seed)
{
	static const size_t sz[] = { 0, 1, 15, 16, 17, 4095, 4096, 4097, 32767, 32768, 32769 };

	sh(s, world, 1, 0, none, seed);
	for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++)
		msg(s, (uint8_t)(i & 1) | M_RE(6), M_PARTS(1), i & 1 ? IV_MODEL : IV_A, sz[i],
		    SH_EXACT);
	msg(s, M_RE(0), M_PARTS(2), IV_A, 4097, SH_BLOCKS); /* 4096 */
	msg(s, M_RE(0), M_PARTS(1), IV_A, 65536, SH_EXACT);
	msg(s, M_RE(0), M_PARTS(1), IV_A, 32768, SH_PART(6)); /* 32768 + 7 */
}

static void ctr_sizes(struct sb *s)
{
	sizes(s, CTR_W, 202);
}

static void cbc_sizes(struct sb *s)
{
	sizes(s, CBC_W, 203);
}

/* Parts cut every way, the running IV and num read between them, by each call. */
static void parts(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 0, 0, none, seed);
	for (uint8_t cut = 0; cut < 4; cut++) {
		msg(s, M_RE(6) | M_API(cut % 3), M_PARTS(4) | M_CUT(cut), IV_A | M_RUNNING, 20000,
		    SH_BLOCKS);
		msg(s, M_DEC | M_RE(6) | M_API(cut % 3), M_PARTS(3) | M_CUT(cut),
		    IV_MODEL | M_RUNNING, 20000, SH_BLOCKS);
	}
	msg(s, M_DEC | M_RE(1), M_PARTS(2) | M_CUT(0) | M_INPLACE | M_ZERO, IV_A | M_RUNNING, 12288,
	    SH_EXACT);
}

static void ctr_parts(struct sb *s)
{
	parts(s, CTR_W, 204);
}

static void cbc_parts(struct sb *s)
{
	parts(s, CBC_W, 205);
}

/* Counters near a wrap of their last 32, 64 and 128 bits (the ctr32 bug modelled). */
static void ctr_wrap(struct sb *s)
{
	static const uint8_t plan[7] = { FIRST_IV(1), 0, 0, 0, 0, 0, 0 };

	sh(s, CTR_W, 0, 0, plan, 206);
	msg(s, M_RE(3), M_PARTS(1), M_RUNNING, 32768, SH_EXACT); /* the first IV, near a wrap */
	msg(s, M_DEC | M_RE(0), M_PARTS(1), IV_FIRST, 32768, SH_EXACT);
	for (uint8_t iv = IV_W32; iv <= IV_W128; iv++) {
		msg(s, M_RE(0), M_PARTS(2) | M_CUT(0), iv | M_RUNNING, 32768, SH_EXACT);
		msg(s, M_DEC | M_RE(0) | M_API(2), M_PARTS(1), IV_MODEL | M_RUNNING, 32768,
		    SH_EXACT);
	}
	sop(s, FZS_INIT, SI_IV | SI_KEEP, 0, IV_W64, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 16384, SH_EXACT);
	sop(s, FZS_DATA, 2, D_PT, 0, 16384, SH_EXACT);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

/* The same without the bugs modelled: the fake is a correct engine. */
static void ctr_wrap_nobugs(struct sb *s)
{
	ctr_wrap(s);
	s->b[1] |= NO_DIR_BUG | NO_CTR32_BUG;
}

/* Data in place, overlapping by a block either way, at odd offsets, by each call. */
static void buffers(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 1, 0, none, seed);
	for (uint8_t api = 0; api < 3; api++) {
		sop(s, FZS_DATA, api, D_PT, D_INPLACE, 8192, SH_EXACT);
		sop(s, FZS_DATA, api, D_PT, D_OVERLAP, 8192, SH_EXACT);
		sop(s, FZS_DATA, api, D_PT, D_OVERLAP | D_OUTFIRST, 8192, SH_EXACT);
		sop(s, FZS_DATA, api, D_JUNK, D_IOFF(3) | D_OOFF(2), 8192, SH_EXACT);
	}
	sop(s, FZS_DATA, 0, D_PT, D_INPLACE | D_IOFF(7), 100, SH_EXACT);
	sop(s, FZS_DATA, 0, D_PT, D_INPLACE | D_IOFF(1), 8192, SH_EXACT);
	sop(s, FZS_FINAL, 0, 0, 0, 0, 0);
}

static void ctr_buffers(struct sb *s)
{
	buffers(s, CTR_W, 207);
}

static void cbc_buffers(struct sb *s)
{
	buffers(s, CBC_W, 208);
}

/* EVP_Cipher of whole blocks (the engine), of a partial block, then updates and a final. */
static void oneshot(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 2, QUERY_EACH, none, seed);
	sop(s, FZS_DATA, 2, D_PT, 0, 16384, SH_EXACT);
	sop(s, FZS_DATA, 2, D_PT, 0, 4100, SH_EXACT);
	sop(s, FZS_DATA, 2, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_FINAL, 2, 0, 0, 0, 0);
	sop(s, FZS_INIT, SI_KEY | SI_IV | SI_DEC, 0, IV_FIRST, 0, 0);
	sop(s, FZS_DATA, 2, D_CT, 0, 16384, SH_EXACT);
}

static void ctr_oneshot(struct sb *s)
{
	oneshot(s, CTR_W, 209);
}

static void cbc_oneshot(struct sb *s)
{
	oneshot(s, CBC_W, 210);
}

/* A copy after the first part, continued on; the original too. */
static void copies(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 0, 0, none, seed);
	msg(s, M_RE(0) | M_COPY | M_NOFINAL, M_PARTS(2), IV_A, 12288, SH_EXACT);
	sop(s, FZS_SWITCH, 0, 0, 0, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 6144, SH_EXACT);
	sop(s, FZS_FINAL, 0, 0, 0, 0, 0);
	msg(s, M_DEC | M_RE(6) | M_COPY, M_PARTS(3) | M_CUT(1), IV_MODEL | M_RUNNING, 16384,
	    SH_EXACT);
	sop(s, FZS_COPY, 1, 0, 0, 0, 0);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

static void ctr_copies(struct sb *s)
{
	copies(s, CTR_W, 211);
}

static void cbc_copies(struct sb *s)
{
	copies(s, CBC_W, 212);
}

/* Every init: key then IV, none, IV with direction -1, same key, a new cipher, params. */
static void reinits(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 2, 0, none, seed);
	for (uint8_t re = 0; re < 8; re++)
		msg(s, (uint8_t)(M_RE(re) | (re & 1)), M_PARTS(1), (uint8_t)(IV_B | M_KEY(re & 3)),
		    8192, SH_EXACT);
	sop(s, FZS_INIT, SI_KEY | SI_API(1), 1, 0, 0, 0); /* key only */
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_INIT, 0, 0, 0, 0, 0); /* nothing at all (CBC: back to the original IV) */
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_INIT, SI_CIPHER | SI_KEY | SI_IV | SI_API(3), SI_KS(1) | SI_PPAD | SI_PUNK, IV_A,
	    0, 0);
	sop(s, FZS_DATA, 1, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_INIT, SI_CIPHER | SI_KEY | SI_IV, SI_OTHER | SI_KS(3), IV_W32, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

static void ctr_reinits(struct sb *s)
{
	reinits(s, CTR_W, 213);
}

static void cbc_reinits(struct sb *s)
{
	reinits(s, CBC_W, 214);
}

/* num and padding by init, set_params and the setters; every other parameter. */
static void params(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 0, 0, none, seed);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
	sop(s, FZS_INIT, SI_IV | SI_KEEP | SI_API(3), SI_PNUM | SI_PPAD, IV_A | SI_NUM(5), 0, 0);
	sop(s, FZS_INIT, SI_IV | SI_KEEP | SI_API(3), SI_PNUM, IV_A, 0, 0);
	sop(s, FZS_PARAMS, 0x7f, 0x03, 2, 0, 0);
	sop(s, FZS_PARAMS, 0x83, 0x00, 0, 0, 0);
	sop(s, FZS_PARAMS, 0x08, 0x00, 0, 0, 0); /* tls-version 0 */
	for (uint8_t i = 0; i < 8; i++)
		sop(s, FZS_SETTER, i, (uint8_t)(i * 3), 0, 0, 0);
	sop(s, FZS_SETTER, 0, 1, 0, 0, 0);
	sop(s, FZS_SETTER, 1, 0, 0, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
	sop(s, FZS_INIT, SI_IV | SI_KEEP | SI_API(3), SI_PNUM | SI_PPAD, IV_B | SI_PADV, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
	sop(s, FZS_RESET, 0, 0, 0, 0, 0);
	sop(s, FZS_SETTER, 0, 0, 0, 0, 0);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

static void ctr_params(struct sb *s)
{
	params(s, CTR_W, 215);
}

static void cbc_params(struct sb *s)
{
	params(s, CBC_W, 216);
}

/* TLS records: each version, MAC sizes, a wrong padding byte, not in place; then a message. */
static void tls(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 0, START_DEC, none, seed);
	sop(s, FZS_TLS, 1, 0, 0, 1000, 0);		     /* TLS 1.0, no MAC */
	sop(s, FZS_TLS, 1 | 1 << 1 | 2 << 3, 0, 0, 8000, 0); /* TLS 1.2, 20 */
	sop(s, FZS_TLS, 1 | 3 << 1 | 1 << 3, 0, 0, 300, 0);  /* SSL 3, 16 */
	sop(s, FZS_TLS, 1 | 1 << 1 | 3 << 3 | 0x40, 0, 0, 4000, 0);
	sop(s, FZS_TLS, 1 | 0x80, 0, 0, 100, 0);
	sop(s, FZS_INIT, SI_KEY | SI_IV | SI_ENC, 0, IV_A, 0, 0);
	sop(s, FZS_TLS, 1 << 1 | 5 << 3, 0, 0, 16000, 0);
	sop(s, FZS_PARAMS, 0x08, 0x00, 0, 0, 0); /* tls-version 0: records off */
	msg(s, M_RE(0), M_PARTS(1), IV_B, 8192, SH_EXACT);
}

static void ctr_tls(struct sb *s)
{
	tls(s, CTR_W, 217);
}

static void cbc_tls(struct sb *s)
{
	tls(s, CBC_W, 218);
}

/* CBC: decryptions and encryptions on one key, one after the other (the direction bug). */
static void cbc_direction(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 219);
	msg(s, M_DEC | M_RE(3), M_PARTS(1) | M_NOPAD, 0, 8192, SH_EXACT);
	msg(s, M_RE(6), M_PARTS(1), IV_A, 8192, SH_EXACT);
	msg(s, M_DEC | M_RE(5), M_PARTS(2), IV_MODEL, 8192, SH_EXACT);
	sop(s, FZS_INIT, SI_KEY | SI_IV | SI_FLIP, 0, IV_B, 0, 0);
	sop(s, FZS_DATA, 2, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_INIT, SI_KEY | SI_IV | SI_FLIP, 0, IV_MODEL, 0, 0);
	sop(s, FZS_DATA, 2, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_COPY, 1, 0, 0, 0, 0);
	sop(s, FZS_INIT, SI_KEY | SI_FLIP, 0, 0, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
}

/* CBC: an engine message, then inits without an IV (back to the original IV) and "iv" read. */
static void cbc_restart(struct sb *s)
{
	sh(s, CBC_W, 1, QUERY_EACH, none, 220);
	msg(s, M_RE(0), M_PARTS(1) | M_NOPAD, IV_A, 8192, SH_EXACT);
	msg(s, M_RE(3), M_PARTS(1), 0, 8192, SH_EXACT);
	sop(s, FZS_INIT, SI_KEY, 2, 0, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_INIT, SI_KEY | SI_DEC, 0, 0, 0, 0);
	sop(s, FZS_DATA, 0, D_CT, 0, 8192, SH_EXACT);
	sop(s, FZS_FINAL, 1, 0, 0, 0, 0);
}

/* CBC: corrupted ciphertexts (the padding wrong), in parts and in one. */
static void cbc_bad_padding(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 221);
	msg(s, M_DEC | M_RE(0), M_PARTS(1) | M_CORRUPT, IV_A, 8192, SH_EXACT);
	msg(s, M_DEC | M_RE(0), M_PARTS(3) | M_CORRUPT | M_INPLACE, IV_A, 8000, SH_EXACT);
	msg(s, M_DEC | M_RE(0) | M_API(1), M_PARTS(2) | M_CORRUPT, IV_A, 5, SH_EXACT);
}

/* Both modes and key sizes switched by init on one context, in the kernel AES-GCM world. */
static void mode_switch_kgcm(struct sb *s, int world, uint64_t seed)
{
	sh(s, world, 0, KGCM, none, seed);
	enc_dec(s, M_PARTS(2), 8192);
	sop(s, FZS_INIT, SI_CIPHER | SI_KEY | SI_IV, SI_OTHER | SI_KS(2), IV_A, 0, 0);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_FINAL, 0, 0, 0, 0, 0);
	sop(s, FZS_INIT, SI_CIPHER | SI_KEY | SI_IV | SI_DEC, SI_KS(3), IV_B, 0, 0);
	sop(s, FZS_DATA, 0, D_JUNK, 0, 8192, SH_EXACT);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

static void ctr_kgcm(struct sb *s)
{
	mode_switch_kgcm(s, CTR_W, 222);
}

static void cbc_kgcm(struct sb *s)
{
	mode_switch_kgcm(s, CBC_W, 223);
}

/*
 * Fault plans: h[1] site, h[2] kind | err << 4, h[3] nth - 1, h[4] every |
 * buf << 1 | (at + 16) << 3, h[5] block | byte << 1, h[6] count | (page-1) << 2.
 */
static void faulty(struct sb *s, int world, const uint8_t p[7], uint64_t seed)
{
	sh(s, world, (int)(seed % 3), 0, p, seed);
	enc_dec(s, M_PARTS(1), 8192);
	msg(s, M_RE(6), M_PARTS(1) | M_INPLACE, IV_B, 12288, SH_EXACT);
	msg(s, M_DEC | M_RE(6), M_PARTS(3) | M_INPLACE, IV_MODEL, 12288, SH_EXACT);
	sop(s, FZS_DATA, 2, D_PT, 0, 16384, SH_EXACT);
	msg(s, M_RE(6), M_PARTS(1), IV_W32, 32768, SH_EXACT);
}

#define FAULT(fn, world, seed, ...)                                                                \
	static void fn(struct sb *s)                                                               \
	{                                                                                          \
		static const uint8_t p[7] = { __VA_ARGS__ };                                       \
		faulty(s, world, p, seed);                                                         \
	}
/* site, kind|err, nth-1, every|buf|at, block|byte, count|page, mask */
FAULT(ctr_f_open, CTR_W, 230, SITE_OPEN, 0 | 2 << 4, 0, 1, 0, 0, 0)
FAULT(ctr_f_keycheck, CTR_W, 231, SITE_SEAL, 3, 0, 0, 0, 1, 0x40)
FAULT(ctr_f_seal_errno, CTR_W, 232, SITE_SEAL, 0 | 5 << 4, 1, 0, 0, 0, 0)
FAULT(ctr_f_short, CTR_W, 233, SITE_DATA, 1, 2, 1, 0, 0, 0)
FAULT(ctr_f_keystream, CTR_W, 234, SITE_DATA, 3, 1, 1, 1, 1, 0x80)
FAULT(ctr_f_skip, CTR_W, 235, SITE_UNSEAL, 6, 0, 1, 1, 1, 0)
FAULT(ctr_f_tail, CTR_W, 236, SITE_DATA, 7, 2, 1, 0, 0, 0x10)
FAULT(ctr_f_page_tx, CTR_W, 237, SITE_DATA, 8, 1, 1 | 2 << 1 | 15 << 3, 0, 0, 0x01)
FAULT(cbc_f_open_dek, CBC_W, 238, SITE_OPEN, 0 | 1 << 4, 1, 0, 0, 0, 0)
FAULT(cbc_f_keycheck_dec, CBC_W, 239, SITE_UNSEAL, 3, 0, 0, 0, 1, 0x02)
FAULT(cbc_f_unseal_errno, CBC_W, 240, SITE_UNSEAL, 0 | 3 << 4, 1, 1, 0, 0, 0)
FAULT(cbc_f_nowrite, CBC_W, 241, SITE_SEAL, 4, 1, 1, 1, 0, 0)
FAULT(cbc_f_tagmask, CBC_W, 242, SITE_DATA, 5, 3, 1, 0, 0, 0x04)
FAULT(cbc_f_page_in, CBC_W, 243, SITE_DATA, 8, 1, 1 | 1 << 1 | 10 << 3, 0, 1 << 2, 0x20)
FAULT(cbc_f_page_out, CBC_W, 244, SITE_UNSEAL, 8, 0, 1 | 0 << 1 | 20 << 3, 0, 0, 0x20)

const struct seed fz_skc_seeds[] = {
	{ "corpus", "ctr-enc-dec", ctr_enc_dec },
	{ "corpus", "ctr-boundary-sizes", ctr_sizes },
	{ "corpus", "ctr-parts", ctr_parts },
	{ "corpus", "ctr-counter-wrap", ctr_wrap },
	{ "corpus", "ctr-counter-wrap-no-bugs", ctr_wrap_nobugs },
	{ "corpus", "ctr-buffers", ctr_buffers },
	{ "corpus", "ctr-evp-cipher", ctr_oneshot },
	{ "corpus", "ctr-copies", ctr_copies },
	{ "corpus", "ctr-reinit-kinds", ctr_reinits },
	{ "corpus", "ctr-params", ctr_params },
	{ "corpus", "ctr-tls", ctr_tls },
	{ "corpus", "ctr-mode-switch-kgcm", ctr_kgcm },
	{ "corpus", "ctr-fault-open", ctr_f_open },
	{ "integrity", "ctr-keystream-key-check", ctr_f_keycheck },
	{ "corpus", "ctr-fault-seal-errno", ctr_f_seal_errno },
	{ "corpus", "ctr-fault-short", ctr_f_short },
	{ "integrity", "ctr-keystream-last-block", ctr_f_keystream },
	{ "integrity", "ctr-skip-last-block", ctr_f_skip },
	{ "integrity", "ctr-tail-byte", ctr_f_tail },
	{ "integrity", "ctr-page-tx", ctr_f_page_tx },
	{ "corpus", "cbc-enc-dec", cbc_enc_dec },
	{ "corpus", "cbc-boundary-sizes", cbc_sizes },
	{ "corpus", "cbc-parts", cbc_parts },
	{ "corpus", "cbc-buffers", cbc_buffers },
	{ "corpus", "cbc-evp-cipher", cbc_oneshot },
	{ "corpus", "cbc-copies", cbc_copies },
	{ "corpus", "cbc-reinit-kinds", cbc_reinits },
	{ "corpus", "cbc-params", cbc_params },
	{ "corpus", "cbc-tls", cbc_tls },
	{ "corpus", "cbc-direction", cbc_direction },
	{ "corpus", "cbc-restart-original-iv", cbc_restart },
	{ "corpus", "cbc-bad-padding", cbc_bad_padding },
	{ "corpus", "cbc-mode-switch-kgcm", cbc_kgcm },
	{ "corpus", "cbc-fault-open-dec-key", cbc_f_open_dek },
	{ "integrity", "cbc-keystream-key-check-dec", cbc_f_keycheck_dec },
	{ "corpus", "cbc-fault-unseal-errno", cbc_f_unseal_errno },
	{ "integrity", "cbc-nowrite-last-block", cbc_f_nowrite },
	{ "integrity", "cbc-first-block", cbc_f_tagmask },
	{ "integrity", "cbc-page-in", cbc_f_page_in },
	{ "integrity", "cbc-page-out", cbc_f_page_out },
	{ "regress", "cbc-direction-without-key", r_cbc_direction_without_key },
	{ "regress", "cbc-num-after-engine", r_cbc_num_after_engine },
	{ "regress", "skc-partial-set-params", r_skc_partial_set_params },
	{ "regress", "cbc-padding-off-held-block", r_cbc_padding_off_held_block },
	{ "regress", "skc-failed-init-iv", r_skc_failed_init_iv },
	{ "regress", "cbc-tls-mac-after-engine-record", r_cbc_tls_mac_after_engine_record },
	{ "regress", "cbc-tls-direction-without-key", r_cbc_tls_direction_without_key },
	{ "regress", "cbc-tls-empty-record", r_cbc_tls_empty_record },
	{ "regress", "cbc-iv-after-failed-final", r_cbc_iv_after_failed_final },
	{ "regress", "cbc-tls-after-held-block", r_cbc_tls_after_held_block },
};
const size_t fz_skc_seeds_count = sizeof(fz_skc_seeds) / sizeof(fz_skc_seeds[0]);
