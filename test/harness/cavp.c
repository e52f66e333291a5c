/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eip93-cavp: run NIST CAVP response files through the ciphers that a
 * property query selects (default "provider=eip93": the provider under
 * test, and nothing else):
 *
 *   AES-GCM  gcmEncryptExtIV*.rsp, gcmDecrypt*.rsp (here)
 *   AES-CBC  CBC{GFSbox,KeySbox,VarKey,VarTxt,MMT}*.rsp (cavp_skc.c)
 *   AES-CTR  aes-{128,192,256}-ctr.txt, RFC 3686's vectors in the same
 *            format (cavp_skc.c)
 *
 * as Debian's python3-cryptography-vectors ships them; the mode is told by
 * the file's name.
 *
 *   eip93-cavp [--props QUERY] [--expect-provider NAME|-] [--min-engine N] FILE...
 *
 * GCM encrypt files: every vector is encrypted (ciphertext and the tag of
 * the section's length must match) and decrypted back.  Decrypt files: a
 * vector with PT is decrypted (plaintext must match) and encrypted; a FAIL
 * vector must be refused at EVP_DecryptFinal_ex and release no plaintext.
 * Every IV length of the files is used (EVP_CTRL_AEAD_SET_IVLEN), every tag
 * length.  Prints one summary line per file and a total, and, when the
 * ciphers came from eip93, its engine-message counter ("eip93 engine
 * messages: N"); exit status 0 only when every vector passed, at least one
 * vector was run and (--min-engine) eip93 counted at least N engine
 * messages.
 */
#include "cavp.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define MAX_BIN CAVP_MAX_BIN
#define MAX_CIPHERS 9

struct vec {
	unsigned char key[32], iv[MAX_BIN], pt[MAX_BIN], ct[MAX_BIN], aad[MAX_BIN], tag[16];
	size_t keylen, ivlen, ptlen, ctlen, aadlen, taglen;
	int have_pt, fail;
	long count;
};

static const char *props = "provider=eip93";
static const char *expect_provider = "eip93";
static EVP_CIPHER *ciphers[MAX_CIPHERS];
static size_t nciphers;

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

long cavp_hex(const char *s, unsigned char *out, size_t cap)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	while (s[0] != '\0' && s[0] != '\r' && s[0] != '\n' && s[0] != ' ') {
		int hi = hexval((unsigned char)s[0]), lo;

		if (hi < 0 || s[1] == '\0')
			return -1;
		lo = hexval((unsigned char)s[1]);
		if (lo < 0 || n >= cap)
			return -1;
		out[n++] = (unsigned char)(hi << 4 | lo);
		s += 2;
	}
	return (long)n;
}

EVP_CIPHER *cavp_cipher(const char *name)
{
	EVP_CIPHER *c;
	const char *pname;

	for (size_t i = 0; i < nciphers; i++)
		if (EVP_CIPHER_is_a(ciphers[i], name))
			return ciphers[i];
	if (nciphers == MAX_CIPHERS)
		return NULL;
	c = EVP_CIPHER_fetch(NULL, name, props);
	if (c == NULL) {
		fprintf(stderr, "eip93-cavp: cannot fetch %s with \"%s\"\n", name, props);
		ERR_print_errors_fp(stderr);
		return NULL;
	}
	pname = OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c));
	if (expect_provider != NULL && strcmp(pname, expect_provider) != 0) {
		fprintf(stderr, "eip93-cavp: %s comes from provider %s, not %s\n", name, pname,
			expect_provider);
		EVP_CIPHER_free(c);
		return NULL;
	}
	ciphers[nciphers++] = c;
	return c;
}

static EVP_CIPHER *cipher_for(size_t keylen)
{
	static const char *const names[3] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };
	int i = keylen == 16 ? 0 : keylen == 24 ? 1 : keylen == 32 ? 2 : -1;

	return i < 0 ? NULL : cavp_cipher(names[i]);
}

int cavp_line(FILE *f, char *line, size_t cap, const char *file, long *lineno)
{
	size_t l;

	if (fgets(line, (int)cap, f) == NULL)
		return 0;
	(*lineno)++;
	l = strlen(line);
	if (l == cap - 1 && line[l - 1] != '\n') {
		fprintf(stderr, "eip93-cavp: %s:%ld: line too long\n", file, *lineno);
		return -1;
	}
	while (l > 0 && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' '))
		line[--l] = '\0';
	return 1;
}

/*
 * One operation.  enc: in = plaintext, out = ciphertext, tag written.
 * !enc: in = ciphertext, tag read; returns 0 on an authentication failure.
 * Returns 1 on success, -1 on an unexpected error.
 */
static int gcm(int enc, const struct vec *v, const unsigned char *in, size_t inlen,
	       unsigned char *out, unsigned char *tag)
{
	EVP_CIPHER *c = cipher_for(v->keylen);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char fin[16];
	int len = 0, flen = 0, rc = -1;

	if (c == NULL || ctx == NULL)
		goto done;
	if (!EVP_CipherInit_ex(ctx, c, NULL, NULL, NULL, enc) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)v->ivlen, NULL) ||
	    !EVP_CipherInit_ex(ctx, NULL, NULL, v->key, v->iv, enc))
		goto done;
	if (!enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)v->taglen, tag))
		goto done;
	if (v->aadlen && !EVP_CipherUpdate(ctx, NULL, &len, v->aad, (int)v->aadlen))
		goto done;
	if (inlen && !EVP_CipherUpdate(ctx, out, &len, in, (int)inlen))
		goto done;
	if (inlen && (size_t)len != inlen)
		goto done;
	if (!EVP_CipherFinal_ex(ctx, fin, &flen)) {
		rc = enc ? -1 : 0;
		goto done;
	}
	if (flen != 0)
		goto done;
	if (enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)v->taglen, tag))
		goto done;
	rc = 1;
done:
	EVP_CIPHER_CTX_free(ctx);
	if (rc < 0)
		ERR_clear_error();
	return rc;
}

static void report(const char *file, const struct vec *v, const char *what)
{
	fprintf(stderr, "FAIL: %s Count = %ld (key %zu, iv %zu, aad %zu, text %zu, tag %zu): %s\n",
		file, v->count, v->keylen, v->ivlen, v->aadlen, v->have_pt ? v->ptlen : v->ctlen,
		v->taglen, what);
}

static int run_vector(const char *file, const struct vec *v, struct cavp_totals *t)
{
	static unsigned char out[MAX_BIN], tag[16];
	int rc;

	t->vectors++;
	if (v->fail) {
		/* Decrypt file, FAIL: the tag must be refused. */
		t->fail_vectors++;
		memcpy(tag, v->tag, v->taglen);
		t->ops++;
		rc = gcm(0, v, v->ct, v->ctlen, out, tag);
		if (rc != 0) {
			report(file, v, rc > 0 ? "a FAIL vector was accepted" : "error");
			return 0;
		}
		return 1;
	}
	if (!v->have_pt || v->ctlen != v->ptlen) {
		report(file, v, "incomplete vector");
		return 0;
	}
	/* Encrypt: ciphertext and tag. */
	t->ops++;
	rc = gcm(1, v, v->pt, v->ptlen, out, tag);
	if (rc != 1 || memcmp(out, v->ct, v->ctlen) != 0 || memcmp(tag, v->tag, v->taglen) != 0) {
		report(file, v,
		       rc != 1 ? "encryption error" : "encryption: wrong ciphertext or tag");
		return 0;
	}
	/* Decrypt: plaintext. */
	memcpy(tag, v->tag, v->taglen);
	t->ops++;
	rc = gcm(0, v, v->ct, v->ctlen, out, tag);
	if (rc != 1 || memcmp(out, v->pt, v->ptlen) != 0) {
		report(file, v,
		       rc == 0 ? "decryption: tag refused" : "decryption: wrong plaintext");
		return 0;
	}
	return 1;
}

static int set_field(const char *file, long lineno, const char *line, struct vec *v)
{
	const char *eq = strchr(line, '=');
	long n;

	if (strcmp(line, "FAIL") == 0) {
		v->fail = 1;
		return 1;
	}
	if (eq == NULL)
		return 1; /* not a field */
	if (strncmp(line, "Count", 5) == 0) {
		v->count = strtol(eq + 1, NULL, 10);
		return 1;
	}
#define FIELD(name, buf, lenvar, flag)                                                             \
	if (strncmp(line, name " ", sizeof(name)) == 0) {                                          \
		n = cavp_hex(eq + 1, buf, sizeof(buf));                                            \
		if (n < 0)                                                                         \
			goto bad;                                                                  \
		lenvar = (size_t)n;                                                                \
		flag;                                                                              \
		return 1;                                                                          \
	}
	FIELD("Key", v->key, v->keylen, (void)0)
	FIELD("IV", v->iv, v->ivlen, (void)0)
	FIELD("PT", v->pt, v->ptlen, v->have_pt = 1)
	FIELD("CT", v->ct, v->ctlen, (void)0)
	FIELD("AAD", v->aad, v->aadlen, (void)0)
	FIELD("Tag", v->tag, v->taglen, (void)0)
#undef FIELD
	return 1;
bad:
	fprintf(stderr, "eip93-cavp: %s:%ld: bad value\n", file, lineno);
	return 0;
}

static int gcm_file(const char *file, struct cavp_totals *all)
{
	FILE *f = fopen(file, "r");
	static char line[16384];
	static struct vec v;
	struct cavp_totals t = { 0, 0, 0, 0 };
	int in_vec = 0, got;
	long lineno = 0;

	if (f == NULL) {
		perror(file);
		return 0;
	}
	for (;;) {
		got = cavp_line(f, line, sizeof(line), file, &lineno);
		if (got < 0) {
			t.errors++;
			break;
		}
		if (got == 0 || line[0] == '\0' || line[0] == '[') {
			if (in_vec && !run_vector(file, &v, &t))
				t.errors++;
			in_vec = 0;
			if (got == 0)
				break;
			continue;
		}
		if (line[0] == '#')
			continue;
		if (strncmp(line, "Count", 5) == 0) {
			if (in_vec && !run_vector(file, &v, &t))
				t.errors++;
			memset(&v, 0, sizeof(v));
			in_vec = 1;
		}
		if (in_vec && !set_field(file, lineno, line, &v)) {
			t.errors++;
			break;
		}
	}
	fclose(f);
	printf("%s: %ld vectors (%ld FAIL vectors refused), %ld operations, %ld failed\n", file,
	       t.vectors, t.fail_vectors, t.ops, t.errors);
	all->vectors += t.vectors;
	all->ops += t.ops;
	all->fail_vectors += t.fail_vectors;
	all->errors += t.errors;
	return t.errors == 0 && t.vectors > 0;
}

/* The file's mode from its name: 'g' AES-GCM, 'b' AES-CBC, 'c' AES-CTR, 0 unknown. */
static int file_mode(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base != NULL ? base + 1 : file;
	if (strncmp(base, "gcm", 3) == 0)
		return 'g';
	if (strncmp(base, "CBC", 3) == 0)
		return 'b';
	if (strstr(base, "-ctr") != NULL)
		return 'c';
	return 0;
}

/* eip93's engine-message counter, from the provider of the ciphers fetched; -1: none of eip93. */
static long long engine_messages(void)
{
	for (size_t i = 0; i < nciphers; i++) {
		const OSSL_PROVIDER *p = EVP_CIPHER_get0_provider(ciphers[i]);
		uint64_t v = 0;
		OSSL_PARAM q[2];

		if (strcmp(OSSL_PROVIDER_get0_name(p), "eip93") != 0)
			continue;
		q[0] = OSSL_PARAM_construct_uint64("eip93-engine-messages", &v);
		q[1] = OSSL_PARAM_construct_end();
		return OSSL_PROVIDER_get_params(p, q) ? (long long)v : -1;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct cavp_totals all = { 0, 0, 0, 0 };
	long long min_engine = -1, em;
	int i = 1, ok = 1, mode;

	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		if (i + 1 >= argc)
			break;
		if (strcmp(argv[i], "--props") == 0) {
			props = argv[i + 1];
		} else if (strcmp(argv[i], "--expect-provider") == 0) {
			expect_provider = strcmp(argv[i + 1], "-") == 0 ? NULL : argv[i + 1];
		} else if (strcmp(argv[i], "--min-engine") == 0) {
			min_engine = strtoll(argv[i + 1], NULL, 10);
		} else {
			break;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: eip93-cavp [--props QUERY] [--expect-provider NAME|-] "
				"[--min-engine N] FILE...\n");
		return 2;
	}
	printf("eip93-cavp: %s; ciphers fetched with \"%s\"\n", OpenSSL_version(OPENSSL_VERSION),
	       props);
	for (; i < argc; i++) {
		mode = file_mode(argv[i]);
		if (mode == 'g') {
			ok &= gcm_file(argv[i], &all);
		} else if (mode != 0) {
			ok &= cavp_skc_file(argv[i], mode == 'b', &all);
		} else {
			fprintf(stderr, "eip93-cavp: %s: not a gcm*, CBC* or *-ctr* file\n",
				argv[i]);
			ok = 0;
		}
	}
	printf("eip93-cavp: total %ld vectors (%ld FAIL vectors), %ld operations, %ld failed\n",
	       all.vectors, all.fail_vectors, all.ops, all.errors);
	em = engine_messages();
	if (em >= 0)
		printf("eip93-cavp: eip93 engine messages: %lld\n", em);
	if (min_engine >= 0 && em < min_engine) {
		fprintf(stderr, "eip93-cavp: %lld eip93 engine messages, at least %lld required\n",
			em, min_engine);
		ok = 0;
	}
	for (size_t k = 0; k < nciphers; k++)
		EVP_CIPHER_free(ciphers[k]);
	return ok && all.errors == 0 && all.vectors > 0 ? 0 : 1;
}
