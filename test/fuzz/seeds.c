// SPDX-License-Identifier: Apache-2.0
/*
 * The seed corpus, written as code so each entry says what it is: a starting
 * point per caller shape for libFuzzer, and one reproducer per divergence
 * found by review or by the fuzzer (those builders and raw inputs:
 * seeds_regress.c; the AES-CTR and AES-CBC seeds: seeds_skc.c).
 * `eip93-fuzz-replay --emit DIR` writes DIR/corpus (must
 * agree today), DIR/regress (divergences found: agree since alg/ was fixed) and
 * DIR/integrity (keystream/nowrite faults: agree once integrity checks land).
 * The checked-in test/fuzz/{corpus,regress,integrity} are this output;
 * test/fuzz/README.md lists them.
 */
#include "seeds.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "seeds_build.h"

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

/* The request's first block wrong (fake kind tagmask): a payload block on ctr(aes-eip93). */
static void s_f_tagmask(struct sb *s)
{
	faulty(s, SITE_DATA, 5, 2, 1, 39);
}
/* The same in the kernel AES-GCM world (header bit 5): its tag mask, caught by tag-check. */
static void s_f_tagmask_kgcm(struct sb *s)
{
	faulty(s, SITE_SEAL, 5, 4, 1, 40);
	s->b[0] |= KGCM;
}
static void s_enc_4096_kgcm(struct sb *s)
{
	s_enc_4096(s);
	s->b[0] |= KGCM;
}

/*
 * Keystream ahead (EIP93_FUZZ_COMPOSITION=ahead): streams whose nonces keep
 * a pattern the provider follows, with records of one size, so that the
 * keystream asked ahead is taken: TLS 1.3 (nonce = static IV XOR the
 * sequence number) sealed with a copy in the middle, and opened with a
 * wrong tag among them; OpenSSH's IV_GEN packets.
 */
static void s_ahead_tls13(struct sb *s)
{
	hdr(s, 0, 0, none, 41);
	for (int i = 0; i < 5; i++)
		op(s, FZ_TLS13, (uint8_t)((i % 3) << 1), 0, 0, 16385, 0);
	op(s, FZ_COPY, 1, 0, 0, 0, 0);
	for (int i = 0; i < 3; i++)
		op(s, FZ_TLS13, 0, 0, 0, 16385, 0);
	op(s, FZ_TLS13, 0, 0, 0, 9000, 0);  /* shorter: covered */
	op(s, FZ_TLS13, 0, 0, 0, 16385, 0); /* longer than predicted */
}

static void s_ahead_tls13_dec(struct sb *s)
{
	hdr(s, 2, START_DEC, none, 42);
	for (int i = 0; i < 4; i++)
		op(s, FZ_TLS13, 1 | TAG_EARLY << 3, 0, 0, 16385, 0);
	op(s, FZ_TLS13, 1 | TAG_LATE << 3 | 0x20, 0, 0, 16385, 0); /* a wrong tag */
	for (int i = 0; i < 3; i++)
		op(s, FZ_TLS13, 1 | TAG_BOTH << 3, 0, 0, 16385, 0);
}

static void s_ahead_ssh(struct sb *s)
{
	hdr(s, 1, 0, none, 43);
	op(s, FZ_IV_FIXED, 2, 0, 0, 0, 0);
	for (int i = 0; i < 6; i++)
		op(s, FZ_SSH, 0, 0, 0, 16384, 0);
	op(s, FZ_SSH, 0, 0, 0, 4096, 0);
}

/*
 * Faults on a TLS 1.3 stream: a data plan, which the ahead world moves to
 * the ahead requests alone (odd seed) and, seed bit 1, computes at the start.
 */
static void ahead_faulty(struct sb *s, uint8_t kind, uint8_t block, uint64_t seed)
{
	uint8_t p[7] = { SITE_DATA, kind, 2, 1, block, 1, 0x80 };

	hdr(s, 0, 0, p, seed);
	for (int i = 0; i < 6; i++)
		op(s, FZ_TLS13, 0, 0, 0, 16385, 0);
	for (int i = 0; i < 4; i++)
		op(s, FZ_TLS13, 1 | TAG_EARLY << 3, 0, 0, 16385, 0);
}

static void s_ahead_ks_first(struct sb *s)
{
	ahead_faulty(s, 3, 0, 45); /* keystream, block 0; at the wait */
}

static void s_ahead_skip_last(struct sb *s)
{
	ahead_faulty(s, 6, 0xff, 47); /* skip, block -1; at the start */
}

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
	{ "integrity", "tagmask-data", s_f_tagmask },
	{ "integrity", "tagmask-seal-kgcm", s_f_tagmask_kgcm },
	{ "corpus", "enc-dec-4096-kgcm", s_enc_4096_kgcm },
	{ "corpus", "ahead-tls13-encrypt", s_ahead_tls13 },
	{ "corpus", "ahead-tls13-decrypt", s_ahead_tls13_dec },
	{ "corpus", "ahead-openssh", s_ahead_ssh },
	{ "integrity", "ahead-keystream-first-block", s_ahead_ks_first },
	{ "integrity", "ahead-skip-last-block", s_ahead_skip_last },
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
	for (size_t i = 0; i < fz_skc_seeds_count; i++) {
		struct sb s;

		memset(&s, 0, sizeof(s));
		fz_skc_seeds[i].build(&s);
		if (emit(dir, fz_skc_seeds[i].dir, fz_skc_seeds[i].name, s.b, s.n) != 0)
			return -1;
	}
	for (size_t i = 0; i < fz_raw_seeds_count; i++)
		if (emit(dir, "regress", fz_raw_seeds[i].name, fz_raw_seeds[i].b,
			 fz_raw_seeds[i].n) != 0)
			return -1;
	return 0;
}
