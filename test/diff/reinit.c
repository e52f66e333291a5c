// SPDX-License-Identifier: Apache-2.0
/*
 * Re-initialisation scripts: one context through several messages with
 * the key, the IV, the cipher or the direction changed (or nothing, an
 * IV reuse attempt) by an init between them.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum rkind {
	R_IV,	   /* init(NULL,NULL,NULL,iv,-1) */
	R_KEY,	   /* init(NULL,NULL,key,NULL,-1) */
	R_BOTH,	   /* init(NULL,NULL,key,iv,-1) */
	R_CIPHER,  /* init(c,NULL,key,iv,enc): cipher given again */
	R_FLIP,	   /* init(NULL,NULL,NULL,iv-of-last-encryption,!enc) */
	R_SAMEKEY, /* init(NULL,NULL,same-key-bytes,iv,-1) */
	R_NOTHING, /* init(NULL,NULL,NULL,NULL,-1): an IV reuse attempt */
	R_N
};
static const char *const rkind_names[R_N] = { "iv-only",	"key-only",
					      "key+iv",		"cipher+key+iv",
					      "flip-direction", "same-key-bytes+iv",
					      "nothing" };

struct rstep {
	enum rkind kind;
	int keyi, ivi;
	size_t aadlen, len;
	int mid;    /* abandon the message half-way */
	int settag; /* decrypt: set the tag */
	int split;
	enum api api;
};

struct rshape {
	int kidx;
	size_t ivlen, taglen;
	unsigned char key[3][32];
	unsigned char iv[3][IV_BUF];
	int enc0;
	int nsteps;
	struct rstep st[MAX_STEPS];
};

static void reinit_run(struct harness *h, const struct rshape *s, const EVP_CIPHER *c,
		       unsigned char *const *pt, unsigned char *const *aad, struct tr *t, int count)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int enc = s->enc0, curkey = 0, curiv = 0, lastiv = 0;
	unsigned char *lastct = NULL;
	const unsigned char *lastaad = aad[0];
	size_t lastlen = 0, lastaadlen = 0;
	unsigned char lasttag[TAG_BUF];
	char w[72];

	memset(lasttag, 0, sizeof(lasttag));
	L_init(t, "init(c)", x, c, NULL, NULL, enc);
	L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, (int)s->ivlen, NULL, 0, 0);
	L_init(t, "init(key,iv)", x, NULL, s->key[0], s->iv[0], -1);
	for (int i = 0; i < s->nsteps; i++) {
		const struct rstep *st = &s->st[i];
		struct msg m;
		unsigned char *out;

		if (i > 0) {
			snprintf(w, sizeof(w), "step%d.reinit(%s)", i, rkind_names[st->kind]);
			switch (st->kind) {
			case R_IV:
				L_init(t, w, x, NULL, NULL, s->iv[st->ivi], -1);
				curiv = st->ivi;
				break;
			case R_KEY:
				L_init(t, w, x, NULL, s->key[st->keyi], NULL, -1);
				curkey = st->keyi;
				break;
			case R_BOTH:
				L_init(t, w, x, NULL, s->key[st->keyi], s->iv[st->ivi], -1);
				curkey = st->keyi;
				curiv = st->ivi;
				break;
			case R_CIPHER:
				L_init(t, w, x, c, s->key[st->keyi], s->iv[st->ivi], enc);
				curkey = st->keyi;
				curiv = st->ivi;
				break;
			case R_FLIP:
				enc = !enc;
				L_init(t, w, x, NULL, NULL, s->iv[lastiv], enc);
				curiv = lastiv;
				break;
			case R_SAMEKEY:
				L_init(t, w, x, NULL, s->key[curkey], s->iv[st->ivi], -1);
				curiv = st->ivi;
				break;
			case R_NOTHING:
			default:
				L_init(t, w, x, NULL, NULL, NULL, -1);
				break;
			}
		}
		memset(&m, 0, sizeof(m));
		m.taglen = s->taglen;
		m.api = st->api;
		m.split = st->split;
		m.stop_mid = st->mid;
		snprintf(w, sizeof(w), "step%d.%s.", i, enc ? "enc" : "dec");
		if (enc) {
			m.aad = aad[i];
			m.aadlen = st->aadlen;
			m.in = pt[i];
			m.len = st->len;
			out = xmalloc(m.len);
			m.out = out;
			m.tag = lasttag;
			msg_run(t, x, 1, &m, w);
			free(lastct);
			lastct = out;
			lastlen = m.len;
			lastaad = aad[i];
			lastaadlen = st->aadlen;
			lastiv = curiv;
		} else {
			/* decrypt what was encrypted last (or garbage if nothing was) */
			m.aad = lastct != NULL ? lastaad : aad[i];
			m.aadlen = lastct != NULL ? lastaadlen : st->aadlen;
			m.in = lastct != NULL ? lastct : pt[i];
			m.len = lastct != NULL ? lastlen : st->len;
			out = xmalloc(m.len);
			m.out = out;
			m.tag = lasttag;
			m.set_tag = st->settag;
			msg_run(t, x, 0, &m, w);
			free(out);
		}
		if (count)
			count_message(h, s->ivlen, s->taglen, m.aadlen, m.len, 0);
	}
	free(lastct);
	EVP_CIPHER_CTX_free(x);
}

void case_reinit(struct harness *h, struct rng *r)
{
	struct rshape s;
	unsigned char *pt[MAX_STEPS] = { 0 }, *aad[MAX_STEPS] = { 0 };

	memset(&s, 0, sizeof(s));
	s.kidx = (int)rng_below(r, 3);
	rng_fill(r, &s.key[0][0], sizeof(s.key));
	rng_fill(r, &s.iv[0][0], sizeof(s.iv));
	s.ivlen = rng_pct(r, 75) ? 12 : pick_ivlen(r);
	s.taglen = rng_pct(r, 80) ? 16 : rng_range(r, 4, 15);
	s.enc0 = rng_pct(r, 85);
	s.nsteps = (int)rng_range(r, 2, MAX_STEPS);
	shape_add(h, "%s ivlen=%zu taglen=%zu keys=", cipher_names[s.kidx], s.ivlen, s.taglen);
	for (int k = 0; k < 3; k++) {
		shape_hex(h, s.key[k], key_lens[s.kidx]);
		shape_add(h, k < 2 ? "," : " ivs=");
	}
	for (int k = 0; k < 3; k++) {
		shape_hex(h, s.iv[k], s.ivlen);
		shape_add(h, k < 2 ? "," : "");
	}
	shape_add(h, " start=%s steps:", s.enc0 ? "encrypt" : "decrypt");
	for (int i = 0; i < s.nsteps; i++) {
		struct rstep *st = &s.st[i];
		size_t p = rng_below(r, 100);

		st->kind = (enum rkind)rng_below(r, R_N);
		st->keyi = (int)rng_below(r, 3);
		st->ivi = (int)rng_below(r, 3);
		st->aadlen = rng_pct(r, 30) ? 13 : rng_range(r, 0, 64);
		st->len = pick_msg_len(r);
		st->mid = rng_pct(r, 12);
		st->settag = rng_pct(r, 90);
		st->split = rng_pct(r, 25);
		st->api = p < 70 ? API_UPDATE : (p < 85 ? API_ENCDEC : API_CIPHER);
		pt[i] = xmalloc(st->len);
		aad[i] = xmalloc(st->aadlen);
		rng_fill(r, pt[i], st->len);
		rng_fill(r, aad[i], st->aadlen);
		shape_add(h, " [%d: %s key%d iv%d aad=%zu data=%zu%s%s%s %s]", i,
			  i == 0 ? "initial" : rkind_names[st->kind], st->keyi, st->ivi, st->aadlen,
			  st->len, st->mid ? " abandoned" : "", st->settag ? "" : " no-tag",
			  st->split ? " split" : "", api_names[st->api]);
	}
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	reinit_run(h, &s, h->test.c[s.kidx], pt, aad, &h->ta, 1);
	reinit_run(h, &s, h->ref.c[s.kidx], pt, aad, &h->tb, 0);
	compare_tr(h, "re-init script", &h->ta, h->test.label, &h->tb, h->ref.label);
	for (int i = 0; i < s.nsteps; i++) {
		free(pt[i]);
		free(aad[i]);
	}
}
