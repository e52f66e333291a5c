// SPDX-License-Identifier: Apache-2.0
/*
 * The reproducers in regress/: one builder per divergence found by review
 * or by the fuzzer, and the inputs kept as raw bytes (fz_raw_seeds[]).
 * seeds.c lists the builders and writes every file; each file also has a
 * named script eip93-diff --script NAME (test/fuzz/README.md "Adding a
 * regression case").
 */
#include "seeds_build.h"
#include "seeds_skc.h"

/* Review defect: TLS fixed IV, a whole IV by init, one record, then a generic message. */
void r_tls_record_then_generic(struct sb *s)
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

void r_tls_aad_zero_update(struct sb *s)
{
	zero_update(s, 1, 0, 101);
}
void r_tls_aad_zero_update_oneshot(struct sb *s)
{
	zero_update(s, 1, 2, 102);
}
void r_tls_aad_zero_update_no_fixed(struct sb *s)
{
	zero_update(s, 0, 0, 103);
}
void s_tls_aad_zero_update_dec(struct sb *s)
{
	zero_update(s, 1, 1, 104);
}

/* Found by the fuzzer: SET_IV_INV longer than the invocation field rewrites the fixed IV. */
void r_set_iv_inv_over_fixed(struct sb *s)
{
	hdr(s, 2, 8, none, 105);
	op(s, FZ_IV_FIXED, 0, 0, 0, 0, 0);
	op(s, FZ_IV_INV, 3, 1, 0, 0, 0); /* arg 12 */
	op(s, FZ_TLS12, 1, 0, 0, 5000, 0);
}

/* Found by the fuzzer: a record AAD, then a new IV by init, then a generic message. */
void r_tls_aad_then_init(struct sb *s)
{
	hdr(s, 0, 0, none, 106);
	op(s, FZ_TLS_AAD, 0, 0, 0, 8192, 0);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
}

/* Found by the fuzzer: a refused record AAD (length field too small) still arms the default's record mode. */
void r_tls_aad_refused_then_message(struct sb *s)
{
	hdr(s, 1, 8, none, 107);
	op(s, FZ_TLS_AAD, 2, 0, 0, 3, 0);
	op(s, FZ_MSG, MSG_F1(DEC, API_CIPHERUPDATE, TAG_EARLY, RE_IV), MSG_F2(0, 1), 0, 4353, 0);
}

/* Found by the fuzzer: the tag read after a record AAD that follows an engine encryption. */
void r_tag_after_tls_aad(struct sb *s)
{
	hdr(s, 1, 0, none, 108);
	op(s, FZ_MSG, MSG_F1(ENC, API_CIPHERUPDATE, 0, RE_IV), MSG_F2(1, 1), 0, 8192, AAD13);
	op(s, FZ_TLS_AAD, 0, 0, 0, 100, 0);
	op(s, FZ_GET_TAG, 0, 0, 0, 0, 0);
}

/* Found by the fuzzer: after an engine encryption, a tag set by parameter, a failed final, the tag. */
void r_stale_engine_tag(struct sb *s)
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
void r_partial_set_params_ivlen(struct sb *s)
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
void r_taglen_after_engine_record(struct sb *s)
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
void r_rekey_after_zero_aad(struct sb *s)
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
void r_copy_after_empty_update(struct sb *s)
{
	static const uint8_t plan[7] = { 0xb3, 0xb3, 0xb3, 0xb3, 0xb3, 0xb3, 0x00 };

	hdr(s, 2, 0, plan, 0x0000006569703801ULL); /* site 0xb3 & 15 = 3: no faults */
	s->n += fz_encode_op(s->b + s->n, FZ_MSG, 0xc4, 0x79, 0x7e, 0x0000, 0x2600);
	s->n += fz_encode_op(s->b + s->n, FZ_SWITCH, 0x70, 0x38, 0x7b, 0x128b, 0x8000);
	s->n += fz_encode_op(s->b + s->n, FZ_SSH, 0, 0, 1, 0x7f00, 0x40fe);
}

/* AES-CTR and AES-CBC (the builders share seeds_skc.h with seeds_skc.c). */

/*
 * Found by the fuzzer: a CBC context keyed in one direction, then an init
 * without a key in the other, then whole blocks in the engine's window.
 * OpenSSL sets the AES key schedule only when it is given a key, so the
 * default provider decrypts (or encrypts) with the other direction's
 * schedule: garbage, but its answer; eip93 sends the message to the engine,
 * whose transform for that direction computes the real decryption: every
 * output byte differs.  The same after a decrypting key and an encrypting
 * init, or with no IV.
 */
void r_cbc_direction_without_key(struct sb *s)
{
	sh(s, CBC_W, 0, 0, none, 250);
	sop(s, FZS_INIT, SI_IV | SI_DEC, 0, IV_A, 0, 0);
	sop(s, FZS_DATA, 0, D_JUNK, 0, 8192, SH_EXACT);
}

/*
 * Found by the fuzzer: a CBC context given a num (CBC does not use it, but
 * keeps and reports it), then whole blocks in the engine's window: eip93
 * brings its delegate to the message's end by an init with the running IV,
 * which sets num to 0; the default provider still answers 5.
 */
void r_cbc_num_after_engine(struct sb *s)
{
	sh(s, CBC_W, 0, 0, none, 251);
	sop(s, FZS_SETTER, 1, 3, 0, 0, 0); /* EVP_CIPHER_CTX_set_num(5) */
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

/*
 * Found by the fuzzer: a set_params that fails part-way (num 255: past
 * the block) after the delegate took tls-version and tls-mac-size from it.
 * eip93 stops trusting its shadow, but the next init with an IV trusts it
 * again without the TLS state; the default provider then takes each
 * decryption as a record and strips a 16-byte MAC (8176 bytes out), eip93
 * sends it to the engine (8192 out).
 */
void r_skc_partial_set_params(struct sb *s)
{
	sh(s, CTR_W, 0, START_DEC, none, 252);
	sop(s, FZS_PARAMS, 2 | 8 | 16, 1 << 2 | 1 << 4, 7, 0, 0);
	msg(s, M_DEC | M_RE(0), M_PARTS(1), IV_B, 8192, SH_EXACT);
}

/*
 * Found by the fuzzer: decrypting CBC with padding, an update that ends on
 * a block boundary (the delegate holds that block back), padding turned
 * off, then whole blocks: the default provider releases the held block
 * with them (8208 bytes); eip93 counts the delegate's buffer by the padding
 * now in force, finds none, and the engine's 8192 bytes come out alone.
 */
void r_cbc_padding_off_held_block(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 253);
	sop(s, FZS_DATA, 0, D_PT, 0, 48, SH_EXACT);
	sop(s, FZS_SETTER, 0, 0, 0, 0, 0); /* EVP_CIPHER_CTX_set_padding(0) */
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
}

/*
 * Found by the fuzzer: after an engine message (eip93 then answers "iv"
 * itself: its delegate's original IV is the one the message ended on), an
 * init with a new IV and a num AES-CTR refuses: the delegate takes the IV
 * before it refuses the parameter, so the default provider answers the new
 * IV; eip93 still answers the old one.
 */
void r_skc_failed_init_iv(struct sb *s)
{
	sh(s, CTR_W, 0, 0, none, 254);
	sop(s, FZS_DATA, 0, D_PT, 0, 8192, SH_EXACT);
	sop(s, FZS_INIT, SI_IV | SI_KEEP | SI_API(3), SI_PNUM, IV_B | SI_NUM(5), 0, 0);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

/*
 * Found by the fuzzer (corpus/cbc-tls): AES-CBC, a TLS 1.2 record with a
 * 32-byte MAC the engine deciphers, a new tls-mac-size, an encrypting init
 * and a record the engine enciphers: eip93 answered tls-mac with the length
 * of the record's MAC (the delegate: tls-mac-size's now) and, after the
 * encrypted record, its old MAC (the delegate frees its last MAC once it
 * deciphers a record, either direction: none).
 */
void r_cbc_tls_mac_after_engine_record(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 255);
	sop(s, FZS_TLS, 1 | 1 << 1 | 3 << 3, 0, 0, 8000, 0); /* decrypt, TLS 1.2, MAC 32 */
	sop(s, FZS_PARAMS, 0x10, 2 << 4, 0, 0, 0);	     /* tls-mac-size 20 */
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
	sop(s, FZS_INIT, SI_KEY | SI_ENC, 0, 0, 0, 0);
	sop(s, FZS_TLS, 1 << 1 | 3 << 3, 0, 0, 8000, 0); /* encrypt, TLS 1.2, MAC 32 */
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
}

/*
 * Found by the fuzzer: AES-CBC keyed decrypting, an init without a key to
 * encrypt, a TLS 1.2 record: the default provider enciphers it with the
 * decryption key schedule (garbage, but its answer); eip93 took the record
 * to the engine, which enciphered it properly: every byte differed.
 */
void r_cbc_tls_direction_without_key(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 256);
	sop(s, FZS_INIT, SI_ENC, 0, 0, 0, 0);		 /* CipherInit_ex(dir=enc) */
	sop(s, FZS_TLS, 1 << 1 | 1 << 3, 0, 0, 8000, 0); /* encrypt, TLS 1.2, MAC 16 */
}

/*
 * Found by the fuzzer: AES-CBC, a TLS 1.2 record with a 20-byte MAC the
 * engine deciphers, then TLS 1.0 and an empty record: the delegate frees
 * its last MAC before it refuses the record (tls-mac: none); eip93 kept the
 * empty update off the record path and still answered the old MAC.
 */
void r_cbc_tls_empty_record(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 257);
	sop(s, FZS_TLS, 1 | 1 << 1 | 2 << 3, 0, 0, 8000, 0); /* decrypt, TLS 1.2, MAC 20 */
	sop(s, FZS_TLS, 0, 0, 0, 0, 0);			     /* TLS 1.0, no MAC, 0 bytes */
}

/*
 * Found by the fuzzer: AES-CBC decrypting a corrupted ciphertext on the
 * engine, a final that refuses its padding after deciphering the held
 * block: eip93 still counted the running IV as its own and sent the next
 * TLS 1.2 record to the engine from the wrong one (its first block
 * differed).
 */
void r_cbc_iv_after_failed_final(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 258);
	msg(s, M_DEC | M_RE(0) | M_NOFINAL, M_PARTS(1) | M_CORRUPT, IV_A, 20992, SH_EXACT);
	sop(s, FZS_FINAL, 0, 0, 0, 0, 0);
	sop(s, FZS_TLS, 1 | 1 << 1 | 4 << 3, 0, 0, 12898, 0); /* decrypt, TLS 1.2, MAC 48 */
}

/*
 * Found by the fuzzer: AES-CBC decrypting, 48 bytes and no final (the
 * delegate holds the last block back in its CBC buffer), then a TLS 1.2
 * record the engine deciphered: eip93's re-init of its delegate after it
 * emptied that buffer, which a record leaves alone in the default
 * provider; then tls-version 0 and a final: the default deciphers the held
 * block and refuses its padding (bad decrypt, reason 100), eip93 had
 * nothing held (wrong final block length, 107).
 */
void r_cbc_tls_after_held_block(struct sb *s)
{
	sh(s, CBC_W, 0, START_DEC, none, 259);
	sop(s, FZS_DATA, 0, D_PT, 0, 48, SH_EXACT);
	sop(s, FZS_TLS, 1 | 1 << 1 | 1 << 3, 0, 0, 8000, 0); /* decrypt, TLS 1.2, MAC 16 */
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
	sop(s, FZS_PARAMS, 0x08, 0, 0, 0, 0); /* tls-version 0 */
	sop(s, FZS_FINAL, 0, 0, 0, 0, 0);
	sop(s, FZS_QUERY, 0, 0, 0, 0, 0);
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
 *   length and a new IV the default refuses data, eip93 took it;
 * - owed-tag-short-iv-gen (the delegate's owed tag, paid lazily since the
 *   instruction budget): an engine encryption, two inits, a 1-byte IV
 *   length, an OpenSSH decryption whose IV_GEN writes before the IV
 *   buffer: eip93 then paid the owed tag into the overwritten state and its
 *   SET_TAG failed where the default's succeeded (now paid before any call
 *   that may write outside the IV);
 * - tls-aad-after-refused-tag (fuzz_smoke in CI): a decryption whose data
 *   the engine refused (a wrong tag) and the delegate deciphered, left
 *   without a final; a fixed IV and an empty TLS 1.2 record that software
 *   accepted: eip93 judged the record by the other message's refusal and
 *   counted a wrong engine result that never was (the outputs agreed; the
 *   count diverged).  A record AAD, fixed IV or invocation field now ends
 *   that judgement.
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

static const uint8_t raw_owed_tag_short_iv_gen[] = {
	0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x14, 0x08, 0x02, 0x00, 0x01, 0x00, 0x62, 0xe0, 0x01, 0xba, 0x1f, 0x9c, 0x00,
	0x89, 0x89, 0x89, 0x89, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x0a, 0x53, 0x65, 0x63,
	0x63, 0x6f, 0x6d, 0x70, 0x3a, 0x0c, 0x10, 0x00, 0x01, 0x00, 0x03, 0x80, 0x00, 0x50,
	0x6d, 0x70, 0x3a, 0x0c, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x0e, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x01, 0xc0, 0x0e, 0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0xc0, 0x0e, 0x00, 0x01, 0x00,
	0x0f, 0x00, 0x01, 0xc0, 0x0e, 0x01, 0x89, 0x89, 0x89, 0x89, 0x89, 0x01, 0x00
};

static const uint8_t raw_tls_aad_after_refused_tag[] = {
	0x0a, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x64, 0x69, 0x67, 0x65, 0x73,
	0x74, 0x85, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf8, 0xf0, 0xf0, 0xf0,
	0xf0, 0xf0, 0xf0, 0xf0, 0xf3, 0xf0, 0xf0, 0xf0, 0xaf, 0x64, 0x69, 0x67, 0xaf, 0xaf
};

const struct raw_seed fz_raw_seeds[] = {
	{ "tag-over-aad-refused-record", raw_tag_over_aad, sizeof(raw_tag_over_aad) },
	{ "tag-after-tls-aad-record", raw_tag_after_tls_aad, sizeof(raw_tag_after_tls_aad) },
	{ "rekey-after-iv-gen", raw_rekey_after_iv_gen, sizeof(raw_rekey_after_iv_gen) },
	{ "iv-gen-short-iv", raw_iv_gen_short_iv, sizeof(raw_iv_gen_short_iv) },
	{ "record-short-iv", raw_record_short_iv, sizeof(raw_record_short_iv) },
	{ "owed-tag-short-iv-gen", raw_owed_tag_short_iv_gen, sizeof(raw_owed_tag_short_iv_gen) },
	{ "tls-aad-after-refused-tag", raw_tls_aad_after_refused_tag,
	  sizeof(raw_tls_aad_after_refused_tag) },
};
const size_t fz_raw_seeds_count = sizeof(fz_raw_seeds) / sizeof(fz_raw_seeds[0]);
