// SPDX-License-Identifier: Apache-2.0
/*
 * Generic messages: one random shape (key, IV and tag lengths, AAD and
 * data split into updates, how the context is set up, which API, buffer
 * overlap, when the decrypting side sets its tag, what is corrupted, a
 * context copy, parameter reads) encrypted and then decrypted on both
 * implementations, and compared with the kernel where it can.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

enum setup {
	SETUP_DIRECT,	/* init(c,key,iv,enc): default IV length only */
	SETUP_CTRL,	/* init(c); SET_IVLEN; init(key,iv) */
	SETUP_SPLIT,	/* init(c); SET_IVLEN; init(key); init(iv) */
	SETUP_IVFIRST,	/* init(c); SET_IVLEN; init(iv); init(key) */
	SETUP_KEYFIRST, /* init(c,key); set_params(ivlen); init(iv) */
	SETUP_EX2,	/* init_ex2(c,key,{ivlen}); init_ex2(iv) */
	SETUP_N
};
static const char *const setup_names[SETUP_N] = { "init(c,key,iv)",
						  "init(c);SET_IVLEN;init(key,iv)",
						  "init(c);SET_IVLEN;init(key);init(iv)",
						  "init(c);SET_IVLEN;init(iv);init(key)",
						  "init(c,key);set_params(ivlen);init(iv)",
						  "init_ex2(c,key,{ivlen});init_ex2(iv)" };

enum bufmode { BUF_SEPARATE, BUF_INPLACE, BUF_BEHIND, BUF_N };
static const char *const buf_names[BUF_N] = { "separate", "in-place", "out-behind-in" };

enum tagwhen { TAG_FIRST, TAG_AFTER_AAD, TAG_LAST, TAG_PARAMS, TAG_N };
static const char *const tagwhen_names[TAG_N] = { "before-aad", "after-aad", "after-data",
						  "after-data-via-params" };

enum corrupt { C_NONE, C_TAG, C_AAD, C_DATA, C_TRUNC, C_N };
static const char *const corrupt_names[C_N] = { "none", "tag", "aad", "ciphertext",
						"truncated-tag" };

enum opkind { OP_AAD, OP_DATA, OP_SETTAG, OP_FINAL, OP_GETTAG, OP_PARAMS };

struct op {
	enum opkind kind;
	size_t off, len;
};

struct gshape {
	int kidx;
	unsigned char key[32];
	size_t ivlen;
	unsigned char iv[MAX_IV];
	size_t taglen;
	size_t aadlen, datalen;
	size_t aad_chunks[MAX_CHUNKS];
	int n_aad;
	size_t data_chunks[MAX_CHUNKS];
	int n_data;
	enum setup setup;
	enum api api;
	enum bufmode bufmode;
	size_t behind;
	enum tagwhen tag_when;
	enum corrupt corrupt;
	size_t corrupt_at;
	unsigned char corrupt_xor;
	size_t dec_taglen;
	int copy_permille; /* -1: no copy; else where in the op list */
	int interleave;
	unsigned int params_mask;
	int zero_updates;
};

static size_t build_ops(const struct gshape *s, int enc, struct op *ops)
{
	size_t n = 0, off;

	if (s->params_mask & 1)
		ops[n++] = (struct op){ OP_PARAMS, 0, 0 };
	if (!enc && s->tag_when == TAG_FIRST)
		ops[n++] = (struct op){ OP_SETTAG, 0, 0 };
	off = 0;
	for (int i = 0; i < s->n_aad; i++) {
		ops[n++] = (struct op){ OP_AAD, off, s->aad_chunks[i] };
		off += s->aad_chunks[i];
	}
	if (s->zero_updates)
		ops[n++] = (struct op){ OP_AAD, off, 0 };
	if (s->params_mask & 2)
		ops[n++] = (struct op){ OP_PARAMS, 0, 0 };
	if (!enc && s->tag_when == TAG_AFTER_AAD)
		ops[n++] = (struct op){ OP_SETTAG, 0, 0 };
	off = 0;
	for (int i = 0; i < s->n_data; i++) {
		ops[n++] = (struct op){ OP_DATA, off, s->data_chunks[i] };
		off += s->data_chunks[i];
		if (s->zero_updates && i == 0)
			ops[n++] = (struct op){ OP_DATA, off, 0 };
	}
	if (!enc && (s->tag_when == TAG_LAST || s->tag_when == TAG_PARAMS))
		ops[n++] = (struct op){ OP_SETTAG, 0, 0 };
	ops[n++] = (struct op){ OP_FINAL, 0, 0 };
	if (enc)
		ops[n++] = (struct op){ OP_GETTAG, 0, 0 };
	if (s->params_mask & 4)
		ops[n++] = (struct op){ OP_PARAMS, 0, 0 };
	return n;
}

static void gen_shape(struct rng *r, struct gshape *s, const struct gforce *f)
{
	memset(s, 0, sizeof(*s));
	s->kidx = (int)rng_below(r, 3);
	rng_fill(r, s->key, sizeof(s->key));
	if (f != NULL && f->engine) {
		s->ivlen = 12;
		s->taglen = 16;
		s->aadlen = rng_pct(r, 50) ? rng_range(r, 0, ENGINE_AAD_MAX)
					   : (rng_pct(r, 50) ? 13 : 5);
	} else {
		s->ivlen = pick_ivlen(r);
		s->taglen = pick_taglen(r);
		s->aadlen = pick_aadlen(r);
	}
	rng_fill(r, s->iv, sizeof(s->iv));
	s->datalen = f != NULL ? f->len : pick_data_len(r);
	if (f != NULL && f->engine) {
		s->n_aad = 1;
		s->aad_chunks[0] = s->aadlen;
		s->n_data = 1;
		s->data_chunks[0] = s->datalen;
	} else {
		s->n_aad = split_len(r, s->aadlen, s->aad_chunks);
		s->n_data = split_len(r, s->datalen, s->data_chunks);
	}
	s->setup = (enum setup)rng_below(r, SETUP_N);
	if (s->setup == SETUP_DIRECT && s->ivlen != 12)
		s->setup = SETUP_CTRL;
	{
		size_t p = rng_below(r, 100);

		s->api = p < 60 ? API_UPDATE : (p < 80 ? API_ENCDEC : API_CIPHER);
		p = rng_below(r, 100);
		s->bufmode = p < 55 ? BUF_SEPARATE : (p < 95 ? BUF_INPLACE : BUF_BEHIND);
		p = rng_below(r, 100);
		s->tag_when = p < 40   ? TAG_FIRST
			      : p < 55 ? TAG_AFTER_AAD
			      : p < 90 ? TAG_LAST
				       : TAG_PARAMS;
		p = rng_below(r, 100);
		s->corrupt = p < 58   ? C_NONE
			     : p < 72 ? C_TAG
			     : p < 80 ? C_AAD
			     : p < 94 ? C_DATA
				      : C_TRUNC;
	}
	if (f != NULL && f->engine) {
		s->api = API_UPDATE;
		if (s->bufmode == BUF_BEHIND)
			s->bufmode = BUF_INPLACE;
	}
	s->behind = rng_range(r, 1, 48);
	if (s->corrupt == C_AAD && s->aadlen == 0)
		s->corrupt = C_TAG;
	if (s->corrupt == C_DATA && s->datalen == 0)
		s->corrupt = C_TAG;
	if (s->corrupt == C_TRUNC && s->taglen < 2)
		s->corrupt = C_NONE;
	s->dec_taglen = s->taglen;
	switch (s->corrupt) {
	case C_TAG:
		s->corrupt_at = rng_below(r, s->taglen);
		break;
	case C_AAD:
		s->corrupt_at = rng_below(r, s->aadlen);
		break;
	case C_DATA:
		s->corrupt_at = rng_below(r, s->datalen);
		break;
	case C_TRUNC:
		s->dec_taglen = rng_range(r, 1, s->taglen - 1);
		break;
	default:
		break;
	}
	s->corrupt_xor = rng_nonzero_byte(r);
	s->copy_permille = rng_pct(r, 12) ? (int)rng_below(r, 1000) : -1;
	s->interleave = rng_pct(r, 50);
	s->params_mask = rng_pct(r, 25) ? (unsigned int)rng_range(r, 1, 7) : 0;
	s->zero_updates = rng_pct(r, 5);
	if (f != NULL && f->engine) {
		/* keep the forced engine shapes one-shot */
		s->copy_permille = -1;
		s->zero_updates = 0;
	}
}

static void describe_gshape(struct harness *h, const struct gshape *s)
{
	shape_add(h, "%s key=", cipher_names[s->kidx]);
	shape_hex(h, s->key, key_lens[s->kidx]);
	shape_add(h, " ivlen=%zu iv=", s->ivlen);
	shape_hex(h, s->iv, s->ivlen);
	shape_add(h, " taglen=%zu aad=%zu", s->taglen, s->aadlen);
	shape_chunks(h, s->aad_chunks, s->n_aad);
	shape_add(h, " data=%zu", s->datalen);
	shape_chunks(h, s->data_chunks, s->n_data);
	shape_add(h, " setup=%s api=%s buffers=%s", setup_names[s->setup], api_names[s->api],
		  buf_names[s->bufmode]);
	if (s->bufmode == BUF_BEHIND)
		shape_add(h, "(out=in-%zu)", s->behind);
	shape_add(h, " decrypt-tag=%s corrupt=%s", tagwhen_names[s->tag_when],
		  corrupt_names[s->corrupt]);
	if (s->corrupt == C_TRUNC)
		shape_add(h, "(%zu of %zu)", s->dec_taglen, s->taglen);
	else if (s->corrupt != C_NONE)
		shape_add(h, "(byte %zu ^0x%02x)", s->corrupt_at, s->corrupt_xor);
	if (s->copy_permille >= 0)
		shape_add(h, " ctx-copy@%d/1000%s", s->copy_permille,
			  s->interleave ? "(interleaved)" : "(sequential)");
	if (s->params_mask)
		shape_add(h, " param-reads=0x%x", s->params_mask);
	if (s->zero_updates)
		shape_add(h, " zero-length-updates");
}

static void gen_setup(const struct gshape *s, EVP_CIPHER_CTX *x, const EVP_CIPHER *c, int enc,
		      struct tr *t)
{
	int ivl = (int)s->ivlen;
	size_t v = s->ivlen;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &v);
	p[1] = OSSL_PARAM_construct_end();
	switch (s->setup) {
	case SETUP_DIRECT:
		L_init(t, "init(c,key,iv)", x, c, s->key, s->iv, enc);
		break;
	case SETUP_CTRL:
		L_init(t, "init(c)", x, c, NULL, NULL, enc);
		L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL, 0, 0);
		L_init(t, "init(key,iv)", x, NULL, s->key, s->iv, -1);
		break;
	case SETUP_SPLIT:
		L_init(t, "init(c)", x, c, NULL, NULL, enc);
		L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL, 0, 0);
		L_init(t, "init(key)", x, NULL, s->key, NULL, -1);
		L_init(t, "init(iv)", x, NULL, NULL, s->iv, -1);
		break;
	case SETUP_IVFIRST:
		L_init(t, "init(c)", x, c, NULL, NULL, enc);
		L_ctrl(t, "SET_IVLEN", x, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL, 0, 0);
		L_init(t, "init(iv)", x, NULL, NULL, s->iv, -1);
		L_init(t, "init(key)", x, NULL, s->key, NULL, -1);
		break;
	case SETUP_KEYFIRST:
		L_init(t, "init(c,key)", x, c, s->key, NULL, enc);
		L_set_params(t, "set_params(ivlen)", x, p);
		L_init(t, "init(iv)", x, NULL, NULL, s->iv, -1);
		break;
	case SETUP_EX2:
	default:
		tr_log(t, "init_ex2(c,key,{ivlen})", EVP_CipherInit_ex2(x, c, s->key, NULL, enc, p),
		       -1, NULL, 0, 0);
		tr_log(t, "init_ex2(iv)", EVP_CipherInit_ex2(x, NULL, NULL, s->iv, -1, NULL), -1,
		       NULL, 0, 0);
		break;
	}
}

/* One context working through the op list, with its own buffers. */
struct gstream {
	EVP_CIPHER_CTX *x;
	unsigned char *inmem, *outmem;
	unsigned char *in, *out;
	unsigned char *result;
	unsigned char tag[TAG_BUF];
	int ok;
	const char *pfx;
};

struct gctx {
	const struct gshape *s;
	int enc;
	const unsigned char *aad;
	unsigned char *tag; /* decrypt: tag to set */
	struct tr *t;
};

static void gstream_init(struct gstream *gs, const struct gshape *s, const unsigned char *input,
			 unsigned char *result, const char *pfx)
{
	size_t n = s->datalen;

	memset(gs, 0, sizeof(*gs));
	gs->ok = 1;
	gs->result = result;
	gs->pfx = pfx;
	switch (s->bufmode) {
	case BUF_INPLACE:
		gs->inmem = xmalloc(n);
		gs->in = gs->out = gs->inmem;
		break;
	case BUF_BEHIND:
		gs->inmem = xmalloc(n + s->behind);
		gs->out = gs->inmem;
		gs->in = gs->inmem + s->behind;
		break;
	default:
		gs->inmem = xmalloc(n);
		gs->outmem = xmalloc(n);
		gs->in = gs->inmem;
		gs->out = gs->outmem;
		break;
	}
	copy_bytes(gs->in, input, n);
}

static void gstream_free(struct gstream *gs)
{
	EVP_CIPHER_CTX_free(gs->x);
	free(gs->inmem);
	free(gs->outmem);
}

static void gen_op(const struct gctx *g, struct gstream *gs, const struct op *op)
{
	const struct gshape *s = g->s;
	char w[72];
	int ol;

	switch (op->kind) {
	case OP_AAD:
		snprintf(w, sizeof(w), "%saad[%zu+%zu]", gs->pfx, op->off, op->len);
		L_update(g->t, w, gs->x, s->api, g->enc, NULL, g->aad + op->off, op->len, 0, &ol);
		break;
	case OP_DATA:
		snprintf(w, sizeof(w), "%sdata[%zu+%zu]", gs->pfx, op->off, op->len);
		if (L_update(g->t, w, gs->x, s->api, g->enc, gs->out + op->off, gs->in + op->off,
			     op->len, !g->enc, &ol) &&
		    ol == (int)op->len)
			copy_bytes(gs->result + op->off, gs->out + op->off, op->len);
		else
			gs->ok = 0;
		break;
	case OP_SETTAG:
		if (s->tag_when == TAG_PARAMS) {
			OSSL_PARAM p[2];

			p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, g->tag,
								 s->dec_taglen);
			p[1] = OSSL_PARAM_construct_end();
			snprintf(w, sizeof(w), "%sset_params(tag,%zu)", gs->pfx, s->dec_taglen);
			L_set_params(g->t, w, gs->x, p);
		} else {
			snprintf(w, sizeof(w), "%sSET_TAG(%zu)", gs->pfx, s->dec_taglen);
			L_ctrl(g->t, w, gs->x, EVP_CTRL_AEAD_SET_TAG, (int)s->dec_taglen, g->tag, 0,
			       0);
		}
		break;
	case OP_FINAL:
		snprintf(w, sizeof(w), "%sfinal", gs->pfx);
		if (!L_final(g->t, w, gs->x, s->api, g->enc))
			gs->ok = 0;
		break;
	case OP_GETTAG:
		snprintf(w, sizeof(w), "%sGET_TAG(%zu)", gs->pfx, s->taglen);
		if (L_ctrl(g->t, w, gs->x, EVP_CTRL_AEAD_GET_TAG, (int)s->taglen, gs->tag,
			   s->taglen, 0) <= 0)
			gs->ok = 0;
		break;
	case OP_PARAMS:
	default:
		query_params(g->t, gs->x, gs->pfx);
		break;
	}
}

/*
 * Run one direction of a generic shape. Returns 1 if every data update,
 * final and (encrypt) the tag read succeeded. result receives the output.
 */
static int gen_run(struct harness *h, const struct gshape *s, const EVP_CIPHER *c, int enc,
		   const unsigned char *input, const unsigned char *aad, unsigned char *tag,
		   unsigned char *result, unsigned char *tagout, struct tr *t)
{
	struct op ops[MAX_OPS];
	size_t nops = build_ops(s, enc, ops);
	struct gctx g = { s, enc, aad, tag, t };
	struct gstream a, b;
	size_t k = SIZE_MAX;
	int copied = 0, ok;
	unsigned char *result2 = xmalloc(s->datalen);

	gstream_init(&a, s, input, result, "");
	a.x = EVP_CIPHER_CTX_new();
	gen_setup(s, a.x, c, enc, t);
	if (s->copy_permille >= 0)
		k = (size_t)s->copy_permille * (nops + 1) / 1000;
	for (size_t i = 0; i <= nops; i++) {
		if (i == k) {
			EVP_CIPHER_CTX *y = EVP_CIPHER_CTX_new();
			int r = EVP_CIPHER_CTX_copy(y, a.x);

			tr_log(t, "EVP_CIPHER_CTX_copy", r, -1, NULL, 0, 0);
			if (r > 0) {
				gstream_init(&b, s, input, result2, "copy.");
				b.x = y;
				a.pfx = "orig.";
				copied = 1;
				h->st.copies++;
			} else {
				EVP_CIPHER_CTX_free(y);
			}
		}
		if (i == nops)
			break;
		gen_op(&g, &a, &ops[i]);
		if (copied && s->interleave)
			gen_op(&g, &b, &ops[i]);
	}
	if (copied && !s->interleave)
		for (size_t i = k; i < nops; i++)
			gen_op(&g, &b, &ops[i]);
	if (copied && k == nops)
		query_params(t, b.x, "copy.");
	if (!enc) {
		/* decrypted bytes count only once authenticated */
		tr_log(t, "plaintext", a.ok, -1, result, s->datalen, !a.ok);
		if (copied)
			tr_log(t, "copy.plaintext", b.ok, -1, result2, s->datalen, !b.ok);
	}
	ok = a.ok;
	if (tagout != NULL)
		memcpy(tagout, a.tag, TAG_MAX);
	gstream_free(&a);
	if (copied)
		gstream_free(&b);
	free(result2);
	return ok;
}

void case_generic(struct harness *h, struct rng *r, const struct gforce *f)
{
	struct gshape s;
	unsigned char *pt, *aad, *daad, *ct_t, *ct_r, *cin, *pt_t, *pt_r;
	unsigned char tag_t[TAG_BUF], tag_r[TAG_BUF], dtag[TAG_BUF];
	int ok_r, untrusted;
	int overlap;

	gen_shape(r, &s, f);
	describe_gshape(h, &s);
	overlap = s.bufmode == BUF_BEHIND;
	pt = xmalloc(s.datalen);
	aad = xmalloc(s.aadlen);
	rng_fill(r, pt, s.datalen);
	rng_fill(r, aad, s.aadlen);
	ct_t = xmalloc(s.datalen);
	ct_r = xmalloc(s.datalen);
	pt_t = xmalloc(s.datalen);
	pt_r = xmalloc(s.datalen);
	memset(tag_t, 0, sizeof(tag_t));
	memset(tag_r, 0, sizeof(tag_r));
	for (size_t i = 0; i < N_BOUND; i++)
		if (boundaries[i] == s.datalen)
			h->st.bound_hits[i]++;

	/* encrypt on both */
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	gen_run(h, &s, h->test.c[s.kidx], 1, pt, aad, NULL, ct_t, tag_t, &h->ta);
	ok_r = gen_run(h, &s, h->ref.c[s.kidx], 1, pt, aad, NULL, ct_r, tag_r, &h->tb);
	compare_tr(h, "encrypt", &h->ta, h->test.label, &h->tb, h->ref.label);
	count_message(h, s.ivlen, s.taglen, s.aadlen, s.datalen, overlap);
	if (!ok_r)
		failf(h, "harness: %s could not encrypt this shape", h->ref.label);
	else if (s.ivlen == 12 && !overlap)
		kc_check_enc(h, "encrypt", s.kidx, s.key, s.iv, aad, s.aadlen, pt, s.datalen, ct_r,
			     tag_r, s.taglen);

	/* decrypt the reference ciphertext, possibly corrupted, on both */
	cin = xmemdup(ct_r, s.datalen);
	daad = xmemdup(aad, s.aadlen);
	memcpy(dtag, tag_r, sizeof(dtag));
	switch (s.corrupt) {
	case C_TAG:
		dtag[s.corrupt_at] ^= s.corrupt_xor;
		break;
	case C_AAD:
		daad[s.corrupt_at] ^= s.corrupt_xor;
		break;
	case C_DATA:
		cin[s.corrupt_at] ^= s.corrupt_xor;
		break;
	default:
		break;
	}
	untrusted = s.corrupt == C_TAG || s.corrupt == C_AAD || s.corrupt == C_DATA;
	if (untrusted)
		h->st.corrupted++;
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	gen_run(h, &s, h->test.c[s.kidx], 0, cin, daad, dtag, pt_t, NULL, &h->ta);
	ok_r = gen_run(h, &s, h->ref.c[s.kidx], 0, cin, daad, dtag, pt_r, NULL, &h->tb);
	compare_tr(h, "decrypt", &h->ta, h->test.label, &h->tb, h->ref.label);
	count_message(h, s.ivlen, s.taglen, s.aadlen, s.datalen, overlap);
	if (!untrusted && !ok_r)
		failf(h, "harness: %s rejected its own ciphertext", h->ref.label);
	else if (!untrusted && s.datalen != 0 && memcmp(pt_r, pt, s.datalen) != 0)
		failf(h, "harness: %s round trip changed the plaintext", h->ref.label);
	if (s.ivlen == 12 && !overlap && s.corrupt != C_TRUNC)
		kc_check_dec(h, "decrypt", s.kidx, s.key, s.iv, daad, s.aadlen, cin, s.datalen,
			     dtag, s.taglen, ok_r, pt_r);
	free(pt);
	free(aad);
	free(daad);
	free(ct_t);
	free(ct_r);
	free(cin);
	free(pt_t);
	free(pt_r);
}
