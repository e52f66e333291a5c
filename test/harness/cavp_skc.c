/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eip93-cavp, AES-CBC and AES-CTR (cavp.c has main): NIST's CAVP AES-CBC
 * response files (the known-answer files CBC{GFSbox,KeySbox,VarKey,VarTxt}
 * and the multi-block message files CBCMMT, 128/192/256) and RFC 3686's
 * AES-CTR vectors (aes-{128,192,256}-ctr.txt), written alike: [ENCRYPT] and
 * [DECRYPT] sections, COUNT, KEY, IV, PLAINTEXT, CIPHERTEXT.
 *
 * Whatever its section, every vector is run in both directions: the whole
 * text in one update, then, when it is longer than a block, one update per
 * 16-byte block (a chain of messages on one context: with the engine window
 * opened to 16 bytes each is an engine message of its own, the running IV
 * carried from one to the next).  The output must be the other text, and
 * the updated IV ("updated-iv") where the mode leaves it: CBC, the last
 * ciphertext block; CTR, the counter after the last block begun.  Padding
 * is off (the texts are whole blocks; CTR has none).
 */
#include "cavp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#define BLK 16

struct skc_vec {
	unsigned char key[32], iv[BLK], pt[CAVP_MAX_BIN], ct[CAVP_MAX_BIN];
	size_t keylen, ivlen, ptlen, ctlen;
	int decrypt; /* from a [DECRYPT] section */
	long count;
};

/* The IV the context must report after @len bytes from @iv. */
static void next_iv(int cbc, const struct skc_vec *v, unsigned char out[BLK])
{
	size_t blocks = (v->ptlen + BLK - 1) / BLK;

	if (cbc) {
		memcpy(out, v->ct + v->ctlen - BLK, BLK);
		return;
	}
	memcpy(out, v->iv, BLK);
	for (int i = BLK - 1; i >= 0 && blocks != 0; i--) {
		size_t s = out[i] + (blocks & 0xff);

		out[i] = (unsigned char)s;
		blocks = (blocks >> 8) + (s >> 8);
	}
}

/*
 * One direction, @step bytes an update (0: all at once).  Returns 1 when the
 * output and the updated IV are right; else prints why and returns 0.
 */
static int skc_op(const char *file, const struct skc_vec *v, int cbc, int enc, size_t step)
{
	static unsigned char out[CAVP_MAX_BIN + BLK];
	char name[16];
	const unsigned char *in = enc ? v->pt : v->ct, *want = enc ? v->ct : v->pt;
	unsigned char iv[BLK], want_iv[BLK];
	size_t n = v->ptlen, done = 0;
	EVP_CIPHER *c;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const char *why = "error";
	int len, ok = 0;

	snprintf(name, sizeof(name), "AES-%zu-%s", v->keylen * 8, cbc ? "CBC" : "CTR");
	c = cavp_cipher(name);
	if (c == NULL || ctx == NULL || !EVP_CipherInit_ex(ctx, c, NULL, v->key, v->iv, enc) ||
	    !EVP_CIPHER_CTX_set_padding(ctx, 0))
		goto done;
	for (size_t off = 0; off < n; off += step ? step : n) {
		size_t k = step && n - off > step ? step : n - off;

		if (!EVP_CipherUpdate(ctx, out + done, &len, in + off, (int)k))
			goto done;
		done += (size_t)len;
	}
	if (!EVP_CipherFinal_ex(ctx, out + done, &len))
		goto done;
	done += (size_t)len;
	why = "wrong output";
	if (done != n || memcmp(out, want, n) != 0)
		goto done;
	why = "wrong updated IV";
	next_iv(cbc, v, want_iv);
	if (!EVP_CIPHER_CTX_get_updated_iv(ctx, iv, sizeof(iv)) || memcmp(iv, want_iv, BLK) != 0)
		goto done;
	ok = 1;
done:
	if (!ok)
		fprintf(stderr, "FAIL: %s %s Count = %ld (key %zu, text %zu), %s, %s: %s\n", file,
			v->decrypt ? "[DECRYPT]" : "[ENCRYPT]", v->count, v->keylen, n,
			enc ? "encrypting" : "decrypting",
			step ? "one update per block" : "one update", why);
	EVP_CIPHER_CTX_free(ctx);
	ERR_clear_error();
	return ok;
}

static int run_vector(const char *file, const struct skc_vec *v, int cbc, struct cavp_totals *t)
{
	int ok = 1;

	t->vectors++;
	if (v->keylen == 0 || v->ivlen != BLK || v->ptlen == 0 || v->ptlen != v->ctlen ||
	    (cbc && v->ptlen % BLK != 0)) {
		fprintf(stderr, "FAIL: %s Count = %ld: incomplete vector\n", file, v->count);
		return 0;
	}
	/* Its own direction first, then the other; then block by block. */
	for (int pass = 0; pass < 2; pass++) {
		size_t step = pass ? BLK : 0;

		if (pass && v->ptlen <= BLK)
			break;
		t->ops += 2;
		ok &= skc_op(file, v, cbc, !v->decrypt, step);
		ok &= skc_op(file, v, cbc, v->decrypt, step);
	}
	return ok;
}

/* One line of a vector into @v: 1, or 0 for a value that is not hex or too long. */
static int set_field(const char *line, struct skc_vec *v)
{
	const char *eq = strchr(line, '=');
	long n = 0;

	if (eq == NULL)
		return 1; /* not a field */
	if (strncmp(line, "COUNT ", 6) == 0)
		v->count = strtol(eq + 1, NULL, 10);
	else if (strncmp(line, "KEY ", 4) == 0 &&
		 (n = cavp_hex(eq + 1, v->key, sizeof(v->key))) >= 0)
		v->keylen = (size_t)n;
	else if (strncmp(line, "IV ", 3) == 0 && (n = cavp_hex(eq + 1, v->iv, sizeof(v->iv))) >= 0)
		v->ivlen = (size_t)n;
	else if (strncmp(line, "PLAINTEXT ", 10) == 0 &&
		 (n = cavp_hex(eq + 1, v->pt, sizeof(v->pt))) >= 0)
		v->ptlen = (size_t)n;
	else if (strncmp(line, "CIPHERTEXT ", 11) == 0 &&
		 (n = cavp_hex(eq + 1, v->ct, sizeof(v->ct))) >= 0)
		v->ctlen = (size_t)n;
	return n >= 0;
}

int cavp_skc_file(const char *file, int cbc, struct cavp_totals *all)
{
	FILE *f = fopen(file, "r");
	static char line[16384];
	static struct skc_vec v;
	struct cavp_totals t = { 0, 0, 0, 0 };
	int in_vec = 0, decrypt = 0, got;
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
			if (in_vec && !run_vector(file, &v, cbc, &t))
				t.errors++;
			in_vec = 0;
			if (got == 0)
				break;
			if (line[0] == '[')
				decrypt = strcmp(line, "[DECRYPT]") == 0;
			continue;
		}
		if (line[0] == '#')
			continue;
		if (strncmp(line, "COUNT ", 6) == 0) {
			if (in_vec && !run_vector(file, &v, cbc, &t))
				t.errors++;
			memset(&v, 0, sizeof(v));
			v.decrypt = decrypt;
			in_vec = 1;
		}
		if (in_vec && !set_field(line, &v)) {
			fprintf(stderr, "eip93-cavp: %s:%ld: bad value\n", file, lineno);
			t.errors++;
			break;
		}
	}
	fclose(f);
	printf("%s: %ld vectors (AES-%s), %ld operations, %ld failed\n", file, t.vectors,
	       cbc ? "CBC" : "CTR", t.ops, t.errors);
	all->vectors += t.vectors;
	all->ops += t.ops;
	all->errors += t.errors;
	return t.errors == 0 && t.vectors > 0;
}
