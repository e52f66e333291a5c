// SPDX-License-Identifier: Apache-2.0
/*
 * The basic steps of an AES-CTR or AES-CBC call script on one side (skc.h):
 * inits of every kind (padding and num parameters, the other mode's cipher,
 * other key sizes), updates and EVP_Cipher calls of every shape (whole
 * blocks in the engine's window, partial blocks, in place, overlapping, at
 * odd offsets), finals, set_params and the EVP setters, every gettable
 * parameter, copies and resets.  After every call the reason of the last
 * error queued is logged too (both providers raise the same ones: the
 * delegate's); the queue is emptied.
 */
#include "skc.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define BLK 16

void fzs_reason(struct fz_side *sd, const char *what)
{
	unsigned long e = ERR_peek_last_error();
	char w[64];

	snprintf(w, sizeof(w), "%s.reason", what);
	fz_log(&sd->tr, w, (long long)ERR_GET_REASON(e), -1, NULL, 0);
	ERR_clear_error();
}

/* A counter block whose last @bits bits are at most 2047 blocks before they wrap. */
static void near_wrap(unsigned char iv[BLK], int bits)
{
	for (int i = BLK - bits / 8; i < BLK - 2; i++)
		iv[i] = 0xff;
	iv[BLK - 2] |= 0xf8;
}

static void first_iv(const struct fz_side *sd, unsigned char iv[BLK])
{
	fz_fill(sd, P_IV, 0, iv, BLK);
	if (sd->s->iv_class != 0)
		near_wrap(iv, 32 << (sd->s->iv_class - 1));
}

void fzs_iv(struct fz_side *sd, uint8_t sel, unsigned char iv[BLK])
{
	sel %= 8;
	if (sel == 6) {
		memcpy(iv, fz_model(sd)->iv, BLK);
		return;
	}
	if (sel == 7) {
		first_iv(sd, iv);
		return;
	}
	fz_fill(sd, P_IV, sd->opno * 8 + sel + 1, iv, BLK);
	if (sel >= 3)
		near_wrap(iv, 32 << (sel - 3));
}

long fzs_ref(const struct fz_side *sd, const struct fz_model *m, const unsigned char *iv, int enc,
	     int pad, const unsigned char *in, size_t len, unsigned char *out)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int a = 0, b = 0, ok;

	ERR_set_mark();
	ok = x != NULL &&
	     EVP_CipherInit_ex2(x, sd->skc_ref[m->smode & 1][m->kidx], m->key, iv, enc, NULL) > 0 &&
	     EVP_CIPHER_CTX_set_padding(x, pad) > 0 &&
	     (len == 0 || EVP_CipherUpdate(x, out, &a, in, (int)len) > 0) &&
	     EVP_CipherFinal_ex(x, out + a, &b) > 0;
	ERR_pop_to_mark();
	EVP_CIPHER_CTX_free(x);
	if (!ok) {
		memmove(out, in, len);
		return -1;
	}
	return (long)a + b;
}

/* A slot's model with no cipher (a reset context, or one never set up). */
static void model_reset(struct fz_model *m, const struct fz_script *s)
{
	memset(m, 0, sizeof(*m));
	m->kidx = s->keysize;
	m->smode = s->cipher == FZ_AES_CBC;
	m->spad = 1;
}

int fzs_avoid_flip(struct fz_side *sd, const EVP_CIPHER *c, const unsigned char *key, int enc)
{
	const struct fz_model *m = fz_model(sd);

	return fz_avoid(sd,
			c == NULL && key == NULL && m->smode == 1 && m->have_key &&
				(enc < 0 ? m->enc : enc) != m->kdir,
			"cbc-direction-without-key");
}

int fzs_avoid_num(struct fz_side *sd, int mode, unsigned int num)
{
	return fz_avoid(sd, mode == 1 && num != 0, "cbc-num-after-engine");
}

int fzs_avoid_pad(struct fz_side *sd)
{
	return fz_avoid(sd, fz_model(sd)->smode == 1 && fz_model(sd)->fed,
			"cbc-padding-off-held-block");
}

void fzs_copy(struct fz_side *sd, int cont)
{
	int other = 1 - sd->cur, r;

	if (fz_model(sd)->mac_owned) {
		fz_log(&sd->tr, "copy left out: AES-CBC's tls-mac would be freed twice", 0, -1,
		       NULL, 0);
		return;
	}
	if (sd->x[other] == NULL)
		sd->x[other] = EVP_CIPHER_CTX_new();
	if (sd->x[other] == NULL)
		abort();
	r = EVP_CIPHER_CTX_copy(sd->x[other], sd->x[sd->cur]);
	fz_log(&sd->tr, "EVP_CIPHER_CTX_copy", r, -1, NULL, 0);
	fzs_reason(sd, "copy");
	/* The model goes with a copy made, not with a refused one (the other slot is as it was). */
	if (r > 0) {
		sd->m[other] = sd->m[sd->cur];
	} else if (EVP_CIPHER_CTX_get0_cipher(sd->x[other]) == NULL) {
		model_reset(&sd->m[other], sd->s);
	}
	if (cont)
		sd->cur = other;
}

void fzs_tls_used(struct fz_model *m)
{
	if (m->smode == 1 && m->tls_on && m->tls_mac) /* either direction: the model may be wrong */
		m->mac_owned = 1;
}

void fzs_keyed(struct fz_model *m, const EVP_CIPHER *c, const unsigned char *key, int enc)
{
	int e = enc < 0 ? m->enc : enc;

	m->fed = 0;
	if (c != NULL) { /* a new algorithm context: no key, padding as the EVP flag says */
		m->have_key = 0;
		m->spad = !m->nopad_flag;
		m->tls_on = m->tls_mac = m->mac_owned = 0;
	}
	if (key != NULL) {
		m->have_key = 1;
		m->kdir = e;
	}
	m->enc = e;
}

void fzs_side_start(struct fz_side *sd, const struct fz_script *s)
{
	struct fz_model *m = &sd->m[0];
	unsigned char iv[BLK];

	sd->s = s;
	sd->cur = 0;
	sd->opno = 0;
	memset(sd->m, 0, sizeof(sd->m));
	sd->x[0] = EVP_CIPHER_CTX_new();
	sd->x[1] = NULL;
	fz_tr_reset(&sd->tr);
	if (sd->x[0] == NULL)
		abort();
	m->kidx = s->keysize;
	m->smode = s->cipher == FZ_AES_CBC;
	m->spad = 1;
	fz_fill(sd, P_KEY, 0, m->key, 32);
	first_iv(sd, iv);
	m->enc = !s->start_dec;
	if (fz_init(sd, "init(cipher,key#0,iv#0)", sd->c[s->keysize], m->key, iv, m->enc) > 0) {
		fzs_keyed(m, sd->c[s->keysize], m->key, m->enc);
		fz_set_iv(m, iv, BLK);
	}
	fzs_reason(sd, "init");
}

static void op_init(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	int ks = (op->f2 >> 2) & 3 ? ((op->f2 >> 2) & 3) - 1 : sd->s->keysize;
	int mode = (m->smode ^ (op->f2 >> 4)) & 1, dir = (op->f1 >> 3) & 3, api = (op->f1 >> 5) & 3;
	const EVP_CIPHER *c = op->f1 & 1 ? sd->skc[mode][ks] : NULL;
	unsigned char key[32], iv[BLK];
	const unsigned char *k = op->f1 & 2 ? key : NULL, *v = op->f1 & 4 ? iv : NULL;
	unsigned int pad = op->f3 >> 7, num = (op->f3 >> 3) & 15;
	int unknown = 7, enc, r;
	OSSL_PARAM p[4], *pp = p;
	EVP_CIPHER_CTX *x = fz_ctx(sd);

	fz_fill(sd, P_KEY, (uint64_t)(op->f2 & 3), key, sizeof(key));
	fzs_iv(sd, op->f3, iv);
	enc = dir == 0 ? 1 : dir == 1 ? 0 : dir == 2 ? -1 : !m->enc;
	if (op->f2 & 0x20)
		*pp++ = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad);
	/* Known: a CBC context keeps a num the engine's sync drops; CTR refuses one after the IV. */
	if ((op->f2 & 0x40) && !fzs_avoid_num(sd, (op->f1 & 1) ? mode : m->smode, num) &&
	    !fz_avoid(sd, ((op->f1 & 1) ? mode : m->smode) == 0 && num != 0 && v != NULL,
		      "skc-failed-init-iv"))
		*pp++ = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num);
	if (op->f2 & 0x80)
		*pp++ = OSSL_PARAM_construct_int("eip93-fuzz-unknown", &unknown);
	*pp = OSSL_PARAM_construct_end();
	if (fzs_avoid_flip(sd, c, k, enc))
		return;
	if (api == 1 && enc >= 0)
		r = enc ? EVP_EncryptInit_ex(x, c, NULL, k, v)
			: EVP_DecryptInit_ex(x, c, NULL, k, v);
	else if (api >= 2)
		r = EVP_CipherInit_ex2(x, c, k, v, enc, api == 3 ? p : NULL);
	else
		r = EVP_CipherInit_ex(x, c, NULL, k, v, enc);
	fz_log(&sd->tr, "init", r, -1, NULL, 0);
	fzs_reason(sd, "init");
	if (r <= 0)
		return;
	if (c != NULL) {
		m->kidx = ks;
		m->smode = mode;
	}
	if (k != NULL)
		memcpy(m->key, key, sizeof(key));
	fzs_keyed(m, c, k, enc);
	if (v != NULL)
		fz_set_iv(m, iv, BLK);
	if (api == 3 && (op->f2 & 0x20))
		m->spad = pad != 0;
}

int fzs_update(struct fz_side *sd, const char *what, int api, unsigned char *out,
	       const unsigned char *in, size_t inl, size_t *outl)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	const struct fz_model *m = fz_model(sd);
	int r, ol = -7, enc = m->enc;

	/*
	 * OpenSSL 3.0 and 3.5 take a decrypting AES-CBC update in place with a
	 * TLS 1.1+ tls-version as a record and strip its explicit IV block
	 * without a length check: with 0 bytes the length wraps and it reads
	 * before the buffer (either side; a SEGV when the buffer starts a
	 * mapping).  Never asked, as EVP_Cipher without a cipher is not.
	 */
	if (api != 2 && inl == 0 && in == out && m->smode == 1 && m->tls_on) {
		fz_log(&sd->tr, "empty TLS record left out: OpenSSL reads before it", 0, -1, NULL,
		       0);
		*outl = 0;
		return 0;
	}
	if (api == 2) {
		r = fz_evp_cipher(x, out, in, inl);
		fz_log(&sd->tr, what, r, -1, NULL, 0);
		ol = r > 0 ? (int)inl : 0;
	} else {
		if (api == 1)
			r = enc ? EVP_EncryptUpdate(x, out, &ol, in, (int)inl)
				: EVP_DecryptUpdate(x, out, &ol, in, (int)inl);
		else
			r = EVP_CipherUpdate(x, out, &ol, in, (int)inl);
		fz_log(&sd->tr, what, r, ol, NULL, 0);
	}
	fzs_reason(sd, what);
	fzs_tls_used(fz_model(sd));
	if (inl > 0)
		fz_model(sd)->fed = 1;
	*outl = r > 0 && ol > 0 ? (size_t)ol : 0;
	return r > 0;
}

int fzs_final(struct fz_side *sd, const char *what, int api, unsigned char *out)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	int r, ol = -7, enc = fz_model(sd)->enc;

	if (api == 2) {
		r = fz_evp_cipher(x, NULL, NULL, 0);
		fz_log(&sd->tr, what, r, -1, NULL, 0);
	} else {
		if (api == 1)
			r = enc ? EVP_EncryptFinal_ex(x, out, &ol)
				: EVP_DecryptFinal_ex(x, out, &ol);
		else
			r = EVP_CipherFinal_ex(x, out, &ol);
		fz_log(&sd->tr, what, r, ol, NULL, 0);
	}
	fzs_reason(sd, what);
	return r > 0;
}

/*
 * A data update.  The input's buffer holds 16 bytes more than the data:
 * CBC's EVP_Cipher of a partial block reads the whole block (the same
 * bytes on both sides), and in place or overlapping, the block before it
 * may be written.
 */
static void op_data(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	size_t n = fzs_size(op->len, op->len2), ioff = (op->f3 >> 3) & 7;
	size_t ooff = 5 * (size_t)((op->f3 >> 6) & 3), cap = n + 128, outl;
	unsigned char *d = fz_xmalloc(n + BLK), *a = fz_xmalloc(cap), *b = fz_xmalloc(cap), *in,
		      *out;

	fz_fill(sd, op->f2 % 3 == 2 ? P_JUNK : P_DATA, sd->opno, d, n + BLK);
	if (op->f2 % 3 == 1) /* the ciphertext of the model's message from its IV */
		(void)fzs_ref(sd, m, m->iv, 1, 0, d, n, a);
	if (op->f2 % 3 == 1 && n > 0)
		memcpy(d, a, n);
	memset(a, 0xee, cap);
	memset(b, 0xee, cap);
	if (op->f3 & 3) { /* in place, or overlapping by a block either way */
		in = b + BLK + ioff;
		memcpy(in, d, n + BLK);
		out = !(op->f3 & 2) ? in : op->f3 & 4 ? in - BLK : in + BLK;
	} else {
		in = a + ioff;
		memcpy(in, d, n + BLK);
		out = b + ooff;
	}
	fzs_update(sd, "data", op->f1 % 3, out, in, n, &outl);
	fz_log(&sd->tr, "data.output", 0, -1, b, cap);
	free(d);
	free(a);
	free(b);
}

static void op_params(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	unsigned int pad = op->f2 & 1, num = fzs_nums[op->f3 % 8],
		     ver = fzs_tlsvers[(op->f2 >> 2) & 3];
	size_t keylen = fz_key_lens[m->kidx] + (op->f2 & 2 ? 8 : 0);
	size_t mac = fzs_macsizes[(op->f2 >> 4) & 7], ivlen = op->f2 & 0x80 ? 12 : BLK;
	OSSL_PARAM p[8], q[8];
	int unknown = 1, n = 0, r;

	if ((op->f1 & 1) && !fzs_avoid_pad(sd))
		p[n++] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad);
	if ((op->f1 & 2) && !fzs_avoid_num(sd, m->smode, num))
		p[n++] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num);
	if (op->f1 & 4)
		p[n++] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen);
	if (op->f1 & 8)
		p[n++] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &ver);
	if (op->f1 & 16)
		p[n++] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac);
	if (op->f1 & 32)
		p[n++] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen);
	if (op->f1 & 64)
		p[n++] = OSSL_PARAM_construct_int("eip93-fuzz-unknown", &unknown);
	for (int i = 0; i < n; i++) /* the order a caller lists them in must not matter */
		q[i] = p[op->f1 & 128 ? n - 1 - i : i];
	q[n] = OSSL_PARAM_construct_end();
	if (fz_avoid(sd, n > 1, "skc-partial-set-params"))
		return;
	r = EVP_CIPHER_CTX_set_params(fz_ctx(sd), q);
	fz_log(&sd->tr, "set_params", r, -1, NULL, 0);
	fzs_reason(sd, "set_params");
	if (r > 0 && (op->f1 & 1))
		m->spad = (int)pad;
	/* A failed set_params may have taken some: the flags only go up then. */
	if (op->f1 & 8)
		m->tls_on = r > 0 ? ver != 0 : m->tls_on || ver != 0;
	if (op->f1 & 16)
		m->tls_mac = r > 0 ? mac != 0 : m->tls_mac || mac != 0;
}

static void op_setter(struct fz_side *sd, const struct fz_op *op)
{
	static const int keylens[6] = { 16, 24, 32, 0, 15, 64 };
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	int r;

	/* OpenSSL 3.0's setters reach the cipher through the context: a reset one has none. */
	if (EVP_CIPHER_CTX_get0_cipher(x) == NULL) {
		fz_log(&sd->tr, "setter: no cipher", 0, -1, NULL, 0);
		return;
	}
	switch (op->f1 % 4) {
	case 0:
		if (fzs_avoid_pad(sd))
			return;
		r = EVP_CIPHER_CTX_set_padding(x, op->f2 & 1);
		fz_model(sd)->nopad_flag = !(op->f2 & 1);
		if (r > 0)
			fz_model(sd)->spad = op->f2 & 1;
		break;
	case 1:
		if (fzs_avoid_num(sd, fz_model(sd)->smode, fzs_nums[op->f2 % 8]))
			return;
		r = EVP_CIPHER_CTX_set_num(x, (int)fzs_nums[op->f2 % 8]);
		break;
	case 2:
		r = EVP_CIPHER_CTX_set_key_length(x, keylens[op->f2 % 6]);
		break;
	default:
		r = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, op->f2 & 1 ? 12 : BLK, NULL);
		break;
	}
	fz_log(&sd->tr, "setter", r, -1, NULL, 0);
	fzs_reason(sd, "setter");
}

void fzs_run_op(struct fz_side *sd, const struct fz_op *op)
{
	unsigned char fin[64];

	switch ((enum fzs_code)op->scode) {
	case FZS_INIT:
		op_init(sd, op);
		break;
	case FZS_DATA:
		op_data(sd, op);
		break;
	case FZS_FINAL:
		memset(fin, 0xee, sizeof(fin));
		fzs_final(sd, "final", op->f1 % 3, fin);
		fz_log(&sd->tr, "final.output", 0, -1, fin, sizeof(fin));
		break;
	case FZS_PARAMS:
		op_params(sd, op);
		break;
	case FZS_SETTER:
		op_setter(sd, op);
		break;
	case FZS_QUERY:
		fzs_query(sd);
		fz_query_lists(sd);
		break;
	case FZS_COPY:
		fzs_copy(sd, op->f1 & 1);
		break;
	case FZS_SWITCH:
		if (sd->x[1 - sd->cur] != NULL)
			sd->cur = 1 - sd->cur;
		break;
	case FZS_MSG:
		fzs_macro_msg(sd, op);
		break;
	case FZS_TLS:
		fzs_macro_tls(sd, op);
		break;
	case FZS_RESET:
	default:
		fz_log(&sd->tr, "EVP_CIPHER_CTX_reset", EVP_CIPHER_CTX_reset(fz_ctx(sd)), -1, NULL,
		       0);
		model_reset(fz_model(sd), sd->s);
		break;
	}
	if (sd->s->query_each)
		fzs_query(sd);
}
