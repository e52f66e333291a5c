// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-CTR and AES-CBC macro steps (skc.h): a whole message as callers
 * make one (an init of any kind, the data in parts cut anywhere, each
 * part's output where the one before ended, in place or not, a copy
 * between parts, the running IV read between them, the final), and a TLS
 * record as libssl hands a provided CBC or CTR cipher one (tls-version and
 * tls-mac-size, then the record in one in-place update; decrypting, the
 * padding and the MAC taken off).  Decryptions get valid input from the
 * reference cipher and the side's model: a wrong model costs coverage,
 * never a false divergence.
 */
#include "skc.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#define BLK ((size_t)16)
#define MAXPARTS 4

static void set_padding(struct fz_side *sd, const char *what, int pad)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	int r;

	if (EVP_CIPHER_CTX_get0_cipher(x) == NULL || fzs_avoid_pad(sd))
		return;
	r = EVP_CIPHER_CTX_set_padding(x, pad);
	fz_log(&sd->tr, what, r, -1, NULL, 0);
	fzs_reason(sd, what);
	fz_model(sd)->nopad_flag = !pad;
	if (r > 0)
		fz_model(sd)->spad = pad;
}

/* An init with an IV and direction -1; the direction. */
static int msg_iv(struct fz_side *sd, const unsigned char *iv)
{
	struct fz_model *m = fz_model(sd);

	if (fzs_avoid_flip(sd, NULL, NULL, -1))
		return m->enc;
	if (fz_init(sd, "msg.init(iv,-1)", NULL, NULL, iv, -1) > 0) {
		fzs_keyed(m, NULL, NULL, -1);
		fz_set_iv(m, iv, BLK);
	}
	fzs_reason(sd, "msg.init(iv,-1)");
	return m->enc;
}

/* The init a message starts with (fzs_reinits[]); the message's direction. */
static int msg_init(struct fz_side *sd, const struct fz_op *op, int enc)
{
	struct fz_model *m = fz_model(sd);
	unsigned char key[32], iv[BLK];
	const unsigned char *k = key;
	const EVP_CIPHER *c = NULL;
	unsigned int pad = !(op->f2 & 0x10);
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad),
			    OSSL_PARAM_END };
	int r;

	fz_fill(sd, P_KEY, (uint64_t)((op->f3 >> 4) & 3), key, sizeof(key));
	fzs_iv(sd, op->f3, iv);
	switch ((op->f1 >> 3) & 7) {
	case 3: /* none: the context goes on as it is */
		return m->enc;
	case 4:
		r = fz_init(sd, "msg.init(key)", NULL, key, NULL, enc);
		fzs_reason(sd, "msg.init(key)");
		if (r > 0) {
			memcpy(m->key, key, sizeof(key));
			fzs_keyed(m, NULL, key, enc);
		}
		return msg_iv(sd, iv);
	case 5:
		return msg_iv(sd, iv);
	case 7:
		r = EVP_CipherInit_ex2(fz_ctx(sd), NULL, m->key, iv, enc, p);
		fz_log(&sd->tr, "msg.init_ex2(key,iv,padding)", r, -1, NULL, 0);
		fzs_reason(sd, "msg.init_ex2");
		if (r > 0) {
			fzs_keyed(m, NULL, m->key, enc);
			fz_set_iv(m, iv, BLK);
			m->spad = (int)pad;
		}
		return m->enc;
	case 6:
		k = m->key;
		break;
	case 2:
		c = sd->skc[m->smode & 1][m->kidx];
		break;
	case 1:
		break;
	default:
		k = NULL;
		break;
	}
	if (fzs_avoid_flip(sd, c, k, enc))
		return m->enc;
	r = fz_init(sd, "msg.init", c, k, iv, enc);
	fzs_reason(sd, "msg.init");
	if (r <= 0)
		return m->enc;
	if (k == key)
		memcpy(m->key, key, sizeof(key));
	fzs_keyed(m, c, k, enc);
	fz_set_iv(m, iv, BLK);
	return enc;
}

/* Where the parts end: cut[0] = 0 < ... <= cut[parts] = len, by f2's bits 2-3. */
static void msg_cuts(struct fz_side *sd, const struct fz_op *op, size_t len, int parts, size_t *cut)
{
	unsigned char r[MAXPARTS];
	int how = (op->f2 >> 2) & 3;

	fz_fill(sd, P_JUNK, sd->opno, r, sizeof(r));
	cut[0] = 0;
	for (int i = 1; i < parts; i++) {
		size_t even = len * (size_t)i / (size_t)parts, c = even;

		if (how == 0)
			c = even & ~(size_t)(BLK - 1);
		else if (how == 1)
			c = even + (size_t)r[i] % 29;
		else if (how == 2)
			c = i == 1 ? 1 + (size_t)r[0] % (BLK - 1)
				   : cut[1] + (((len - cut[1]) * (size_t)(i - 1) /
						(size_t)(parts - 1)) &
					       ~(size_t)(BLK - 1));
		c = c > len ? len : c;
		cut[i] = c < cut[i - 1] ? cut[i - 1] : c;
	}
	cut[parts] = len;
}

void fzs_macro_msg(struct fz_side *sd, const struct fz_op *op)
{
	size_t len = fzs_size(op->len, op->len2), clen = len, cut[MAXPARTS + 1], pos = 0, ol;
	int api = ((op->f1 >> 1) & 3) % 3, parts = 1 + (op->f2 & 3), enc;
	unsigned char *pt, *in, *out;
	const unsigned char *src;
	struct fz_model *m;

	enc = msg_init(sd, op, !(op->f1 & 1));
	if (op->f2 & 0x10)
		set_padding(sd, "msg.set_padding(0)", 0);
	m = fz_model(sd);
	pt = fz_xmalloc(len + 2 * BLK);
	in = fz_xmalloc(len + 4 * BLK);
	out = fz_xmalloc(len + 8 * BLK);
	fz_fill(sd, P_DATA, sd->opno, pt, len + 2 * BLK);
	memcpy(in, pt, len + 2 * BLK); /* the bytes past the end too: a partial block's read */
	if (!enc) {
		long r = fzs_ref(sd, m, m->iv, 1, m->smode && m->spad, pt, len, in);

		clen = r >= 0 ? (size_t)r : len;
		if ((op->f2 & 0x40) && clen > 0)
			in[clen - 1] ^= 0x5a; /* CBC: the padding is wrong (mostly) */
	}
	memset(out, 0xee, len + 8 * BLK);
	if (op->f2 & 0x20) /* in place: each part's output where the one before ended */
		memcpy(out, in, clen + BLK);
	src = op->f2 & 0x20 ? out : in;
	msg_cuts(sd, op, clen, parts, cut);
	for (int i = 0; i < parts; i++) {
		fzs_update(sd, "msg.data", api, out + pos, src + cut[i], cut[i + 1] - cut[i], &ol);
		pos += ol;
		if (op->f2 & 0x80) {
			fzs_update(sd, "msg.data(0)", api, out + pos, src + cut[i + 1], 0, &ol);
			pos += ol;
		}
		if (op->f3 & 8)
			fzs_running(sd);
		if (i == 0 && (op->f1 & 0x80))
			fzs_copy(sd, 1);
	}
	if (!(op->f1 & 0x40))
		fzs_final(sd, "msg.final", api, out + pos);
	fz_log(&sd->tr, "msg.output", 0, -1, out, len + 8 * BLK);
	free(pt);
	free(in);
	free(out);
}

/*
 * A TLS record's plaintext as the decrypting side expects it before CBC:
 * (explicit IV) || payload || MAC || padding, the padding's bytes its
 * length - 1.  Its length.
 */
/*
 * Is the decrypted record @p (@n bytes) well padded by the provider's rules
 * (an explicit IV for TLS 1.1 on, the MAC, the padding: SSL 3 at most a
 * block, TLS every byte the length)?  Read from the output, which both
 * sides share, not from what the model meant to send: after refused calls
 * the model's key may not be the context's.
 */
static int tls_padded(const unsigned char *p, size_t n, unsigned int ver, size_t mac)
{
	size_t pad, expl = ver >= 0x302 ? BLK : 0;

	if (n == 0)
		return 0;
	pad = p[n - 1];
	if (n < expl + mac + pad + 1)
		return 0;
	if (ver == 0x300)
		return pad + 1 <= BLK;
	for (size_t i = 0; i <= pad; i++)
		if (p[n - 1 - i] != pad)
			return 0;
	return 1;
}

static size_t tls_plain(unsigned char *b, size_t body, int bad)
{
	size_t pad = (BLK - (body + 1) % BLK) % BLK;

	memset(b + body, (int)pad, pad + 1);
	if (bad)
		b[body + pad] ^= 0x11;
	return body + pad + 1;
}

void fzs_macro_tls(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	unsigned int ver = fzs_tls_version(op->f1);
	size_t mac = fzs_macsizes[(op->f1 >> 3) & 7], len = fz_size(op->len) % 16385;
	size_t expl = m->smode && ver >= 0x302 ? BLK : 0, body = expl + len + mac, inl = body;
	size_t cap = body + 4 * BLK;
	int dec = op->f1 & 1, r, o = -7, bs, set;
	EVP_CIPHER_CTX *x;
	unsigned char *pt = fz_xmalloc(cap), *rec = fz_xmalloc(cap), *out = fz_xmalloc(cap), *dst;
	OSSL_PARAM p[3] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &ver),
			    OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac),
			    OSSL_PARAM_END };

	r = EVP_CIPHER_CTX_set_params(fz_ctx(sd), p);
	fz_log(&sd->tr, "tls.set_params", r, -1, NULL, 0);
	fzs_reason(sd, "tls.set_params");
	m->tls_on = 1;
	m->tls_mac = m->tls_mac || mac != 0;
	fz_fill(sd, P_DATA, sd->opno, pt, cap);
	memcpy(rec, pt, cap);
	if (dec) {
		if (m->smode)
			inl = tls_plain(pt, body, op->f1 & 0x40);
		if (fzs_ref(sd, m, m->iv, 1, 0, pt, inl, rec) < 0)
			memcpy(rec, pt, cap);
	}
	memset(out, 0xee, cap);
	dst = op->f1 & 0x80 ? out : rec;
	r = EVP_CipherUpdate(fz_ctx(sd), dst, &o, rec, (int)inl);
	fz_log(&sd->tr, "tls.CipherUpdate", r, o, NULL, 0);
	fzs_reason(sd, "tls.CipherUpdate");
	/*
	 * Which record set tls-mac, from the context as it is (after a refused
	 * init with the other mode's cipher it may not be the model's mode):
	 * decrypting AES-CBC, a record whose output is well padded (its MAC, in
	 * memory the provider allocated); decrypting AES-CTR, the MAC at the end of the
	 * output (the stream update points there).
	 */
	x = fz_ctx(sd);
	bs = EVP_CIPHER_CTX_get0_cipher(x) != NULL ? EVP_CIPHER_CTX_get_block_size(x) : 0;
	set = dec && r == 1 && mac != 0 && !EVP_CIPHER_CTX_is_encrypting(x);
	fzs_tls_mac(sd, set && bs == BLK && tls_padded(dst, inl, ver, mac),
		    set && bs == 1 && o >= 0 ? dst + o : NULL);
	fzs_tls_used(m);
	m->fed = 1;
	fz_log(&sd->tr, "tls.record", 0, -1, rec, cap);
	fz_log(&sd->tr, "tls.out", 0, -1, out, cap);
	free(pt);
	if (sd->nkept + 2 <= sizeof(sd->kept) / sizeof(sd->kept[0])) {
		sd->kept[sd->nkept++] = rec;
		sd->kept[sd->nkept++] = out;
	} else { /* not reached: one record a step */
		free(rec);
		free(out);
	}
}
