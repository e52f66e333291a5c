// SPDX-License-Identifier: Apache-2.0
/*
 * Named regression scripts (the divergences a review and the fuzzer found):
 * eip93-diff --script NAME.  Each n_* function is one EVP call sequence;
 * n_scripts is their one table (named_regress.c holds the later ones),
 * case_named runs one on both implementations.  Every file in
 * test/fuzz/regress has a script of the same name here
 * (scripts/check-regress.sh; test/fuzz/README.md "Adding a regression case").
 */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

/*
 * Each is a legal EVP call sequence on which eip93 once differed from the
 * default provider; test/fuzz/regress holds the same sequences as fuzz
 * inputs.  A script runs --cases times (random key, IVs and data from the
 * seed) on both implementations and the transcripts are compared.  Where
 * an output depends on the DRBG (a TLS 1.2 record sealed under a 4-byte
 * fixed IV), the bytes are not compared; instead the record is checked to
 * be AES-GCM(key, fixed || explicit IV, header, payload) and that verdict
 * is compared.
 */
/* A TLS 1.2 header: seq 0, type 23, version 3.3, the given length field. */
void n_header(unsigned char *hdr, size_t lenfield)
{
	memset(hdr, 0, 8);
	hdr[8] = 23;
	hdr[9] = 3;
	hdr[10] = 3;
	put_be16(hdr + 11, lenfield);
}

/*
 * Is rec (eiv || body || tag) the TLS 1.2 sealing of pt under key and the
 * fixed part?  A whole IV set by init after SET_IV_FIXED replaces the fixed
 * part too (its first 4 bytes are the fixed part from then on).
 */
static int n_record_ok(const EVP_CIPHER *ref, const struct nshape *s, const unsigned char *fixed,
		       const unsigned char *rec, const unsigned char *hdr)
{
	unsigned char iv[12], aadv[TLS12_AAD], tag[TAG_BUF];
	unsigned char *ct = xmalloc(s->len);
	int ok;

	memcpy(iv, fixed, TLS_FIXED);
	memcpy(iv + TLS_FIXED, rec, TLS_EIV);
	memcpy(aadv, hdr, TLS12_AAD);
	put_be16(aadv + 11, s->len);
	ok = ref_seal(ref, s->key, iv, 12, aadv, TLS12_AAD, s->pt, s->len, ct, tag, TLS_TAG) &&
	     memcmp(ct, rec + TLS_EIV, s->len) == 0 &&
	     memcmp(tag, rec + TLS_EIV + s->len, TLS_TAG) == 0;
	free(ct);
	return ok;
}

/* A TLS 1.2 encryption after TLS1_AAD (IV set by init), optionally behind a zero-length update. */
static void n_seal_record(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *ref,
			  const struct nshape *s, int zero, int oneshot)
{
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	unsigned char *rec = xmalloc(rl);
	unsigned char hdr[TLS12_AAD];
	int ol = -7, r;

	memcpy(rec + TLS_EIV, s->pt, s->len);
	n_header(hdr, TLS_EIV + s->len);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	if (zero) {
		r = EVP_CipherUpdate(x, rec, &ol, rec, 0);
		tr_log(t, "update(0)", r, ol, NULL, 0, 0);
	}
	if (oneshot) {
		r = EVP_Cipher(x, rec, rec, (unsigned int)rl);
		tr_log(t, "record(EVP_Cipher)", r, -1, NULL, 0, 0);
		r = r > 0;
	} else {
		r = EVP_CipherUpdate(x, rec, &ol, rec, (int)rl);
		tr_log(t, "record(CipherUpdate)", r, ol, NULL, 0, 0);
	}
	/* The explicit IV comes from the DRBG: compare what the record is, not its bytes. */
	tr_log(t, "record is AES-GCM(key, fixed||explicit, header, payload)",
	       r > 0 && n_record_ok(ref, s, s->iv, rec, hdr), -1, NULL, 0, 0);
	free(rec);
}

/* A generic message on x as it stands: AAD, data, final, tag. */
void n_message(struct tr *t, EVP_CIPHER_CTX *x, int enc, const struct nshape *s,
	       const unsigned char *in, const unsigned char *tag)
{
	unsigned char *out = xmalloc(s->len + 64), tg[TAG_BUF];
	int ol;

	memset(tg, 0, sizeof(tg));
	if (!enc)
		L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, TAG_MAX, (void *)tag, 0, 0);
	L_update(t, "aad", x, API_UPDATE, enc, NULL, s->aad, TLS12_AAD, 0, &ol);
	L_update(t, "data", x, API_UPDATE, enc, out, in, s->len, 0, &ol);
	L_final(t, "final", x, API_UPDATE, enc);
	tr_log(t, "output", 0, -1, out, s->len, 0);
	if (enc)
		L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tg, TAG_MAX, 0);
	free(out);
}

static void n_tls_record_then_generic(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				      const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key)", x, c, s->key, NULL, 1);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_init(t, "init(iv)", x, NULL, NULL, s->iv, 1);
	n_seal_record(t, x, ref, s, 0, 0);
	/* No new IV: the default provider refuses; reusing the IV is a nonce reuse. */
	n_message(t, x, 1, s, s->pt, NULL);
}

static void n_tls_aad_zero_update(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				  const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key)", x, c, s->key, NULL, 1);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_init(t, "init(iv)", x, NULL, NULL, s->iv, 1);
	n_seal_record(t, x, ref, s, 1, 0);
}

static void n_tls_aad_zero_update_oneshot(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					  const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key)", x, c, s->key, NULL, 1);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_init(t, "init(iv)", x, NULL, NULL, s->iv, 1);
	n_seal_record(t, x, ref, s, 1, 1);
}

static void n_tls_aad_zero_update_no_fixed(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					   const EVP_CIPHER *ref, const struct nshape *s)
{
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	n_seal_record(t, x, ref, s, 1, 0);
}

/* A valid TLS 1.2 record for decryption: eiv || AES-GCM(...) || tag. */
unsigned char *n_open_record(const EVP_CIPHER *ref, const struct nshape *s, unsigned char *hdr)
{
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	unsigned char *rec = xmalloc(rl), iv[12], aadv[TLS12_AAD];

	memcpy(rec, s->junk, TLS_EIV);
	memcpy(iv, s->fixed, TLS_FIXED);
	memcpy(iv + TLS_FIXED, rec, TLS_EIV);
	n_header(hdr, rl);
	memcpy(aadv, hdr, TLS12_AAD);
	put_be16(aadv + 11, s->len);
	if (!ref_seal(ref, s->key, iv, 12, aadv, TLS12_AAD, s->pt, s->len, rec + TLS_EIV,
		      rec + TLS_EIV + s->len, TLS_TAG))
		memset(rec, 0, rl);
	return rec;
}

static void n_set_iv_inv_over_fixed(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				    const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD], inv[12];
	unsigned char *rec = n_open_record(ref, s, hdr);
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	int ol = -7, r;

	memcpy(inv, s->iv2, sizeof(inv));
	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	/* 12 bytes: longer than the invocation field, so it rewrites the fixed part too. */
	L_ctrl(t, "SET_IV_INV(12)", x, EVP_CTRL_GCM_SET_IV_INV, 12, inv, 0, 0);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	r = EVP_CipherUpdate(x, rec, &ol, rec, (int)rl);
	tr_log(t, "record(CipherUpdate)", r, ol, r > 0 ? rec + TLS_EIV : NULL, s->len, 0);
	free(rec);
}

static void n_tls_aad_then_init(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD];

	(void)ref;
	n_header(hdr, TLS_EIV + s->len);
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	L_init(t, "init(iv2)", x, NULL, NULL, s->iv2, 1);
	n_message(t, x, 1, s, s->pt, NULL);
}

static void n_tls_aad_refused_then_message(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					   const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD], tag[TAG_BUF];
	unsigned char *ct = xmalloc(s->len + 64);

	/* A record length field too small for a decryption: the control fails. */
	n_header(hdr, 3);
	if (!ref_seal(ref, s->key, s->iv2, 12, s->aad, TLS12_AAD, s->pt, s->len, ct, tag, TAG_MAX))
		memset(tag, 0, sizeof(tag));
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	L_ctrl(t, "TLS1_AAD(length 3)", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	L_init(t, "init(iv2)", x, NULL, NULL, s->iv2, 0);
	n_message(t, x, 0, s, ct, tag);
	free(ct);
}

static void n_tag_after_tls_aad(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD], tag[TAG_BUF];

	(void)ref;
	memset(tag, 0, sizeof(tag));
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	n_message(t, x, 1, s, s->pt, NULL);
	n_header(hdr, TLS_EIV + 100);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
}

static void n_stale_engine_tag(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			       const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char tag[TAG_BUF];
	OSSL_PARAM p[2];

	(void)ref;
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	n_message(t, x, 1, s, s->pt, NULL);
	memcpy(tag, s->junk, 12);
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, 12);
	p[1] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(tag, 12 bytes)", x, p);
	L_final(t, "final-again", x, API_ENCDEC, 1);
	memset(tag, 0, sizeof(tag));
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
}

static void n_partial_set_params_ivlen(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				       const EVP_CIPHER *ref, const struct nshape *s)
{
	size_t ivlen = 12;
	unsigned char hdr[TLS12_AAD];
	OSSL_PARAM p[3];

	(void)ref;
	n_header(hdr, TLS_EIV); /* too short for a decryption */
	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IVLEN(1)", x, EVP_CTRL_AEAD_SET_IVLEN, 1, NULL, 0, 0);
	/* Applied one by one: the IV length takes, the record AAD then fails. */
	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, hdr, TLS12_AAD);
	p[2] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(ivlen 12, short TLS1_AAD)", x, p);
	log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
}

static void n_taglen_after_engine_record(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					 const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char hdr[TLS12_AAD];
	unsigned char *rec = n_open_record(ref, s, hdr);
	size_t rl = TLS_EIV + s->len + TLS_TAG;
	int ol = -7, r;

	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed, 0,
	       0);
	L_ctrl(t, "SET_TAG(13)", x, EVP_CTRL_AEAD_SET_TAG, 13, (void *)s->junk, 0, 0);
	tr_log(t, "get_tag_length", EVP_CIPHER_CTX_get_tag_length(x), -1, NULL, 0, 0);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	r = EVP_CipherUpdate(x, rec, &ol, rec, (int)rl);
	tr_log(t, "record(CipherUpdate)", r, ol, r > 0 ? rec + TLS_EIV : NULL, s->len, 0);
	tr_log(t, "get_tag_length", EVP_CIPHER_CTX_get_tag_length(x), -1, NULL, 0, 0);
	log_size_param(t, "", x, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
	free(rec);
}

static void n_rekey_after_zero_aad(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				   const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char *out = xmalloc(s->len + 64), tag[TAG_BUF], len4[4];
	int r;

	(void)ref;
	memset(tag, 0, sizeof(tag));
	put_be16(len4, 0);
	put_be16(len4 + 2, s->len);
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	r = EVP_Cipher(x, NULL, s->aad, 0);
	tr_log(t, "EVP_Cipher(NULL, aad, 0)", r, -1, NULL, 0, 0);
	L_init(t, "init(key only)", x, NULL, s->junk, NULL, 1);
	r = EVP_Cipher(x, NULL, len4, 4);
	tr_log(t, "EVP_Cipher(NULL, length, 4)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(x, out, s->pt, (unsigned int)s->len);
	tr_log(t, "EVP_Cipher(packet)", r, -1, out, s->len, 0);
	r = EVP_Cipher(x, NULL, NULL, 0);
	tr_log(t, "EVP_Cipher(NULL, NULL, 0)", r, -1, NULL, 0, 0);
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	free(out);
}

/*
 * Found by the fuzzer in CI: a record AAD on a decrypting context, a tag by
 * parameter (it overwrites the AAD the default keeps in its buffer), an
 * encrypting init, a record the default refuses (no fixed IV), the tag read:
 * eip93 answered the record AAD it had given its delegate back.
 */
static void n_tag_over_aad_refused_record(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
					  const EVP_CIPHER *ref, const struct nshape *s)
{
	size_t reclen = TLS_EIV + s->len + 16;
	unsigned char hdr[TLS12_AAD], tag[TAG_BUF], *rec = xmalloc(reclen);
	OSSL_PARAM p[2];
	int ol;

	(void)ref;
	memcpy(rec + TLS_EIV, s->pt, s->len);
	memset(rec, 0, TLS_EIV);
	memset(rec + TLS_EIV + s->len, 0, 16);
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	n_header(hdr, reclen);
	L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
	memcpy(tag, s->junk, 16);
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16);
	p[1] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(tag)", x, p);
	L_init(t, "init(key,iv,enc)", x, NULL, s->key, s->iv, 1);
	L_update(t, "record(no fixed IV)", x, API_UPDATE, 1, rec, rec, reclen, 0, &ol);
	memset(tag, 0, sizeof(tag));
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	free(rec);
}

static void n_copy_after_empty_update(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				      const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char *out = xmalloc(s->len + 64), tag[TAG_BUF], len4[4];
	EVP_CIPHER_CTX *y = EVP_CIPHER_CTX_new();
	int r;

	(void)ref;
	memset(tag, 0, sizeof(tag));
	put_be16(len4, 0);
	put_be16(len4 + 2, s->len);
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	r = EVP_Cipher(x, NULL, s->aad, TLS12_AAD);
	tr_log(t, "EVP_Cipher(NULL, aad, 13)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(x, out, s->pt, 0);
	tr_log(t, "EVP_Cipher(out, in, 0)", r, -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_CTX_copy", EVP_CIPHER_CTX_copy(y, x), -1, NULL, 0, 0);
	r = EVP_Cipher(y, NULL, len4, 4);
	tr_log(t, "copy: EVP_Cipher(NULL, length, 4)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(y, out, s->pt, (unsigned int)s->len);
	tr_log(t, "copy: EVP_Cipher(packet)", r, -1, out, s->len, 0);
	r = EVP_Cipher(y, NULL, NULL, 0);
	tr_log(t, "copy: EVP_Cipher(NULL, NULL, 0)", r, -1, NULL, 0, 0);
	L_ctrl(t, "copy: GET_TAG", y, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	EVP_CIPHER_CTX_free(y);
	free(out);
}

/* EVP_Cipher(NULL, NULL, inl > 0) as the final of an engine message returns inl. */
static void n_cipher_final_inl(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			       const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char *out = xmalloc(s->len + 64), tag[TAG_BUF];
	int r;

	(void)ref;
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	r = EVP_Cipher(x, NULL, s->aad, TLS12_AAD);
	tr_log(t, "EVP_Cipher(aad)", r, -1, NULL, 0, 0);
	r = EVP_Cipher(x, out, s->pt, (unsigned int)s->len);
	tr_log(t, "EVP_Cipher(data)", r, -1, r > 0 ? out : NULL, s->len, 0);
	r = EVP_Cipher(x, NULL, NULL, 5);
	tr_log(t, "EVP_Cipher(NULL, NULL, 5)", r, -1, NULL, 0, 0);
	memset(tag, 0, sizeof(tag));
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	free(out);
}

/* A decrypting context takes a fixed IV longer than its IV (OpenSSL 3.0 does). */
static void n_iv_fixed_long_decrypt(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				    const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char out[12];

	(void)ref;
	L_init(t, "init(c,key,iv,dec)", x, c, s->key, s->iv, 0);
	L_ctrl(t, "SET_IV_FIXED(13)", x, EVP_CTRL_GCM_SET_IV_FIXED, 13, (void *)s->junk, 0, 0);
	log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
	L_ctrl(t, "IV_GEN(8)", x, EVP_CTRL_GCM_IV_GEN, 8, out, 8, 0);
}

/* AEAD_IVLEN and a fixed IV in one call: the IV length is applied first. */
static void n_iv_fixed_with_ivlen(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				  const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char out[8];
	size_t ivlen = 24;
	OSSL_PARAM p[3];

	(void)ref;
	L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, 1);
	/*
	 * Listed IV length first: OpenSSL 3.5 applies a call's parameters in
	 * list order (and, like 3.0, writes past its buffers on a fixed part
	 * longer than the IV it meets), 3.0 the IV length first whatever the
	 * order.
	 */
	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
						 (void *)s->junk, 16);
	p[2] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(AEAD_IVLEN 24, IV_FIXED 16)", x, p);
	log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
	/* The invocation field is random (the DRBG): only the answer is compared. */
	L_ctrl(t, "IV_GEN(8)", x, EVP_CTRL_GCM_IV_GEN, 8, out, 8, 1);
}

/*
 * A fixed IV listed before an IV length change in one call, then a
 * decryption: OpenSSL 3.5 applies the list in order (the IV is finished
 * when its length changes after the fixed part), 3.0 the IV length first.
 */
static void n_fixed_then_ivlen(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
			       const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char iv16[16], iv12[12], tag[TAG_BUF], *ct = xmalloc(s->len + 64);
	size_t ivlen = 16, twelve = 12;
	OSSL_PARAM p[3];

	memcpy(iv16, s->iv2, 12);
	memcpy(iv16 + 12, s->junk, 4);
	L_init(t, "init(c,key,dec)", x, c, s->key, NULL, 0);
	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	p[1] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(AEAD_IVLEN 16)", x, p);
	tr_log(t, "init(iv 16)", EVP_DecryptInit_ex2(x, NULL, NULL, iv16, NULL), -1, NULL, 0, 0);
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
						 (void *)s->fixed, 4);
	p[1] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &twelve);
	p[2] = OSSL_PARAM_construct_end();
	L_set_params(t, "set_params(IV_FIXED 4, AEAD_IVLEN 12)", x, p);
	/*
	 * A message that would authenticate under the IV the fixed part and the
	 * old IV's bytes make, without AAD (the AAD update is refused): 3.5
	 * refuses the data, as the IV is finished; 3.0 takes it.
	 */
	memcpy(iv12, s->fixed, 4);
	memcpy(iv12 + 4, iv16 + 4, 8);
	ref_seal(ref, s->key, iv12, 12, NULL, 0, s->pt, s->len, ct, tag, TAG_MAX);
	n_message(t, x, 0, s, ct, tag);
	free(ct);
}

/*
 * A fault in the last 16 bytes of a message whose last block is partial
 * (docs/contract.md "Integrity"): a message whose last block is
 * partial (22003 bytes: 1375 blocks and 3 bytes), sealed in place, then
 * opened in place after an init that switches the direction.  Under the
 * fake's "tail" fault the engine gets one of the last 16 bytes wrong: with a
 * partial last block that byte lies in the block before it.
 */
#define N_PARTIAL_LEN 22003

static void n_partial_last_block(struct tr *t, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
				 const EVP_CIPHER *ref, const struct nshape *s)
{
	unsigned char *buf = xmalloc(N_PARTIAL_LEN), tag[TAG_BUF];
	int ol;

	(void)ref;
	for (size_t i = 0; i < N_PARTIAL_LEN; i++)
		buf[i] = (unsigned char)(s->pt[i % s->len] ^ (i >> 8));
	memset(tag, 0, sizeof(tag));
	L_init(t, "init(c,key,iv,enc)", x, c, s->key, s->iv, 1);
	L_update(t, "aad", x, API_UPDATE, 1, NULL, s->aad, TLS12_AAD, 0, &ol);
	L_update(t, "data(in place)", x, API_UPDATE, 1, buf, buf, N_PARTIAL_LEN, 0, &ol);
	L_final(t, "final", x, API_UPDATE, 1);
	tr_log(t, "ciphertext", 0, -1, buf, N_PARTIAL_LEN, 0);
	L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, TAG_MAX, tag, TAG_MAX, 0);
	L_init(t, "init(iv,dec)", x, NULL, NULL, s->iv, 0);
	L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, TAG_MAX, tag, 0, 0);
	L_update(t, "aad", x, API_UPDATE, 0, NULL, s->aad, TLS12_AAD, 0, &ol);
	L_update(t, "data(in place)", x, API_UPDATE, 0, buf, buf, N_PARTIAL_LEN, 0, &ol);
	L_final(t, "final", x, API_UPDATE, 0);
	tr_log(t, "plaintext", 0, -1, buf, N_PARTIAL_LEN, 0);
	free(buf);
}

const struct n_script n_scripts[] = {
	{ "tls-record-then-generic", n_tls_record_then_generic },
	{ "tls-aad-zero-update", n_tls_aad_zero_update },
	{ "tls-aad-zero-update-oneshot", n_tls_aad_zero_update_oneshot },
	{ "tls-aad-zero-update-no-fixed-iv", n_tls_aad_zero_update_no_fixed },
	{ "set-iv-inv-over-fixed", n_set_iv_inv_over_fixed },
	{ "tls-aad-then-init", n_tls_aad_then_init },
	{ "tls-aad-refused-then-message", n_tls_aad_refused_then_message },
	{ "tag-after-tls-aad", n_tag_after_tls_aad },
	{ "stale-engine-tag", n_stale_engine_tag },
	{ "partial-set-params-ivlen", n_partial_set_params_ivlen },
	{ "taglen-after-engine-record", n_taglen_after_engine_record },
	{ "rekey-after-zero-aad", n_rekey_after_zero_aad },
	{ "copy-after-empty-update", n_copy_after_empty_update },
	{ "tag-over-aad-refused-record", n_tag_over_aad_refused_record },
	{ "tag-after-tls-aad-record", n_tag_after_tls_aad_record },
	{ "rekey-after-iv-gen", n_rekey_after_iv_gen },
	{ "iv-gen-short-iv", n_iv_gen_short_iv },
	{ "record-short-iv", n_record_short_iv },
	{ "owed-tag-short-iv-gen", n_owed_tag_short_iv_gen },
	{ "tls-aad-after-refused-tag", n_tls_aad_after_refused_tag },
	{ "iv-gen-after-refused-tag", n_iv_gen_after_refused_tag },
	{ "cipher-final-inl", n_cipher_final_inl },
	{ "iv-fixed-long-decrypt", n_iv_fixed_long_decrypt },
	{ "iv-fixed-with-ivlen", n_iv_fixed_with_ivlen },
	{ "fixed-then-ivlen", n_fixed_then_ivlen },
	{ "partial-last-block", n_partial_last_block },
};
const size_t n_scripts_count = sizeof(n_scripts) / sizeof(n_scripts[0]);

int n_find(const char *name)
{
	for (size_t i = 0; i < N_SCRIPTS; i++)
		if (strcmp(n_scripts[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Case no of script idx: both implementations, transcripts compared. */
void case_named(struct harness *h, int idx, struct rng *r)
{
	struct nshape s;
	EVP_CIPHER_CTX *x;

	memset(&s, 0, sizeof(s));
	s.kidx = (int)rng_below(r, 3);
	rng_fill(r, s.key, sizeof(s.key));
	rng_fill(r, s.iv, sizeof(s.iv));
	rng_fill(r, s.iv2, sizeof(s.iv2));
	rng_fill(r, s.fixed, sizeof(s.fixed));
	rng_fill(r, s.junk, sizeof(s.junk));
	rng_fill(r, s.aad, sizeof(s.aad));
	s.len = rng_range(r, ENGINE_MIN, 16384); /* engine window, and a TLS record */
	s.pt = xmalloc(s.len + 64);
	rng_fill(r, s.pt, s.len);
	shape_add(h, "script %s, %s, %zu bytes", n_scripts[idx].name, cipher_names[s.kidx], s.len);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	x = EVP_CIPHER_CTX_new();
	n_scripts[idx].fn(&h->ta, x, h->test.c[s.kidx], h->ref.c[s.kidx], &s);
	EVP_CIPHER_CTX_free(x);
	x = EVP_CIPHER_CTX_new();
	n_scripts[idx].fn(&h->tb, x, h->ref.c[s.kidx], h->ref.c[s.kidx], &s);
	EVP_CIPHER_CTX_free(x);
	compare_tr(h, n_scripts[idx].name, &h->ta, h->test.label, &h->tb, h->ref.label);
	free(s.pt);
}
