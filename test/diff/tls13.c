// SPDX-License-Identifier: Apache-2.0
/*
 * TLS 1.3 records exactly as libssl 3.0 drives AES-GCM: a nonce per
 * record from the static IV and the sequence number, the tag set before
 * the data on the receiving side.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct t13shape {
	int kidx;
	unsigned char key[2][32];
	unsigned char siv[2][12];
	unsigned char seq[2][8];
	int setup; /* 0: libssl 3.0 order; 1: key with the cipher, then IVLEN */
	int nrec;
	struct rec rec[MAX_REC];
};

static void t13_setup(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
		      const unsigned char *key, int enc, int variant)
{
	char w[72];

	if (variant == 0) {
		/* ssl/tls13_enc.c derive_secret_key_and_iv() in 3.0 */
		snprintf(w, sizeof(w), "%sinit(c,enc)", pfx);
		L_init(t, w, x, c, NULL, NULL, enc);
		snprintf(w, sizeof(w), "%sSET_IVLEN(12)", pfx);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL, 0, 0);
		snprintf(w, sizeof(w), "%sinit(key,-1)", pfx);
		L_init(t, w, x, NULL, key, NULL, -1);
	} else {
		snprintf(w, sizeof(w), "%sinit(c,key,enc)", pfx);
		L_init(t, w, x, c, key, NULL, enc);
		snprintf(w, sizeof(w), "%sSET_IVLEN(12)", pfx);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL, 0, 0);
	}
}

static void t13_nonce(unsigned char *nonce, const unsigned char *siv, unsigned char *seq)
{
	memcpy(nonce, siv, 12);
	for (int k = 0; k < 8; k++)
		nonce[4 + k] ^= seq[k];
	seq_inc(seq);
}

static void t13_run(struct harness *h, const void *shape, const EVP_CIPHER *ca,
		    const EVP_CIPHER *cb, unsigned char *const *payload,
		    unsigned char *const *garbage, struct tr *t, int verify)
{
	const struct t13shape *s = shape;
	EVP_CIPHER_CTX *w[2], *rd[2];
	unsigned char wseq[2][8], rseq[2][8];
	char what[72];

	for (int d = 0; d < 2; d++) {
		w[d] = EVP_CIPHER_CTX_new();
		rd[d] = EVP_CIPHER_CTX_new();
		memcpy(wseq[d], s->seq[d], 8);
		memcpy(rseq[d], s->seq[d], 8);
		snprintf(what, sizeof(what), "ch%d.send.", d);
		t13_setup(t, what, w[d], d == 0 ? ca : cb, s->key[d], 1, s->setup);
		snprintf(what, sizeof(what), "ch%d.recv.", d);
		t13_setup(t, what, rd[d], d == 0 ? cb : ca, s->key[d], 0, s->setup);
	}
	for (int i = 0; i < s->nrec; i++) {
		const struct rec *rc = &s->rec[i];
		int d = rc->dir, lenu = -7, lenf = -7, ok;
		size_t L = rc->len;
		unsigned char *buf = xmalloc(L + TLS_TAG);
		unsigned char nonce[12], hdr[TLS13_HDR];
		int untrusted = rc->corrupt != RC_NONE;

		if (payload[i] == NULL || garbage[i] == NULL) {
			free(buf);
			continue;
		}
		copy_bytes(buf, payload[i], L);
		memcpy(buf + L, garbage[i], TLS_TAG);
		hdr[0] = 23;
		hdr[1] = 3;
		hdr[2] = 3;
		put_be16(hdr + 3, L + TLS_TAG);

		/* send (ssl/record/ssl3_record_tls13.c tls13_enc, sending) */
		t13_nonce(nonce, s->siv[d], wseq[d]);
		snprintf(what, sizeof(what), "r%d.ch%d.send.init(nonce)", i, d);
		ok = L_init(t, what, w[d], NULL, NULL, nonce, 1) > 0;
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.aad", i, d);
			ok = L_update(t, what, w[d], API_UPDATE, 1, NULL, hdr, TLS13_HDR, 0, &lenu);
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.data", i, d);
			ok = L_update(t, what, w[d], API_UPDATE, 1, buf, buf, L, 0, &lenu);
		}
		if (ok && lenu >= 0 && (size_t)lenu <= L) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.final", i, d);
			ok = EVP_CipherFinal_ex(w[d], buf + lenu, &lenf) > 0;
			tr_log(t, what, ok, lenf, NULL, 0, 0);
			ok = ok && (size_t)lenu + (size_t)lenf == L;
		} else {
			ok = 0;
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.send.GET_TAG", i, d);
			ok = L_ctrl(t, what, w[d], EVP_CTRL_AEAD_GET_TAG, TLS_TAG, buf + L, TLS_TAG,
				    0) > 0;
		}
		count_message(h, 12, TAG_MAX, TLS13_HDR, L, 0);
		h->st.tls13_records++;
		if (!ok) {
			free(buf);
			continue;
		}
		if (verify)
			kc_check_enc(h, "tls13 record", s->kidx, s->key[d], nonce, hdr, TLS13_HDR,
				     payload[i], L, buf, buf + L, TLS_TAG);

		/* the wire */
		if (rc->corrupt == RC_CT || rc->corrupt == RC_TAG)
			buf[rc->at] ^= rc->x;
		if (rc->corrupt == RC_HDR)
			hdr[rc->at] ^= rc->x;

		/* receive: tag set before the data, as libssl 3.0 does */
		t13_nonce(nonce, s->siv[d], rseq[d]);
		lenu = lenf = -7;
		snprintf(what, sizeof(what), "r%d.ch%d.recv.init(nonce)", i, d);
		ok = L_init(t, what, rd[d], NULL, NULL, nonce, 0) > 0;
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.SET_TAG", i, d);
			ok = L_ctrl(t, what, rd[d], EVP_CTRL_AEAD_SET_TAG, TLS_TAG, buf + L, 0, 0) >
			     0;
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.aad", i, d);
			ok = L_update(t, what, rd[d], API_UPDATE, 0, NULL, hdr, TLS13_HDR, 0,
				      &lenu);
		}
		if (ok) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.data", i, d);
			ok = L_update(t, what, rd[d], API_UPDATE, 0, buf, buf, L, 1, &lenu);
		}
		if (ok && lenu >= 0 && (size_t)lenu <= L) {
			snprintf(what, sizeof(what), "r%d.ch%d.recv.final", i, d);
			ok = EVP_CipherFinal_ex(rd[d], buf + lenu, &lenf) > 0;
			tr_log(t, what, ok, lenf, NULL, 0, 0);
			snprintf(what, sizeof(what), "r%d.ch%d.recv.plaintext", i, d);
			tr_log(t, what, ok, -1, buf, L, untrusted || !ok);
		}
		count_message(h, 12, TAG_MAX, TLS13_HDR, L, 0);
		free(buf);
	}
	for (int d = 0; d < 2; d++) {
		EVP_CIPHER_CTX_free(w[d]);
		EVP_CIPHER_CTX_free(rd[d]);
	}
}

void case_tls13(struct harness *h, struct rng *r, int forced)
{
	static const size_t forced_lens[] = { 1, 15, 16, 17, 4095, 4096, 4097, 16384, 16385 };
	struct t13shape s;
	unsigned char *payload[MAX_REC] = { 0 }, *garbage[MAX_REC] = { 0 };
	/*
	 * 1 in 6: a stream, MAX_REC records one way, mostly in the engine's
	 * window: the nonces keystream ahead predicts (the sequence from 0 or
	 * from a random number), mispredicted sizes and records in software.
	 */
	int stream = forced < 0 && rng_pct(r, 17), way = (int)rng_below(r, 2);

	memset(&s, 0, sizeof(s));
	s.kidx = rng_pct(r, 50) ? 0 : 2;
	rng_fill(r, &s.key[0][0], sizeof(s.key));
	rng_fill(r, &s.siv[0][0], sizeof(s.siv));
	rng_fill(r, &s.seq[0][0], sizeof(s.seq));
	for (int d = 0; d < 2; d++)
		if (rng_pct(r, 50))
			memset(s.seq[d], 0, 8);
	s.setup = rng_pct(r, 70) ? 0 : 1;
	s.nrec = forced >= 0 ? (int)(sizeof(forced_lens) / sizeof(forced_lens[0]))
		 : stream    ? MAX_REC
			     : (int)rng_range(r, 2, 6);
	for (int i = 0; i < s.nrec; i++) {
		struct rec *rc = &s.rec[i];

		rc->dir = forced >= 0 ? (i + forced) % 2 : stream ? way : (int)rng_below(r, 2);
		rc->len = forced >= 0		     ? forced_lens[i]
			  : stream && rng_pct(r, 80) ? rng_range(r, 4096, 16385)
						     : pick_tls_len(r) + 1;
		rc->corrupt = rng_pct(r, 80) ? RC_NONE : (enum rcorrupt)rng_range(r, RC_CT, RC_HDR);
		rc->x = rng_nonzero_byte(r);
		if (rc->corrupt == RC_CT)
			rc->at = rng_below(r, rc->len);
		else if (rc->corrupt == RC_TAG)
			rc->at = rc->len + rng_below(r, TLS_TAG);
		else
			rc->at = rng_below(r, TLS13_HDR);
		payload[i] = xmalloc(rc->len);
		garbage[i] = xmalloc(TLS_TAG);
		rng_fill(r, payload[i], rc->len);
		rng_fill(r, garbage[i], TLS_TAG);
		if (rc->corrupt != RC_NONE)
			h->st.corrupted++;
	}
	shape_add(h, "%s", cipher_names[s.kidx]);
	shape_pair(h, " keys=", s.key[0], s.key[1], key_lens[s.kidx]);
	shape_pair(h, " static-ivs=", s.siv[0], s.siv[1], 12);
	shape_pair(h, " seq=", s.seq[0], s.seq[1], 8);
	shape_add(h, " setup=%s records:",
		  s.setup == 0 ? "init(c);SET_IVLEN;init(key)" : "init(c,key);SET_IVLEN");
	for (int i = 0; i < s.nrec; i++) {
		const struct rec *rc = &s.rec[i];

		shape_add(h, " [%d: peer%d->peer%d %zu bytes", i, rc->dir + 1, 2 - rc->dir,
			  rc->len);
		if (rc->corrupt != RC_NONE)
			shape_add(h, " corrupt=%s@%zu^0x%02x", rcorrupt_names[rc->corrupt], rc->at,
				  rc->x);
		shape_add(h, "]");
	}
	records_compare(h, "tls1.3 records", t13_run, &s, s.kidx, payload, garbage, s.nrec);
}
