// SPDX-License-Identifier: Apache-2.0
/*
 * The static case: algorithm-level checks that need no message (getters,
 * names and aliases, gettable and settable parameter lists, every
 * algorithm and context parameter read by its description).
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

struct strv {
	char **v;
	size_t n, cap;
};

static void strv_add(struct strv *s, const char *x)
{
	size_t len = strlen(x) + 1;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n] = xmalloc(len);
	memcpy(s->v[s->n], x, len);
	s->n++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort, join with commas and log as the output of one step. */
static void strv_log(struct strv *s, struct tr *t, const char *what)
{
	size_t total = 1;
	char *out;

	if (s->n > 0)
		qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	for (size_t i = 0; i < s->n; i++)
		total += strlen(s->v[i]) + 1;
	out = xmalloc(total);
	out[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strcat(out, ",");
		strcat(out, s->v[i]);
	}
	tr_log(t, what, (long long)s->n, -1, out, strlen(out), 0);
	free(out);
}

static void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void name_cb(const char *name, void *arg)
{
	strv_add(arg, name);
}

static void log_param_list(struct tr *t, const char *what, const OSSL_PARAM *p)
{
	struct strv s = { 0 };
	char item[128];

	if (p == NULL) {
		tr_log(t, what, -1, -1, NULL, 0, 0);
		return;
	}
	for (; p->key != NULL; p++) {
		snprintf(item, sizeof(item), "%s:%u", p->key, p->data_type);
		strv_add(&s, item);
	}
	strv_log(&s, t, what);
	strv_free(&s);
}

/* Read one parameter described by desc into a buffer of its own type. */
static void log_described_get(struct tr *t, const char *pfx, const OSSL_PARAM *desc, EVP_CIPHER *c,
			      EVP_CIPHER_CTX *x)
{
	unsigned char buf[256];
	OSSL_PARAM q[2];
	char w[72];
	int r, is_ptr;

	memset(buf, 0, sizeof(buf));
	is_ptr = desc->data_type == OSSL_PARAM_UTF8_PTR || desc->data_type == OSSL_PARAM_OCTET_PTR;
	q[0].key = desc->key;
	q[0].data_type = desc->data_type;
	q[0].data = buf;
	q[0].data_size = is_ptr ? sizeof(void *)
			 : (desc->data_size != 0 && desc->data_size <= sizeof(buf))
				 ? desc->data_size
				 : sizeof(buf);
	q[0].return_size = OSSL_PARAM_UNMODIFIED;
	q[1] = OSSL_PARAM_construct_end();
	r = x != NULL ? EVP_CIPHER_CTX_get_params(x, q) : EVP_CIPHER_get_params(c, q);
	snprintf(w, sizeof(w), "%sget(%s)", pfx, desc->key);
	if (!OSSL_PARAM_modified(&q[0]))
		tr_log(t, w, r, -1, NULL, 0, 0);
	else if (is_ptr || q[0].return_size > q[0].data_size)
		tr_log(t, w, r, (long long)q[0].return_size, NULL, 0, 0);
	else
		tr_log(t, w, r, (long long)q[0].return_size, buf, q[0].return_size, 0);
}

/*
 * A cipher-level request that fails: an int the cipher answers, then a
 * parameter of the wrong type (utf8 where a size_t belongs).  Logged: the
 * return, whether and with what the int was answered (the default provider
 * answers in a fixed order and stops at the first failure), and the error
 * the call left (library and reason).
 */
static void log_failing_get(struct tr *t, const char *what, EVP_CIPHER *c, const char *ikey,
			    const char *bad)
{
	int v = -7, r;
	char s[8] = "x";
	unsigned long e;
	unsigned char out[2 * sizeof(int) + 2];
	OSSL_PARAM q[3];

	ERR_clear_error();
	q[0] = OSSL_PARAM_construct_int(ikey, &v);
	q[1] = OSSL_PARAM_construct_utf8_string(bad, s, sizeof(s));
	q[2] = OSSL_PARAM_construct_end();
	r = EVP_CIPHER_get_params(c, q);
	e = ERR_peek_last_error();
	memcpy(out, &v, sizeof(v));
	out[sizeof(v)] = (unsigned char)OSSL_PARAM_modified(&q[0]);
	out[sizeof(v) + 1] = (unsigned char)OSSL_PARAM_modified(&q[1]);
	tr_log(t, what, r, -1, out, sizeof(v) + 2, 0);
	tr_log(t, "  its error (library, reason)", (long long)ERR_GET_LIB(e),
	       (long long)ERR_GET_REASON(e), NULL, 0, 0);
	ERR_clear_error();
}

static void static_script(struct harness *h, const struct impl *im, int kidx, struct tr *t)
{
	EVP_CIPHER *c = im->c[kidx];
	struct strv names = { 0 };
	const OSSL_PARAM *p;
	EVP_CIPHER_CTX *x;
	unsigned char key[32], iv[12];
	char w[96];
	const char *nm;

	tr_log(t, "EVP_CIPHER_get_nid", EVP_CIPHER_get_nid(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_block_size", EVP_CIPHER_get_block_size(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_key_length", EVP_CIPHER_get_key_length(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_iv_length", EVP_CIPHER_get_iv_length(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_mode", EVP_CIPHER_get_mode(c), -1, NULL, 0, 0);
	tr_log(t, "EVP_CIPHER_get_flags", (long long)EVP_CIPHER_get_flags(c), -1, NULL, 0, 0);
	nm = EVP_CIPHER_get0_name(c);
	tr_log(t, "EVP_CIPHER_get0_name", nm != NULL, -1, nm, nm != NULL ? strlen(nm) : 0, 0);
	tr_log(t, "EVP_CIPHER_names_do_all", EVP_CIPHER_names_do_all(c, name_cb, &names), -1, NULL,
	       0, 0);
	strv_log(&names, t, "names");
	for (size_t i = 0; i < names.n; i++) {
		EVP_CIPHER *alias = EVP_CIPHER_fetch(h->lib, names.v[i], im->props);

		snprintf(w, sizeof(w), "fetch(%s)", names.v[i]);
		tr_log(t, w, alias != NULL, -1, NULL, 0, 0);
		EVP_CIPHER_free(alias);
	}
	strv_free(&names);

	log_param_list(t, "EVP_CIPHER_gettable_params", EVP_CIPHER_gettable_params(c));
	log_param_list(t, "EVP_CIPHER_gettable_ctx_params", EVP_CIPHER_gettable_ctx_params(c));
	log_param_list(t, "EVP_CIPHER_settable_ctx_params", EVP_CIPHER_settable_ctx_params(c));
	for (p = EVP_CIPHER_gettable_params(c); p != NULL && p->key != NULL; p++)
		log_described_get(t, "cipher.", p, c, NULL);
	log_failing_get(t, "cipher.get(aead, keylen as utf8)", c, OSSL_CIPHER_PARAM_AEAD,
			OSSL_CIPHER_PARAM_KEYLEN);
	log_failing_get(t, "cipher.get(cts, blocksize as utf8)", c, OSSL_CIPHER_PARAM_CTS,
			OSSL_CIPHER_PARAM_BLOCK_SIZE);

	memset(key, 0x42, sizeof(key));
	memset(iv, 0x24, sizeof(iv));
	x = EVP_CIPHER_CTX_new();
	L_init(t, "init(c,key,iv,enc)", x, c, key, iv, 1);
	log_param_list(t, "EVP_CIPHER_CTX_gettable_params", EVP_CIPHER_CTX_gettable_params(x));
	log_param_list(t, "EVP_CIPHER_CTX_settable_params", EVP_CIPHER_CTX_settable_params(x));
	for (p = EVP_CIPHER_CTX_gettable_params(x); p != NULL && p->key != NULL; p++)
		log_described_get(t, "ctx.", p, c, x);
	query_params(t, x, "ctx.");
	EVP_CIPHER_CTX_free(x);

	/* the same on a decrypting context with no key yet */
	x = EVP_CIPHER_CTX_new();
	L_init(t, "init(c,dec)", x, c, NULL, NULL, 0);
	for (p = EVP_CIPHER_CTX_gettable_params(x); p != NULL && p->key != NULL; p++)
		log_described_get(t, "dctx.", p, c, x);
	query_params(t, x, "dctx.");
	EVP_CIPHER_CTX_free(x);
}

void case_static(struct harness *h, int kidx)
{
	shape_add(h,
		  "%s: algorithm getters, names and aliases, gettable/settable "
		  "parameter lists, every algorithm and context parameter",
		  cipher_names[kidx]);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	static_script(h, &h->test, kidx, &h->ta);
	static_script(h, &h->ref, kidx, &h->tb);
	compare_tr(h, "static", &h->ta, h->test.label, &h->tb, h->ref.label);
}
