// SPDX-License-Identifier: Apache-2.0
/*
 * IV generation (a fixed part and invocation fields, IV_GEN and
 * SET_IV_INV) and TLS 1.2 records exactly as libssl 3.0 drives a
 * provided AES-GCM: two peers, both directions, records checked against
 * an independent seal and the kernel.
 */
#include "diff.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* IV generation and invocation fields (fixed || invocation)            */
/* ------------------------------------------------------------------ */

struct ivgshape {
	int kidx;
	unsigned char key[32];
	unsigned char fixed[12];
	int full; /* encrypting side sets the whole IV (deterministic) */
	int nmsg;
	size_t aadlen[MAX_STEPS], len[MAX_STEPS];
	int genarg[MAX_STEPS]; /* 8: explicit part only; -1: whole IV */
};

static void ivgen_run(struct harness *h, const struct ivgshape *s, const EVP_CIPHER *ce,
		      const EVP_CIPHER *cd, unsigned char *const *pt, unsigned char *const *aad,
		      struct tr *t)
{
	EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new();
	unsigned char ivb[16], tag[TAG_BUF];
	char w[72];

	L_init(t, "enc.init(c,key)", e, ce, s->key, NULL, 1);
	L_ctrl(t, s->full ? "enc.SET_IV_FIXED(-1)" : "enc.SET_IV_FIXED(4)", e,
	       EVP_CTRL_GCM_SET_IV_FIXED, s->full ? -1 : TLS_FIXED, (void *)s->fixed, 0, 0);
	L_init(t, "dec.init(c,key)", d, cd, s->key, NULL, 0);
	L_ctrl(t, "dec.SET_IV_FIXED(4)", d, EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed,
	       0, 0);
	for (int i = 0; i < s->nmsg; i++) {
		unsigned char *ct = xmalloc(s->len[i]), *back = xmalloc(s->len[i]);
		const unsigned char *explicit_iv;
		struct msg m;
		int gen_ok;

		memset(ivb, 0, sizeof(ivb));
		memset(tag, 0, sizeof(tag));
		snprintf(w, sizeof(w), "m%d.enc.IV_GEN(%d)", i, s->genarg[i]);
		gen_ok = L_ctrl(t, w, e, EVP_CTRL_GCM_IV_GEN, s->genarg[i], ivb,
				s->genarg[i] < 0 ? 12 : (size_t)s->genarg[i], !s->full) > 0;
		explicit_iv = s->genarg[i] < 0 ? ivb + 4 : ivb;
		memset(&m, 0, sizeof(m));
		m.aad = aad[i];
		m.aadlen = s->aadlen[i];
		m.in = pt[i];
		m.len = s->len[i];
		m.out = ct;
		m.tag = tag;
		m.taglen = TAG_MAX;
		m.untrusted = !s->full;
		m.api = API_UPDATE;
		snprintf(w, sizeof(w), "m%d.enc.", i);
		msg_run(t, e, 1, &m, w);
		if (gen_ok) {
			snprintf(w, sizeof(w), "m%d.dec.SET_IV_INV(8)", i);
			L_ctrl(t, w, d, EVP_CTRL_GCM_SET_IV_INV, TLS_EIV, (void *)explicit_iv, 0,
			       0);
			m.in = ct;
			m.out = back;
			m.set_tag = 1;
			m.untrusted = 0;
			snprintf(w, sizeof(w), "m%d.dec.", i);
			msg_run(t, d, 0, &m, w);
		}
		count_message(h, 12, TAG_MAX, s->aadlen[i], s->len[i], 0);
		free(ct);
		free(back);
	}
	EVP_CIPHER_CTX_free(e);
	EVP_CIPHER_CTX_free(d);
}

void case_ivgen(struct harness *h, struct rng *r)
{
	struct ivgshape s;
	unsigned char *pt[MAX_STEPS] = { 0 }, *aad[MAX_STEPS] = { 0 };

	memset(&s, 0, sizeof(s));
	s.kidx = (int)rng_below(r, 3);
	rng_fill(r, s.key, sizeof(s.key));
	rng_fill(r, s.fixed, sizeof(s.fixed));
	s.full = rng_pct(r, 50);
	s.nmsg = (int)rng_range(r, 1, 4);
	shape_add(h, "%s key=", cipher_names[s.kidx]);
	shape_hex(h, s.key, key_lens[s.kidx]);
	shape_add(h, " %s=", s.full ? "iv(SET_IV_FIXED -1)" : "fixed(4)");
	shape_hex(h, s.fixed, s.full ? 12 : 4);
	shape_add(h, " messages:");
	for (int i = 0; i < s.nmsg; i++) {
		s.aadlen[i] = rng_pct(r, 50) ? 13 : rng_range(r, 0, 64);
		s.len[i] = pick_msg_len(r);
		s.genarg[i] = rng_pct(r, 50) ? 8 : -1;
		pt[i] = xmalloc(s.len[i]);
		aad[i] = xmalloc(s.aadlen[i]);
		rng_fill(r, pt[i], s.len[i]);
		rng_fill(r, aad[i], s.aadlen[i]);
		shape_add(h, " [IV_GEN(%d) aad=%zu data=%zu]", s.genarg[i], s.aadlen[i], s.len[i]);
	}
	/* test encrypts, reference decrypts; then the other way round */
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	tr_reset(&h->tc);
	ivgen_run(h, &s, h->test.c[s.kidx], h->ref.c[s.kidx], pt, aad, &h->ta);
	ivgen_run(h, &s, h->ref.c[s.kidx], h->test.c[s.kidx], pt, aad, &h->tb);
	ivgen_run(h, &s, h->ref.c[s.kidx], h->ref.c[s.kidx], pt, aad, &h->tc);
	compare_tr(h, "ivgen (test encrypts)", &h->ta, h->test.label, &h->tc, h->ref.label);
	compare_tr(h, "ivgen (test decrypts)", &h->tb, h->test.label, &h->tc, h->ref.label);
	for (int i = 0; i < s.nmsg; i++) {
		free(pt[i]);
		free(aad[i]);
	}
}

/* ------------------------------------------------------------------ */
/* TLS 1.2 records, exactly as libssl 3.0 drives a provided AES-GCM     */
/* ------------------------------------------------------------------ */

const char *const rcorrupt_names[RC_N] = { "none", "explicit-iv", "ciphertext", "tag", "header" };

struct t12shape {
	int kidx;
	unsigned char key[2][32];
	unsigned char fixed[2][12];
	int full[2]; /* sender sets the whole IV with SET_IV_FIXED(-1) */
	unsigned char seq[2][8];
	unsigned char type;
	int nrec;
	struct rec rec[MAX_REC];
};

/*
 * Run the records between peer 1 (implementation ca) and peer 2 (cb).
 * Channel d carries records sent on key d: channel 0 from peer 1 to
 * peer 2, channel 1 the other way. verify: check every sealed record
 * against an independent computation (reference one-shot and kernel).
 */
static void t12_run(struct harness *h, const void *shape, const EVP_CIPHER *ca,
		    const EVP_CIPHER *cb, unsigned char *const *payload,
		    unsigned char *const *garbage, struct tr *t, int verify)
{
	const struct t12shape *s = shape;
	EVP_CIPHER_CTX *w[2], *rd[2];
	unsigned char wseq[2][8], rseq[2][8], prev_eiv[2][8];
	int have_prev[2] = { 0, 0 };
	char what[72];

	for (int d = 0; d < 2; d++) {
		const EVP_CIPHER *cs = d == 0 ? ca : cb, *cr = d == 0 ? cb : ca;

		w[d] = EVP_CIPHER_CTX_new();
		rd[d] = EVP_CIPHER_CTX_new();
		memcpy(wseq[d], s->seq[d], 8);
		memcpy(rseq[d], s->seq[d], 8);
		snprintf(what, sizeof(what), "ch%d.send.init(c,key,enc)", d);
		L_init(t, what, w[d], cs, s->key[d], NULL, 1);
		snprintf(what, sizeof(what), "ch%d.send.SET_IV_FIXED(%d)", d,
			 s->full[d] ? -1 : TLS_FIXED);
		L_ctrl(t, what, w[d], EVP_CTRL_GCM_SET_IV_FIXED, s->full[d] ? -1 : TLS_FIXED,
		       (void *)s->fixed[d], 0, 0);
		snprintf(what, sizeof(what), "ch%d.recv.init(c,key,dec)", d);
		L_init(t, what, rd[d], cr, s->key[d], NULL, 0);
		snprintf(what, sizeof(what), "ch%d.recv.SET_IV_FIXED(4)", d);
		L_ctrl(t, what, rd[d], EVP_CTRL_GCM_SET_IV_FIXED, TLS_FIXED, (void *)s->fixed[d], 0,
		       0);
	}
	for (int i = 0; i < s->nrec; i++) {
		const struct rec *rc = &s->rec[i];
		int d = rc->dir, ok, pad, ol;
		size_t L = rc->len, reclen = TLS_EIV + L + TLS_TAG;
		unsigned char *buf = xmalloc(reclen);
		unsigned char hdr[TLS12_AAD], rhdr[TLS12_AAD];
		int untrusted = rc->corrupt != RC_NONE;

		if (payload[i] == NULL || garbage[i] == NULL) {
			free(buf);
			continue;
		}
		memcpy(buf, garbage[i], TLS_EIV);
		copy_bytes(buf + TLS_EIV, payload[i], L);
		memcpy(buf + TLS_EIV + L, garbage[i] + TLS_EIV, TLS_TAG);

		/* sender: seq(8) type(1) version(2) length(2) = eiv + payload */
		memcpy(hdr, wseq[d], 8);
		seq_inc(wseq[d]);
		hdr[8] = s->type;
		hdr[9] = 3;
		hdr[10] = 3;
		put_be16(hdr + 11, TLS_EIV + L);
		snprintf(what, sizeof(what), "r%d.ch%d.send.TLS1_AAD", i, d);
		pad = L_ctrl(t, what, w[d], EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, hdr, 0, 0);
		if (pad <= 0 || pad > TLS_TAG) {
			free(buf);
			continue;
		}
		snprintf(what, sizeof(what), "r%d.ch%d.send.%s", i, d,
			 rc->send_oneshot ? "EVP_Cipher" : "CipherUpdate");
		if (rc->send_oneshot) {
			ol = EVP_Cipher(w[d], buf, buf, (unsigned int)reclen);
			tr_log(t, what, ol, -1, buf, ol > 0 ? reclen : 0, !s->full[d]);
			ok = ol > 0;
		} else {
			ol = -7;
			ok = EVP_CipherUpdate(w[d], buf, &ol, buf, (int)reclen);
			tr_log(t, what, ok, ol, buf, ok > 0 ? reclen : 0, !s->full[d]);
			ok = ok > 0;
		}
		count_message(h, 12, TAG_MAX, 13, L, 0);
		h->st.tls12_records++;
		if (!ok) {
			free(buf);
			continue;
		}
		if (!s->full[d]) {
			/* random start, so compare only how it advances */
			uint64_t cur = get_be64(buf);

			snprintf(what, sizeof(what), "r%d.ch%d.send.explicit-iv-step", i, d);
			tr_log(t, what, have_prev[d] ? (long long)(cur - get_be64(prev_eiv[d])) : 0,
			       -1, NULL, 0, 0);
			memcpy(prev_eiv[d], buf, 8);
			have_prev[d] = 1;
		}
		if (verify) {
			unsigned char iv[12], aadv[TLS12_AAD], tag[TAG_BUF];
			unsigned char *ct = xmalloc(L);

			memcpy(iv, s->fixed[d], TLS_FIXED);
			memcpy(iv + TLS_FIXED, buf, TLS_EIV);
			memcpy(aadv, hdr, TLS12_AAD);
			put_be16(aadv + 11, L);
			if (!ref_seal(h->ref.c[s->kidx], s->key[d], iv, 12, aadv, TLS12_AAD,
				      payload[i], L, ct, tag, TLS_TAG))
				failf(h, "harness: reference seal failed (record %d)", i);
			else if ((L != 0 && memcmp(ct, buf + TLS_EIV, L) != 0) ||
				 memcmp(tag, buf + TLS_EIV + L, TLS_TAG) != 0)
				failf(h,
				      "record %d (channel %d, %zu bytes) is not "
				      "AES-GCM(key, fixed||explicit, header, payload)",
				      i, d, L);
			kc_check_enc(h, "tls12 record", s->kidx, s->key[d], iv, aadv, TLS12_AAD,
				     payload[i], L, buf + TLS_EIV, buf + TLS_EIV + L, TLS_TAG);
			free(ct);
		}

		/* the wire */
		switch (rc->corrupt) {
		case RC_EIV:
		case RC_CT:
		case RC_TAG:
			buf[rc->at] ^= rc->x;
			break;
		default:
			break;
		}

		/* receiver: the header carries the whole record length */
		memcpy(rhdr, rseq[d], 8);
		seq_inc(rseq[d]);
		rhdr[8] = s->type;
		if (rc->corrupt == RC_HDR)
			rhdr[8] ^= rc->x;
		rhdr[9] = 3;
		rhdr[10] = 3;
		put_be16(rhdr + 11, reclen);
		snprintf(what, sizeof(what), "r%d.ch%d.recv.TLS1_AAD", i, d);
		pad = L_ctrl(t, what, rd[d], EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, rhdr, 0, 0);
		if (pad <= 0) {
			free(buf);
			continue;
		}
		snprintf(what, sizeof(what), "r%d.ch%d.recv.%s", i, d,
			 rc->recv_oneshot ? "EVP_Cipher" : "CipherUpdate");
		if (rc->recv_oneshot) {
			ol = EVP_Cipher(rd[d], buf, buf, (unsigned int)reclen);
			tr_log(t, what, ol, -1, buf + TLS_EIV, ol > 0 ? L : 0, untrusted);
		} else {
			ol = -7;
			ok = EVP_CipherUpdate(rd[d], buf, &ol, buf, (int)reclen);
			tr_log(t, what, ok, ol, buf + TLS_EIV,
			       (ok > 0 && ol >= 0 && (size_t)ol <= L) ? (size_t)ol : 0, untrusted);
		}
		count_message(h, 12, TAG_MAX, 13, L, 0);
		free(buf);
	}
	for (int d = 0; d < 2; d++) {
		EVP_CIPHER_CTX_free(w[d]);
		EVP_CIPHER_CTX_free(rd[d]);
	}
}

void case_tls12(struct harness *h, struct rng *r, int forced)
{
	static const size_t forced_lens[] = { 0, 1, 15, 16, 17, 4095, 4096, 4097, 16383, 16384 };
	struct t12shape s;
	unsigned char *payload[MAX_REC] = { 0 }, *garbage[MAX_REC] = { 0 };

	memset(&s, 0, sizeof(s));
	s.kidx = rng_pct(r, 80) ? (rng_pct(r, 50) ? 0 : 2) : 1;
	rng_fill(r, &s.key[0][0], sizeof(s.key));
	rng_fill(r, &s.fixed[0][0], sizeof(s.fixed));
	rng_fill(r, &s.seq[0][0], sizeof(s.seq));
	for (int d = 0; d < 2; d++) {
		s.full[d] = rng_pct(r, 20);
		if (rng_pct(r, 50))
			memset(s.seq[d], 0, 8);
	}
	s.type = rng_pct(r, 80) ? 23 : (unsigned char)rng_range(r, 20, 24);
	s.nrec = forced >= 0 ? (int)(sizeof(forced_lens) / sizeof(forced_lens[0]))
			     : (int)rng_range(r, 1, 5);
	for (int i = 0; i < s.nrec; i++) {
		struct rec *rc = &s.rec[i];
		size_t p;

		rc->dir = forced >= 0 ? (i + forced) % 2 : (int)rng_below(r, 2);
		rc->len = forced >= 0 ? forced_lens[i] : pick_tls_len(r);
		rc->send_oneshot = rng_pct(r, 25);
		rc->recv_oneshot = rng_pct(r, 25);
		p = rng_below(r, 100);
		rc->corrupt = p < 80 ? RC_NONE : (enum rcorrupt)rng_range(r, 1, 4);
		if (rc->corrupt == RC_CT && rc->len == 0)
			rc->corrupt = RC_TAG;
		rc->x = rng_nonzero_byte(r);
		switch (rc->corrupt) {
		case RC_EIV:
			rc->at = rng_below(r, TLS_EIV);
			break;
		case RC_CT:
			rc->at = TLS_EIV + rng_below(r, rc->len);
			break;
		case RC_TAG:
			rc->at = TLS_EIV + rc->len + rng_below(r, TLS_TAG);
			break;
		default:
			rc->at = 0;
			break;
		}
		payload[i] = xmalloc(rc->len);
		garbage[i] = xmalloc(TLS_EIV + TLS_TAG);
		rng_fill(r, payload[i], rc->len);
		rng_fill(r, garbage[i], TLS_EIV + TLS_TAG);
		if (rc->corrupt != RC_NONE)
			h->st.corrupted++;
	}
	shape_add(h, "%s", cipher_names[s.kidx]);
	shape_pair(h, " keys=", s.key[0], s.key[1], key_lens[s.kidx]);
	shape_add(h, " fixed=");
	shape_hex(h, s.fixed[0], s.full[0] ? 12 : 4);
	shape_add(h, "%s,", s.full[0] ? "(whole IV)" : "");
	shape_hex(h, s.fixed[1], s.full[1] ? 12 : 4);
	shape_add(h, "%s", s.full[1] ? "(whole IV)" : "");
	shape_pair(h, " seq=", s.seq[0], s.seq[1], 8);
	shape_add(h, " type=%u records:", s.type);
	for (int i = 0; i < s.nrec; i++) {
		const struct rec *rc = &s.rec[i];

		shape_add(h, " [%d: peer%d->peer%d %zu bytes send=%s recv=%s", i, rc->dir + 1,
			  2 - rc->dir, rc->len, rc->send_oneshot ? "EVP_Cipher" : "CipherUpdate",
			  rc->recv_oneshot ? "EVP_Cipher" : "CipherUpdate");
		if (rc->corrupt != RC_NONE)
			shape_add(h, " corrupt=%s@%zu^0x%02x", rcorrupt_names[rc->corrupt], rc->at,
				  rc->x);
		shape_add(h, "]");
	}
	records_compare(h, "tls1.2 records", t12_run, &s, s.kidx, payload, garbage, s.nrec);
}
