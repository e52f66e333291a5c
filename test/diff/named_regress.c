// SPDX-License-Identifier: Apache-2.0
/*
 * The named scripts of the regress/ cases the fuzzer found as raw inputs
 * (test/fuzz/seeds_regress.c): the same EVP call sequence, written out, so
 * that eip93-diff --script NAME reproduces each with the engine path live.
 * Each runs on both implementations and the transcripts are compared
 * (named.c case_named); each comment says what eip93 did wrong before the
 * alg/ fix it guards, which is what the comparison would show again.
 */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

/* Another key of the same size: every byte of the script's key changed. */
static void n_other_key(const struct nshape *s, unsigned char *key2)
{
	for (size_t i = 0; i < sizeof(s->key); i++)
		key2[i] = (unsigned char)(s->key[i] ^ 0x5a);
}

/*
 * A TLS 1.2 record AAD and a fixed IV on a decrypting context, then a tag:
 * the default copies the tag into the buffer that holds the record AAD.  An
 * encrypting init with an IV keeps the record pending, so the in-place data
 * that follows is sealed by the default as a record over the AAD the tag
 * overwrote.  eip93 sealed it on the engine over the AAD the caller set: the
 * record's tag differed.
 */
void n_tag_after_tls_aad_record(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				const EVP_CIPHER *ref, const struct nshape *s)
{
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	unsigned char hdr[TLS12_AAD], tag[TAG_BUF], *rec = xmalloc(rl);
	int ol = -7;

	(void)ref;
	memcpy(rec, s->junk, TLS_EIV);
	memcpy(rec + TLS_EIV, s->pt, s->len);
	memset(rec + TLS_EIV + s->len, 0, TLS_TAG);
	n_header(hdr, rl);
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	L_ctrl(t, "SET_TAG(16)", x, EVP_CTRL_AEAD_SET_TAG, TAG_MAX, (void *)s->junk, 0, 0);
	L_init(t, "init(iv,enc)", x, NULL, NULL, s->iv2, 1);
	L_update(t, "data(in place, a record to the default)", x, API_UPDATE, 1, rec, rec, rl, 0,
		 &ol);
	tr_log(t, "buffer", 0, -1, rec, rl, 0);
	memset(tag, 0, sizeof(tag));
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	free(rec);
}

/*
 * SET_IV_FIXED(-1) (the whole IV), IV_GEN (the delegate sets the IV up in
 * its GCM state), a key-only init (it wipes that state; the default goes on
 * from it without setting the IV up again), then a decryption whose tag is
 * right for the new key and the IV IV_GEN set up: the default refuses it.
 * eip93 opened it on the engine with the IV it knew and accepted the tag.
 */
void n_rekey_after_iv_gen(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			  const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char key2[32], gen[8], iv[12], tag[TAG_BUF];
	unsigned char *ct = xmalloc(s->len + 64);

	n_other_key(s, key2);
	memset(gen, 0, sizeof(gen));
	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IV_FIXED(-1)", x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)s->fixed, 0, 0);
	L_ctrl(t, "IV_GEN(8)", x, EVP_CTRL_GCM_IV_GEN, 8, gen, 8, 0);
	memcpy(iv, s->fixed, 4);
	memcpy(iv + 4, gen, 8);
	if (!ref_seal(ref, key2, iv, 12, s->aad, TLS12_AAD, s->pt, s->len, ct, tag, TAG_MAX))
		memset(tag, 0, sizeof(tag));
	L_init(t, "init(key only)", x, NULL, key2, NULL, 0);
	n_message(t, x, 0, s, ct, tag);
	OPENSSL_cleanse(key2, sizeof(key2));
	free(ct);
}

/*
 * OpenSSH's decryption of one packet as the fuzzer made it (on whatever
 * direction the context has): IV_GEN(1), a wrong tag, the 4-byte length as
 * AAD, the packet, EVP_Cipher(NULL, 0).
 */
static void n_ssh_open(struct tr *t, EVP_CIPHER_CTX *x, const struct nshape *s, unsigned char *gen)
{
	unsigned char len4[4], *out = xmalloc(s->len + 64);
	int r;

	put_be16(len4, 0);
	put_be16(len4 + 2, s->len);
	L_ctrl(t, "IV_GEN(1)", x, EVP_CTRL_GCM_IV_GEN, 1, gen, 1, 0);
	L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, TAG_MAX, (void *)s->junk, 0, 0);
	r = EVP_Cipher(x, NULL, len4, 4);
	tr_log(t, "EVP_Cipher(NULL, length, 4)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(x, out, s->pt, (unsigned int)s->len);
	tr_log(t, "EVP_Cipher(packet)", r, -1, r > 0 ? out : NULL, s->len, 0);
	r = EVP_Cipher(x, NULL, NULL, 0);
	tr_log(t, "EVP_Cipher(NULL, NULL, 0)", r, -1, NULL, 0, 0);
	free(out);
}

/*
 * SET_IV_FIXED(-1), a 1-byte IV length, IV_GEN: the default hands out the
 * last byte of its IV and steps the 8-byte invocation field as if the IV
 * were that long, i.e. over the 7 bytes before its IV buffer (its IV state
 * and flags).  With 0xff as the IV's first byte the step carries into them:
 * the default then takes a tag while encrypting and refuses the packet, and
 * after a 12-byte IV length and a new IV it refuses the data.  eip93 sealed
 * that message on the engine.
 */
void n_iv_gen_short_iv(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c, const EVP_CIPHER *ref,
		       const struct nshape *s)
{
	unsigned char gen[8], fixed[12];

	(void)ref;
	memset(gen, 0, sizeof(gen));
	memcpy(fixed, s->fixed, sizeof(fixed));
	fixed[0] = 0xff; /* the invocation step carries out of the 1-byte IV */
	L_init(t, "init(c,key,iv,enc)", x, c, s->key, s->iv, 1);
	L_ctrl(t, "SET_IV_FIXED(-1)", x, EVP_CTRL_GCM_SET_IV_FIXED, -1, fixed, 0, 0);
	L_ctrl(t, "SET_IVLEN(1)", x, EVP_CTRL_AEAD_SET_IVLEN, 1, NULL, 0, 0);
	n_ssh_open(t, x, s, gen);
	L_ctrl(t, "SET_IVLEN(12)", x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL, 0, 0);
	L_init(t, "init(iv2)", x, NULL, NULL, s->iv2, 1);
	n_message(t, x, 1, s, s->pt, NULL);
}

/*
 * The same through a TLS 1.2 record: SET_IV_FIXED(-1), a 1-byte IV length,
 * a decrypting record (it takes the explicit IV into the last 8 bytes of the
 * IV buffer, before the buffer), a 12-byte IV length by parameter, a new IV:
 * the default refuses the data, eip93 sealed it on the engine.
 */
void n_record_short_iv(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c, const EVP_CIPHER *ref,
		       const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD];
	unsigned char *rec = n_open_record(ref, s, hdr);
	size_t rl = TLS_EIV + s->len + TLS_TAG, twelve = 12;
	OSSL_PARAM p[2];
	int r;

	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IV_FIXED(-1)", x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)s->fixed, 0, 0);
	L_ctrl(t, "SET_IVLEN(1)", x, EVP_CTRL_AEAD_SET_IVLEN, 1, NULL, 0, 0);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	r = EVP_Cipher(x, rec, rec, (unsigned int)rl);
	tr_log(t, "record(EVP_Cipher)", r, -1, r > 0 ? rec + TLS_EIV : NULL, s->len, 0);
	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &twelve);
	p[1] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(ivlen 12)", x, p);
	L_init(t, "init(iv2,enc)", x, NULL, NULL, s->iv2, 1);
	n_message(t, x, 1, s, s->pt, NULL);
	free(rec);
}

/*
 * An engine encryption (its tag owed to the delegate: docs/design.md
 * "Messages"), IV_GEN, two inits, a 1-byte IV length, then an OpenSSH
 * decryption whose IV_GEN writes before the IV buffer.  eip93 paid the owed
 * tag into the overwritten state and its SET_TAG failed where the default's
 * succeeded; the owed tag is now paid before any call that may write
 * outside the IV.
 */
void n_owed_tag_short_iv_gen(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			     const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char gen[8], iv[12];

	(void)ref;
	memset(gen, 0, sizeof(gen));
	memcpy(iv, s->iv, sizeof(iv));
	iv[0] = 0xff; /* the 1-byte IV later: IV_GEN's step carries before the buffer */
	L_init(t, "init(c,key,enc)", x, c, s->key, NULL, 1);
	L_ctrl(t, "SET_IV_FIXED(-1)", x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)s->fixed, 0, 0);
	L_init(t, "init(iv)", x, NULL, NULL, iv, 1);
	n_message(t, x, 1, s, s->pt, NULL); /* the engine's: its tag is owed */
	L_ctrl(t, "IV_GEN(8)", x, EVP_CTRL_GCM_IV_GEN, 8, gen, 8, 0);
	L_init(t, "init()", x, NULL, NULL, NULL, 1);
	L_init(t, "init()", x, NULL, NULL, NULL, 1);
	L_ctrl(t, "SET_IVLEN(1)", x, EVP_CTRL_AEAD_SET_IVLEN, 1, NULL, 0, 0);
	n_ssh_open(t, x, s, gen);
}

/*
 * A decryption whose tag is wrong: the engine refuses it and the delegate
 * deciphers the data (no final: the message is left).  Then a fixed IV, a
 * TLS 1.2 record AAD and a short valid record, which goes to software and
 * is accepted.  eip93 still held the engine's refusal of the other message
 * and counted the record's acceptance as a wrong engine result
 * (eip93-engine-faults +1, the key's transform closed); the transcripts
 * agree either way, so the test runs with --require-no-faults.
 */
void n_tls_aad_after_refused_tag(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				 const EVP_CIPHER *ref, const struct nshape *s)
{
	struct nshape small = *s;
	unsigned char hdr[TLS12_AAD], *rec, *out = xmalloc(s->len + 64);
	size_t rl;
	int ol = -7, r;

	small.len = 64; /* below the engine window: the record goes to software */
	rl = TLS_EIV + small.len + TLS_TAG;
	rec = n_open_record(ref, &small, hdr);
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	L_ctrl(t, "SET_TAG(16, wrong)", x, EVP_CTRL_AEAD_SET_TAG, TAG_MAX, (void *)s->junk, 0, 0);
	L_update(t, "data(the engine refuses the tag)", x, API_UPDATE, 0, out, s->pt, s->len, 0,
		 &ol);
	tr_log(t, "plaintext", 0, -1, out, s->len, 0);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	r = EVP_Cipher(x, rec, rec, (unsigned int)rl);
	tr_log(t, "record(EVP_Cipher)", r, -1, r > 0 ? rec + TLS_EIV : NULL, small.len, 0);
	free(rec);
	free(out);
}

/*
 * A decryption under the whole IV set as the TLS fixed IV, with the tag of
 * the empty message under that IV: the engine refuses it for the data and
 * the delegate deciphers them (no final).  IV_GEN then starts another
 * message under the same IV in the delegate, and its final (no data)
 * accepts the tag.  eip93 judged that final by the first message's
 * refusal and counted a wrong engine result (found by review; transcripts
 * agree, so the test runs with --require-no-faults).
 */
void n_iv_gen_after_refused_tag(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char tag[TAG_BUF], gen[8], none[1] = { 0 }, ct[1];
	unsigned char *out = xmalloc(s->len + 64);
	int ol = -7;

	if (!ref_seal(ref, s->key, s->fixed, 12, NULL, 0, none, 0, ct, tag, TLS_TAG))
		memset(tag, 0, sizeof(tag));
	memset(gen, 0, sizeof(gen));
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	L_ctrl(t, "SET_IV_FIXED(-1)", x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)s->fixed, 0, 0);
	L_ctrl(t, "SET_TAG(16, the empty message's)", x, EVP_CTRL_AEAD_SET_TAG, TAG_MAX, tag, 0, 0);
	L_update(t, "data(the engine refuses the tag)", x, API_UPDATE, 0, out, s->pt, s->len, 0,
		 &ol);
	tr_log(t, "plaintext", 0, -1, out, s->len, 0);
	L_ctrl(t, "IV_GEN(8)", x, EVP_CTRL_GCM_IV_GEN, 8, gen, 8, 0);
	L_final(t, "final(the empty message)", x, API_UPDATE, 0);
	free(out);
}
