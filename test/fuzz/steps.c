// SPDX-License-Identifier: Apache-2.0
/*
 * The basic steps of a call script on one side, one function per step code:
 * init of every kind, IV length, AAD, data, final, tags, TLS controls,
 * copies, parameters; and the dispatch.  Each keeps the side's model in
 * step with what the call did (run.h).
 */
#include "run.h"
#include "skc.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

/* The IV a selector picks: 0-5 fresh, 6 the model's current one again, 7 the first IV. */
static const unsigned char *pick_iv(struct fz_side *sd, uint8_t sel, unsigned char *buf)
{
	sel %= 8;
	if (sel == 6)
		memcpy(buf, fz_model(sd)->iv, 128);
	else
		fz_fill(sd, P_IV, sel == 7 ? 0 : sd->opno * 8 + sel + 1, buf, 128);
	return buf;
}

static void key_bytes(const struct fz_side *sd, int k, unsigned char *key)
{
	fz_fill(sd, P_KEY, (uint64_t)k, key, 32);
}

void fz_side_start(struct fz_side *sd, const struct fz_script *s)
{
	unsigned char iv[128];

	if (s->cipher != FZ_GCM) {
		fzs_side_start(sd, s);
		return;
	}
	sd->s = s;
	sd->cur = 0;
	sd->opno = 0;
	memset(sd->m, 0, sizeof(sd->m));
	sd->x[0] = EVP_CIPHER_CTX_new();
	sd->x[1] = NULL;
	fz_tr_reset(&sd->tr);
	if (sd->x[0] == NULL)
		abort();
	sd->m[0].kidx = s->keysize;
	key_bytes(sd, 0, sd->m[0].key);
	fz_fill(sd, P_IV, 0, iv, sizeof(iv));
	sd->m[0].enc = !s->start_dec;
	if (fz_init(sd, "init(cipher,key#0,iv#0)", sd->c[s->keysize], sd->m[0].key, iv,
		    sd->m[0].enc) > 0) {
		sd->m[0].have_key = 1;
		fz_set_iv(&sd->m[0], iv, 12);
	}
}

void fz_side_end(struct fz_side *sd)
{
	EVP_CIPHER_CTX_free(sd->x[0]);
	EVP_CIPHER_CTX_free(sd->x[1]);
	sd->x[0] = sd->x[1] = NULL;
	while (sd->nkept > 0)
		free(sd->kept[--sd->nkept]);
}

static void op_init(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	int ks = (op->f2 >> 2) & 3 ? ((op->f2 >> 2) & 3) - 1 : sd->s->keysize;
	const EVP_CIPHER *c = op->f1 & 1 ? sd->c[ks] : NULL;
	unsigned char key[32], ivb[128], tag[16];
	const unsigned char *iv = op->f1 & 4 ? pick_iv(sd, op->f3, ivb) : NULL;
	int dir = (op->f1 >> 3) & 3, api = (op->f1 >> 5) & 3, enc, r;
	EVP_CIPHER_CTX *x = fz_ctx(sd);

	if (fz_avoid(sd, m->aad_pending, "tls-aad-then-init") ||
	    fz_avoid(sd, (op->f1 & 2) && iv == NULL && m->zero_aad, "rekey-after-zero-aad"))
		return;
	m->tag_ok = 0;
	key_bytes(sd, op->f2 & 3, key);
	enc = dir == 0 ? 1 : dir == 1 ? 0 : dir == 2 ? -1 : !m->enc;
	if (api == 1 && enc >= 0) {
		r = enc ? EVP_EncryptInit_ex(x, c, NULL, op->f1 & 2 ? key : NULL, iv)
			: EVP_DecryptInit_ex(x, c, NULL, op->f1 & 2 ? key : NULL, iv);
	} else if (api >= 2) {
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
								      tag, 16),
				    OSSL_PARAM_END };

		memcpy(tag, m->tag, 16);
		r = EVP_CipherInit_ex2(x, c, op->f1 & 2 ? key : NULL, iv, enc, api == 3 ? p : NULL);
	} else {
		r = EVP_CipherInit_ex(x, c, NULL, op->f1 & 2 ? key : NULL, iv, enc);
	}
	fz_log(&sd->tr, "init", r, -1, NULL, 0);
	if (r <= 0)
		return;
	if (c != NULL) {
		m->kidx = ks;
		m->ivlen = 12;
		m->odd_tag = 0;
	}
	if (op->f1 & 2) {
		memcpy(m->key, key, 32);
		m->have_key = 1;
	}
	if (iv != NULL)
		fz_set_iv(m, iv, m->ivlen != 0 ? m->ivlen : 12);
	if (enc >= 0)
		m->enc = enc;
}

static void op_ivlen(struct fz_side *sd, const struct fz_op *op)
{
	int v = fz_ivlens[op->len % 10], r;

	if (op->f1 & 1) {
		size_t sz = (size_t)v;
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &sz),
				    OSSL_PARAM_END };

		r = EVP_CIPHER_CTX_set_params(fz_ctx(sd), p);
		fz_log(&sd->tr, "set_params(ivlen)", r, -1, NULL, 0);
	} else {
		r = fz_ctrl(sd, "SET_IVLEN", EVP_CTRL_AEAD_SET_IVLEN, v, NULL, 0);
	}
	fz_model(sd)->tag_ok = 0;
	if (r > 0)
		fz_model(sd)->ivlen = (size_t)v;
}

static void op_aad(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	size_t n = fz_aadlen(op->len2);
	unsigned char aad[FZ_MAX_AAD];

	fz_fill(sd, P_AAD, sd->opno, aad, n);
	if (fz_update(sd, "aad", op->f1 % 3, m->enc, NULL, aad, n) &&
	    m->aadlen + n <= sizeof(m->aad)) {
		memcpy(m->aad + m->aadlen, aad, n);
		m->aadlen += n;
	}
}

static void op_data(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	size_t n = fz_size(op->len), shift = op->f3 & 2 ? 16 : 0;
	unsigned char *src = fz_xmalloc(n), *buf = fz_xmalloc(n + 64), *in, *out;

	if (op->f2 % 3 == 2) {
		fz_fill(sd, P_JUNK, sd->opno, src, n);
	} else {
		fz_fill(sd, P_DATA, sd->opno, src, n);
		if (op->f2 % 3 == 1) /* the ciphertext of the model's message */
			fz_ref_seal(sd, m, m->iv, m->ivlen, m->aad, m->aadlen, src, n, src, m->tag);
	}
	memset(buf, 0xee, n + 64);
	if (op->f3 & 3) {
		/* in place, or overlapping by a block (the engine must not take it) */
		memcpy(buf, src, n);
		in = buf;
		out = buf + shift;
	} else {
		in = src;
		out = buf;
	}
	fz_update(sd, "data", op->f1 % 3, m->enc, out, in, n);
	fz_log(&sd->tr, "data.output", 0, -1, buf, n + 64);
	free(src);
	free(buf);
}

static void tag_bytes(struct fz_side *sd, uint8_t src, unsigned char *tag)
{
	memset(tag, 0, 32);
	if (src % 3 == 2) {
		fz_fill(sd, P_JUNK, sd->opno, tag, 32);
		return;
	}
	memcpy(tag, fz_model(sd)->tag, 16);
	if (src % 3 == 1)
		tag[sd->opno % 16] ^= 0x20;
}

static void op_set_tag(struct fz_side *sd, const struct fz_op *op)
{
	unsigned char tag[32];
	int t = fz_taglen(op->f3);

	tag_bytes(sd, op->f1, tag);
	if (t != 16)
		fz_model(sd)->odd_tag = 1;
	if (op->f2 & 1) {
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
								      tag, (size_t)t),
				    OSSL_PARAM_END };

		fz_log(&sd->tr, "set_params(tag)", EVP_CIPHER_CTX_set_params(fz_ctx(sd), p), -1,
		       NULL, 0);
		fz_model(sd)->tag_ok = 0;
	} else {
		fz_ctrl(sd, "SET_TAG", EVP_CTRL_AEAD_SET_TAG, t, tag, 0);
	}
}

static void op_get_tag(struct fz_side *sd, const struct fz_op *op)
{
	unsigned char tag[32];
	int t = fz_taglen(op->f3), r;

	memset(tag, 0xcc, sizeof(tag));
	if ((op->f1 & 1) && fz_avoid(sd, !fz_model(sd)->tag_ok, "tag-not-after-final"))
		return;
	if (op->f1 & 1) {
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
								      tag, (size_t)t),
				    OSSL_PARAM_END };

		r = EVP_CIPHER_CTX_get_params(fz_ctx(sd), p);
		fz_log(&sd->tr, "get_params(tag)", r, -1, tag, sizeof(tag));
	} else {
		r = fz_ctrl(sd, "GET_TAG", EVP_CTRL_AEAD_GET_TAG, t, tag, sizeof(tag));
	}
	if (r > 0 && t == 16)
		memcpy(fz_model(sd)->tag, tag, 16);
}

/*
 * A fixed IV longer than the IV: eip93 refuses it on purpose, because
 * OpenSSL 3.0 takes it and then hangs in IV generation (alg/gcm/gcm.c,
 * fixed_iv_too_long()).  The one intended difference, so never asked.
 */
static int fixed_too_long(struct fz_side *sd, int l)
{
	int ivlen = EVP_CIPHER_CTX_get0_cipher(fz_ctx(sd)) != NULL
			    ? EVP_CIPHER_CTX_get_iv_length(fz_ctx(sd))
			    : 0;

	if (l == -1 || l <= ivlen)
		return 0;
	fz_log(&sd->tr, "SET_IV_FIXED(longer than the IV): not asked", ivlen, -1, NULL, 0);
	return 1;
}

static void op_iv_fixed(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	unsigned char b[128]; /* -1 and IV_GEN move a whole IV: up to 128 bytes */
	int l = fz_fixedlens[op->f1 % 8];

	fz_fill(sd, P_FIXED, op->f2 & 1, b, sizeof(b));
	if (fixed_too_long(sd, l))
		return;
	if (fz_ctrl(sd, "SET_IV_FIXED", EVP_CTRL_GCM_SET_IV_FIXED, l, b, 0) <= 0)
		return;
	if (l == 4 || l == -1) {
		m->fixed_len = l == 4 ? 4 : 12;
		memcpy(m->fixed, b, 12);
		memcpy(m->inv, b + 4, 8);
		if (l == -1)
			fz_set_iv(m, b, 12);
	}
}

void fz_inv_inc(unsigned char *inv)
{
	for (int i = 7; i >= 0; i--)
		if (++inv[i] != 0)
			break;
}

static void op_iv_gen(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	unsigned char b[128], iv[12];
	int arg = fz_genargs[op->f1 % 7];

	memset(b, 0xcc, sizeof(b));
	if (fz_ctrl(sd, "IV_GEN", EVP_CTRL_GCM_IV_GEN, arg, b, sizeof(b)) <= 0)
		return;
	/* The message IV is fixed || invocation; the delegate then counts on. */
	memcpy(iv, m->fixed, 4);
	if (arg == 8)
		memcpy(m->inv, b, 8);
	else if (arg <= 0 || arg > 12)
		memcpy(m->inv, b + 4, 8);
	memcpy(iv + 4, m->inv, 8);
	memcpy(m->last_eiv, m->inv, 8);
	fz_set_iv(m, iv, 12);
	fz_inv_inc(m->inv);
}

static void op_iv_inv(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	unsigned char b[128], iv[12];
	int arg = fz_invargs[op->f1 % 4];

	memset(b, 0, sizeof(b));
	if (op->f2 & 1)
		fz_fill(sd, P_JUNK, sd->opno, b, sizeof(b));
	else
		memcpy(b, m->last_eiv, 8);
	if (fz_ctrl(sd, "SET_IV_INV", EVP_CTRL_GCM_SET_IV_INV, arg, b, 0) > 0 && arg == 8) {
		memcpy(iv, m->fixed, 4);
		memcpy(iv + 4, b, 8);
		fz_set_iv(m, iv, 12);
	}
}

void fz_tls_header(struct fz_model *m, size_t lenfield, unsigned char *hdr)
{
	uint64_t seq = m->seq12++;

	for (int i = 0; i < 8; i++)
		hdr[i] = (unsigned char)(seq >> (56 - 8 * i));
	hdr[8] = 0x17;
	hdr[9] = 3;
	hdr[10] = 3;
	hdr[11] = (unsigned char)(lenfield >> 8);
	hdr[12] = (unsigned char)lenfield;
}

static void op_tls_aad(struct fz_side *sd, const struct fz_op *op)
{
	unsigned char hdr[16] = { 0 };
	size_t n = fz_size(op->len);
	int mode = op->f1 % 4;

	fz_tls_header(fz_model(sd), mode == 0 ? 8 + n : mode == 1 ? 24 + n : (op->len & 0x1f), hdr);
	fz_ctrl(sd, "TLS1_AAD", EVP_CTRL_AEAD_TLS1_AAD, mode == 3 ? 12 + (op->f2 & 1) * 2 : 13, hdr,
		0);
}

static void op_copy(struct fz_side *sd, const struct fz_op *op)
{
	int other = 1 - sd->cur, r;

	if (fz_avoid(sd, fz_model(sd)->empty_update, "copy-after-empty-update"))
		return;
	if (sd->x[other] == NULL)
		sd->x[other] = EVP_CIPHER_CTX_new();
	if (sd->x[other] == NULL)
		abort();
	r = EVP_CIPHER_CTX_copy(sd->x[other], sd->x[sd->cur]);
	fz_log(&sd->tr, "EVP_CIPHER_CTX_copy", r, -1, NULL, 0);
	sd->m[other] = sd->m[sd->cur];
	if (op->f1 & 1)
		sd->cur = other;
}

static void op_params(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	OSSL_PARAM p[8], q[8];
	size_t ivlen = op->f2 & 1 ? 16 : 12, keylen = fz_key_lens[m->kidx] + (op->f2 & 4 ? 8 : 0);
	unsigned char tag[16], fixed[12], hdr[16], inv[8];
	int unknown = 1, n = 0, r;

	memcpy(tag, m->tag, 16);
	fz_fill(sd, P_FIXED, 0, fixed, sizeof(fixed));
	fz_tls_header(m, 8 + fz_size(op->len), hdr);
	memcpy(inv, m->last_eiv, 8);
	if (op->f1 & 1)
		p[n++] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	if (op->f1 & 2)
		p[n++] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag,
							   op->f2 & 2 ? 12 : 16);
	if ((op->f1 & 2) && (op->f2 & 2))
		m->odd_tag = 1;
	if ((op->f1 & 4) && !fixed_too_long(sd, 4))
		p[n++] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
							   fixed, 4);
	if (op->f1 & 8)
		p[n++] =
			OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, hdr, 13);
	if (op->f1 & 16)
		p[n++] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen);
	if (op->f1 & 32)
		p[n++] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV,
							   inv, 8);
	if (op->f1 & 64)
		p[n++] = OSSL_PARAM_construct_int("eip93-fuzz-unknown", &unknown);
	/* The order a caller lists parameters in must not matter either. */
	for (int i = 0; i < n; i++)
		q[i] = p[op->f2 & 8 ? n - 1 - i : i];
	q[n] = OSSL_PARAM_construct_end();
	if (fz_avoid(sd, (op->f1 & 8) && m->aad_pending, "tls-aad-then-init") ||
	    fz_avoid(sd, (op->f1 & 1) && n > 1, "partial-set-params-ivlen"))
		return;
	r = EVP_CIPHER_CTX_set_params(fz_ctx(sd), q);
	fz_log(&sd->tr, "set_params", r, -1, NULL, 0);
	m->tag_ok = 0;
	if (op->f1 & 8)
		m->aad_pending = 1;
	if (r > 0 && (op->f1 & 1))
		m->ivlen = ivlen;
	if (r > 0 && (op->f1 & 4)) {
		memcpy(m->fixed, fixed, 4);
		m->fixed_len = 4;
	}
}

void fz_run_op(struct fz_side *sd, const struct fz_op *op)
{
	if (fz_ctx(sd) == NULL)
		return;
	if (sd->s->cipher != FZ_GCM) {
		fzs_run_op(sd, op);
		return;
	}
	switch (op->code) {
	case FZ_INIT:
		op_init(sd, op);
		break;
	case FZ_IVLEN:
		op_ivlen(sd, op);
		break;
	case FZ_AAD:
		op_aad(sd, op);
		break;
	case FZ_DATA:
		op_data(sd, op);
		break;
	case FZ_FINAL:
		fz_final(sd, "final", op->f1 % 3, fz_model(sd)->enc);
		break;
	case FZ_SET_TAG:
		op_set_tag(sd, op);
		break;
	case FZ_GET_TAG:
		op_get_tag(sd, op);
		break;
	case FZ_QUERY:
		fz_query(sd);
		fz_query_lists(sd);
		break;
	case FZ_IV_FIXED:
		op_iv_fixed(sd, op);
		break;
	case FZ_IV_GEN:
		op_iv_gen(sd, op);
		break;
	case FZ_IV_INV:
		op_iv_inv(sd, op);
		break;
	case FZ_TLS_AAD:
		op_tls_aad(sd, op);
		break;
	case FZ_COPY:
		op_copy(sd, op);
		break;
	case FZ_SWITCH:
		if (sd->x[1 - sd->cur] != NULL)
			sd->cur = 1 - sd->cur;
		break;
	case FZ_MSG:
		fz_macro_msg(sd, op);
		break;
	case FZ_TLS12:
		fz_macro_tls12(sd, op);
		break;
	case FZ_TLS13:
		fz_macro_tls13(sd, op);
		break;
	case FZ_SSH:
		fz_macro_ssh(sd, op);
		break;
	case FZ_PARAMS:
		op_params(sd, op);
		break;
	case FZ_RESET:
	default:
		fz_log(&sd->tr, "EVP_CIPHER_CTX_reset", EVP_CIPHER_CTX_reset(fz_ctx(sd)), -1, NULL,
		       0);
		memset(fz_model(sd), 0, sizeof(struct fz_model));
		fz_model(sd)->kidx = sd->s->keysize;
		break;
	}
	if (sd->s->query_each)
		fz_query(sd);
}
