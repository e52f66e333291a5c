// SPDX-License-Identifier: Apache-2.0
/*
 * The macro steps: whole messages as real callers make them.  A generic
 * message (re-init of any kind, AAD and data in parts, zero-length updates,
 * tag set early or late, a context copy mid-message), a TLS 1.2 record the
 * way libssl drives a provided AES-GCM (TLS1_AAD, then one in-place update
 * or EVP_Cipher), a TLS 1.3 record (per-record IV by init), and an OpenSSH
 * packet (IV_GEN, EVP_Cipher over the 4-byte length, the packet, then
 * EVP_Cipher(NULL, 0)).  Decryptions get valid input from the model.
 */
#include "run.h"

#include <stdlib.h>
#include <string.h>

static void other_slot_copy(struct fz_side *sd)
{
	int other = 1 - sd->cur, r;

	if (fz_avoid(sd, fz_model(sd)->empty_update, "copy-after-empty-update"))
		return;
	if (sd->x[other] == NULL)
		sd->x[other] = EVP_CIPHER_CTX_new();
	if (sd->x[other] == NULL)
		abort();
	r = EVP_CIPHER_CTX_copy(sd->x[other], sd->x[sd->cur]);
	fz_log(&sd->tr, "msg.copy-mid-message", r, -1, NULL, 0);
	sd->m[other] = sd->m[sd->cur];
	if (r > 0)
		sd->cur = other;
}

/* The init a message starts with; the message's direction is returned. */
static int msg_reinit(struct fz_side *sd, int kind, int enc, uint8_t ivsel, int keysel)
{
	struct fz_model *m = fz_model(sd);
	unsigned char key[32], iv[128];
	const unsigned char *k = key;
	const EVP_CIPHER *c = NULL;
	int r;

	fz_fill(sd, P_KEY, (uint64_t)keysel, key, 32);
	if (ivsel % 8 == 6)
		memcpy(iv, m->iv, sizeof(iv));
	else
		fz_fill(sd, P_IV, ivsel % 8 == 7 ? 0 : sd->opno * 8 + ivsel % 8 + 1, iv,
			sizeof(iv));
	switch (kind) {
	case 3: /* none: whatever IV the context has (after a final: none) */
		return m->enc;
	case 4:
		if (fz_init(sd, "msg.init(key)", NULL, key, NULL, enc) > 0) {
			memcpy(m->key, key, 32);
			m->enc = enc;
		}
		if (fz_init(sd, "msg.init(iv,-1)", NULL, NULL, iv, -1) > 0)
			fz_set_iv(m, iv, m->ivlen);
		return m->enc;
	case 5:
		if (fz_init(sd, "msg.init(iv,-1)", NULL, NULL, iv, -1) > 0)
			fz_set_iv(m, iv, m->ivlen);
		return m->enc;
	case 6:
		k = m->key;
		break;
	case 2:
		c = sd->c[m->kidx];
		break;
	case 1:
		break;
	default:
		k = NULL;
		break;
	}
	r = fz_init(sd, "msg.init", c, k, iv, enc);
	if (r > 0) {
		size_t ivlen = c != NULL || m->ivlen == 0 ? 12 : m->ivlen;

		if (k == key)
			memcpy(m->key, key, 32);
		fz_set_iv(m, iv, ivlen);
		m->enc = enc;
	}
	return r > 0 ? enc : m->enc;
}

void fz_macro_msg(struct fz_side *sd, const struct fz_op *op)
{
	size_t len = fz_size(op->len), alen = fz_aadlen(op->len2), off;
	int api = ((op->f1 >> 1) & 3) % 3, timing = (op->f1 >> 3) & 3;
	int aparts = op->f2 & 3, dparts = 1 + ((op->f2 >> 2) & 3), zero = op->f2 & 0x80;
	unsigned char *pt = fz_xmalloc(len), *in = fz_xmalloc(len), *out = fz_xmalloc(len + 64);
	unsigned char aad[FZ_MAX_AAD], tag[32];
	struct fz_model *m;
	int enc;

	enc = msg_reinit(sd, (op->f1 >> 5) & 7, !(op->f1 & 1), op->f3, (op->f3 >> 4) & 3);
	m = fz_model(sd);
	fz_fill(sd, P_DATA, sd->opno, pt, len);
	fz_fill(sd, P_AAD, sd->opno, aad, alen);
	memset(tag, 0, sizeof(tag));
	if (aparts == 0)
		alen = 0;
	if (enc) {
		memcpy(in, pt, len);
	} else {
		/* A valid ciphertext for what the model knows, unless told to corrupt it. */
		unsigned char all[4 * FZ_MAX_AAD + FZ_MAX_AAD];

		memcpy(all, m->aad, m->aadlen);
		memcpy(all + m->aadlen, aad, alen);
		fz_ref_seal(sd, m, m->iv, m->ivlen, all, m->aadlen + alen, pt, len, in, tag);
		if (op->f2 & 0x40) {
			if (len > 0)
				in[len / 2] ^= 0x01;
			else
				tag[3] ^= 0x01;
		}
	}
	memset(out, 0xee, len + 64);
	if (op->f2 & 0x10)
		memcpy(out, in, len);
	for (int i = 0; i < aparts; i++) {
		size_t a = alen * (size_t)i / (size_t)aparts,
		       b = alen * (size_t)(i + 1) / (size_t)aparts;

		fz_update(sd, "msg.aad", api, enc, NULL, aad + a, b - a);
		if (zero)
			fz_update(sd, "msg.aad(0)", api, enc, NULL, aad, 0);
	}
	if (m->aadlen + alen <= sizeof(m->aad)) {
		memcpy(m->aad + m->aadlen, aad, alen);
		m->aadlen += alen;
	}
	if (!enc && (timing == 0 || timing == 2))
		fz_ctrl(sd, "msg.SET_TAG(early)", EVP_CTRL_AEAD_SET_TAG, 16, tag, 0);
	for (int i = 0; i < dparts; i++) {
		size_t a = len * (size_t)i / (size_t)dparts,
		       b = len * (size_t)(i + 1) / (size_t)dparts;
		const unsigned char *src = op->f2 & 0x10 ? out + a : in + a;

		off = a;
		fz_update(sd, "msg.data", api, enc, out + off, src, b - a);
		if (zero)
			fz_update(sd, "msg.data(0)", api, enc, out + b, src, 0);
		if (i == 0 && (op->f2 & 0x20))
			other_slot_copy(sd);
	}
	if (!enc && (timing == 1 || timing == 2))
		fz_ctrl(sd, "msg.SET_TAG(late)", EVP_CTRL_AEAD_SET_TAG, 16, tag, 0);
	fz_final(sd, "msg.final", api, enc);
	fz_log(&sd->tr, "msg.output", 0, -1, out, len + 64);
	if (enc) {
		memset(tag, 0xcc, sizeof(tag));
		if (fz_ctrl(sd, "msg.GET_TAG", EVP_CTRL_AEAD_GET_TAG, 16, tag, sizeof(tag)) > 0)
			memcpy(fz_model(sd)->tag, tag, 16);
	}
	fz_model(sd)->aadlen = 0;
	free(pt);
	free(in);
	free(out);
}

void fz_macro_tls12(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	size_t len = fz_size(op->len) % (FZ_MAX_RECORD + 1), reclen = 8 + len + 16;
	int dec = op->f1 & 1, oneshot = op->f1 & 2, corrupt = (op->f1 >> 3) & 7;
	unsigned char *rec = fz_xmalloc(reclen), *out = fz_xmalloc(reclen + 64), *dst;
	unsigned char hdr[16], iv[12], aadv[13];
	int r, ol = -7;

	fz_fill(sd, P_JUNK, sd->opno, rec, reclen);
	fz_fill(sd, P_DATA, sd->opno, rec + 8, len);
	fz_tls_header(m, dec ? reclen : 8 + len, hdr);
	if (dec) {
		/* explicit IV || AES-GCM(key, fixed || explicit, header, payload) || tag */
		if (op->f2 & 1)
			memcpy(rec, m->last_eiv, 8);
		else
			fz_fill(sd, P_EIV, sd->opno, rec, 8);
		memcpy(iv, m->fixed, 4);
		memcpy(iv + 4, rec, 8);
		memcpy(aadv, hdr, 13);
		aadv[11] = (unsigned char)(len >> 8);
		aadv[12] = (unsigned char)len;
		fz_ref_seal(sd, m, iv, 12, aadv, 13, rec + 8, len, rec + 8, rec + 8 + len);
		if (corrupt == 1)
			rec[0] ^= 1;
		else if (corrupt == 2 && len > 0)
			rec[8 + len / 2] ^= 1;
		else if (corrupt == 3 || corrupt == 2)
			rec[8 + len] ^= 1;
		else if (corrupt == 4)
			hdr[8] ^= 1;
	}
	if (fz_avoid(sd, m->odd_tag, "taglen-after-engine-record")) {
		free(rec);
		free(out);
		return;
	}
	(void)fz_ctrl(sd, "tls12.TLS1_AAD", EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0);
	if (op->f1 & 4)
		fz_update(sd, "tls12.update(0)", 0, !dec, rec, rec, 0);
	memset(out, 0xee, reclen + 64);
	dst = op->f1 & 0x40 ? out : rec;
	m->tag_ok = 0;
	m->tls_used = 1;
	if (oneshot) {
		r = fz_evp_cipher(fz_ctx(sd), dst, rec, reclen);
		fz_log(&sd->tr, "tls12.EVP_Cipher", r, -1, NULL, 0);
	} else {
		r = EVP_CipherUpdate(fz_ctx(sd), dst, &ol, rec, (int)reclen);
		fz_log(&sd->tr, "tls12.CipherUpdate", r, ol, NULL, 0);
	}
	fz_log(&sd->tr, "tls12.record", 0, -1, rec, reclen);
	fz_log(&sd->tr, "tls12.out", 0, -1, out, reclen + 64);
	if (r > 0)
		m->aad_pending = 0;
	if (!dec && r > 0)
		memcpy(m->last_eiv, dst, 8);
	free(rec);
	free(out);
}

void fz_macro_tls13(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	size_t len = fz_size(op->len) % (FZ_MAX_RECORD + 2);
	int dec = op->f1 & 1, api = ((op->f1 >> 1) & 3) % 3, timing = (op->f1 >> 3) & 3;
	unsigned char *buf = fz_xmalloc(len + 64), iv[128], key[32], hdr[5], tag[32];
	uint64_t seq = m->seq13++;

	/* nonce = static IV XOR sequence number, set by an init per record */
	fz_fill(sd, P_SIV13, 0, iv, sizeof(iv));
	for (int i = 0; i < 8; i++)
		iv[4 + i] ^= (unsigned char)(seq >> (56 - 8 * i));
	fz_fill(sd, P_KEY, 0, key, sizeof(key));
	if (fz_init(sd, "tls13.init", NULL, op->f1 & 0x40 ? key : NULL, iv, !dec) > 0) {
		if (op->f1 & 0x40)
			memcpy(m->key, key, 32);
		fz_set_iv(m, iv, m->ivlen != 0 ? m->ivlen : 12);
		m->enc = !dec;
	}
	hdr[0] = 0x17;
	hdr[1] = 3;
	hdr[2] = 3;
	hdr[3] = (unsigned char)((len + 16) >> 8);
	hdr[4] = (unsigned char)(len + 16);
	memset(buf, 0xee, len + 64);
	fz_fill(sd, P_DATA, sd->opno, buf, len);
	memset(tag, 0, sizeof(tag));
	if (dec) {
		fz_ref_seal(sd, m, m->iv, m->ivlen, hdr, 5, buf, len, buf, tag);
		if (op->f1 & 0x20)
			tag[seq % 16] ^= 0x80;
	}
	if (dec && (timing == 0 || timing == 2))
		fz_ctrl(sd, "tls13.SET_TAG(early)", EVP_CTRL_AEAD_SET_TAG, 16, tag, 0);
	fz_update(sd, "tls13.aad", api, !dec, NULL, hdr, 5);
	fz_update(sd, "tls13.data", api, !dec, buf, buf, len);
	if (dec && (timing == 1 || timing == 2))
		fz_ctrl(sd, "tls13.SET_TAG(late)", EVP_CTRL_AEAD_SET_TAG, 16, tag, 0);
	fz_final(sd, "tls13.final", api, !dec);
	fz_log(&sd->tr, "tls13.output", 0, -1, buf, len + 64);
	if (!dec) {
		memset(tag, 0xcc, sizeof(tag));
		fz_ctrl(sd, "tls13.GET_TAG", EVP_CTRL_AEAD_GET_TAG, 16, tag, sizeof(tag));
	}
	m->aadlen = 0;
	free(buf);
}

void fz_macro_ssh(struct fz_side *sd, const struct fz_op *op)
{
	struct fz_model *m = fz_model(sd);
	size_t len = fz_size(op->len) & ~(size_t)15;
	int dec = op->f1 & 1;
	unsigned char *pkt = fz_xmalloc(4 + len + 64), lastiv[1], iv[12], tag[32];

	if (!(op->f1 & 4)) {
		/* OpenSSH: the IV for this packet, then the invocation counter moves on. */
		lastiv[0] = 0xcc;
		if (fz_ctrl(sd, "ssh.IV_GEN(1)", EVP_CTRL_GCM_IV_GEN, 1, lastiv, 1) > 0) {
			memcpy(iv, m->fixed, 4);
			memcpy(iv + 4, m->inv, 8);
			fz_set_iv(m, iv, 12);
			fz_inv_inc(m->inv);
		}
	}
	memset(pkt, 0xee, 4 + len + 64);
	pkt[0] = (unsigned char)(len >> 24);
	pkt[1] = (unsigned char)(len >> 16);
	pkt[2] = (unsigned char)(len >> 8);
	pkt[3] = (unsigned char)len;
	fz_fill(sd, P_DATA, sd->opno, pkt + 4, len);
	memset(tag, 0, sizeof(tag));
	if (dec) {
		fz_ref_seal(sd, m, m->iv, m->ivlen, pkt, 4, pkt + 4, len, pkt + 4, tag);
		if (op->f1 & 2)
			tag[0] ^= 0x40;
		fz_ctrl(sd, "ssh.SET_TAG", EVP_CTRL_AEAD_SET_TAG, 16, tag, 0);
	}
	fz_update(sd, "ssh.EVP_Cipher(aad)", 2, !dec, NULL, pkt, 4);
	fz_update(sd, "ssh.EVP_Cipher(packet)", 2, !dec, pkt + 4, pkt + 4, len);
	fz_final(sd, "ssh.EVP_Cipher(NULL,0)", 2, !dec);
	fz_log(&sd->tr, "ssh.packet", 0, -1, pkt, 4 + len + 64);
	if (!dec) {
		memset(tag, 0xcc, sizeof(tag));
		fz_ctrl(sd, "ssh.GET_TAG", EVP_CTRL_AEAD_GET_TAG, 16, tag, sizeof(tag));
	}
	m->aadlen = 0;
	free(pkt);
}
