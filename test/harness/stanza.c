/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eip93-stanza: run vectors written in evp_test's stanza format through the
 * cipher that "provider=eip93" selects.  AES-GCM (the subset
 * test/data/vectors uses: Cipher, Key, IV, AAD, Tag, Plaintext, Ciphertext,
 * Operation = DECRYPT, Result = CIPHERFINAL_ERROR) in the order libssl uses
 * for TLS 1.3 records: key and IV init, (decrypting) the tag, AAD, one data
 * update, final.  AES-CTR and AES-CBC (Cipher, Key, IV, Plaintext,
 * Ciphertext, NextIV): key and IV init, padding off, one data update, final,
 * and the updated IV must be NextIV.
 *
 *   eip93-stanza [--ops FILE | --count] FILE...
 *
 * With --ops (the simulated driver's request counter), every direction is
 * also checked for its path: one the engine may take (AES-GCM: 12-byte IV,
 * payload 4096..32768, AAD <= 512, decryption with a 16-byte tag; AES-CTR,
 * AES-CBC: whole blocks, 4096..32768 bytes) must make driver requests and
 * count as an eip93 engine message (or, decrypting a corrupted tag, make
 * requests and fail); every other one must make none.  --count checks the
 * same with eip93's engine-message counter alone (the fake engine of a host
 * test has no driver).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

struct st {
	char cipher[32];
	unsigned char *key, *iv, *aad, *tag, *pt, *ct;
	unsigned char *next_iv;
	long keylen, ivlen, aadlen, taglen, ptlen, ctlen, next_ivlen;
	int decrypt_only, expect_fail, line;
};

static const char *ops_file;
static int count_only; /* --count: the engine-message counter, no driver */
static OSSL_PROVIDER *prov;

static long read_ops(void)
{
	FILE *f;
	long v = -1;

	if (ops_file == NULL)
		return 0;
	f = fopen(ops_file, "r");
	if (f != NULL) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static uint64_t engine_messages(void)
{
	uint64_t v = 0;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_uint64("eip93-engine-messages", &v);
	p[1] = OSSL_PARAM_construct_end();
	if (prov == NULL || !OSSL_PROVIDER_get_params(prov, p))
		return UINT64_MAX;
	return v;
}

static void st_free(struct st *s)
{
	OPENSSL_free(s->key);
	OPENSSL_free(s->iv);
	OPENSSL_free(s->aad);
	OPENSSL_free(s->tag);
	OPENSSL_free(s->pt);
	OPENSSL_free(s->ct);
	OPENSSL_free(s->next_iv);
	memset(s, 0, sizeof(*s));
}

static int set_bin(const char *v, unsigned char **out, long *len)
{
	OPENSSL_free(*out);
	*out = NULL;
	*len = 0;
	if (*v == '\0')
		return 1;
	*out = OPENSSL_hexstr2buf(v, len);
	return *out != NULL;
}

/* AES-GCM, one direction in libssl's order: 1 when the result is as expected. */
static int gcm_dir(const struct st *s, EVP_CIPHER_CTX *ctx, EVP_CIPHER *c, int enc,
		   unsigned char *out)
{
	const unsigned char *in = enc ? s->pt : s->ct;
	long inlen = enc ? s->ptlen : s->ctlen;
	unsigned char tag[16], fin[16];
	int len = 0, flen = 0, fin_ok;

	if (!EVP_CipherInit_ex(ctx, c, NULL, NULL, NULL, enc) ||
	    (s->ivlen != 12 &&
	     !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)s->ivlen, NULL)) ||
	    !EVP_CipherInit_ex(ctx, NULL, NULL, s->key, s->iv, enc))
		return 0;
	if (!enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)s->taglen, s->tag))
		return 0;
	if (s->aadlen > 0 && !EVP_CipherUpdate(ctx, NULL, &len, s->aad, (int)s->aadlen))
		return 0;
	if (!EVP_CipherUpdate(ctx, out, &len, in, (int)inlen) || len != inlen)
		return 0;
	fin_ok = EVP_CipherFinal_ex(ctx, fin, &flen);
	if (!enc && s->expect_fail)
		return !fin_ok;
	if (!fin_ok || flen != 0)
		return 0;
	if (enc)
		return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)s->taglen, tag) &&
		       memcmp(out, s->ct, (size_t)inlen) == 0 &&
		       memcmp(tag, s->tag, (size_t)s->taglen) == 0;
	return memcmp(out, s->pt, (size_t)inlen) == 0;
}

/* AES-CTR or AES-CBC, one direction, padding off: 1 when output and updated IV are right. */
static int skc_dir(const struct st *s, EVP_CIPHER_CTX *ctx, EVP_CIPHER *c, int enc,
		   unsigned char *out)
{
	const unsigned char *in = enc ? s->pt : s->ct, *want = enc ? s->ct : s->pt;
	long inlen = enc ? s->ptlen : s->ctlen;
	unsigned char fin[16], iv[16];
	int len = 0, flen = 0;

	if (!EVP_CipherInit_ex(ctx, c, NULL, s->key, s->iv, enc) ||
	    !EVP_CIPHER_CTX_set_padding(ctx, 0) ||
	    !EVP_CipherUpdate(ctx, out, &len, in, (int)inlen) || len != inlen ||
	    !EVP_CipherFinal_ex(ctx, fin, &flen) || flen != 0 ||
	    memcmp(out, want, (size_t)inlen) != 0)
		return 0;
	return s->next_iv == NULL ||
	       (s->next_ivlen == 16 && EVP_CIPHER_CTX_get_updated_iv(ctx, iv, sizeof(iv)) &&
		memcmp(iv, s->next_iv, 16) == 0);
}

/*
 * One direction; returns 1 when the result is as expected (*engine_ok:
 * and the path, when it is checked).
 */
static int run_dir(const struct st *s, EVP_CIPHER *c, int enc, int *engine_ok, long *engine_dirs)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	long inlen = enc ? s->ptlen : s->ctlen;
	unsigned char *out = OPENSSL_malloc(inlen > 0 ? (size_t)inlen : 1);
	int gcm = EVP_CIPHER_get_mode(c) == EVP_CIPH_GCM_MODE, ok = 0, checked;
	int eligible = gcm ? s->ivlen == 12 && inlen >= 4096 && inlen <= 32768 &&
				       s->aadlen <= 512 && (enc || s->taglen == 16)
			   : inlen % 16 == 0 && inlen >= 4096 && inlen <= 32768;
	long ops0 = read_ops(), dops;
	uint64_t em0 = engine_messages(), dem;

	if (ctx != NULL && out != NULL)
		ok = gcm ? gcm_dir(s, ctx, c, enc, out) : skc_dir(s, ctx, c, enc, out);
	ERR_clear_error();
	EVP_CIPHER_CTX_free(ctx);
	OPENSSL_free(out);
	dops = read_ops() - ops0;
	dem = engine_messages() - em0;
	checked = ops_file != NULL || count_only;
	if (!checked)
		*engine_ok = 1;
	else if (!eligible)
		*engine_ok = dops == 0 && dem == 0;
	else if (!enc && s->expect_fail)
		*engine_ok = count_only || dops > 0;
	else
		*engine_ok = (count_only || dops > 0) && dem == 1;
	*engine_dirs += checked && eligible && *engine_ok;
	if (!ok || !*engine_ok)
		fprintf(stderr,
			"FAIL: line %d %s %s, %ld-byte payload, %ld-byte AAD, %ld-byte tag%s: %s, "
			"%s engine: +%ld driver requests, +%llu engine messages\n",
			s->line, s->cipher, enc ? "encrypt" : "decrypt", inlen, s->aadlen,
			s->taglen, s->expect_fail ? " (corrupted)" : "",
			ok ? "result right" : "WRONG RESULT",
			eligible ? "eligible for the" : "not for the", dops,
			(unsigned long long)dem);
	return ok;
}

static int run_stanza(const struct st *s, long *n, long *bad, long *engine_dirs)
{
	EVP_CIPHER *c;
	int eng = 1, r;

	if (s->cipher[0] == '\0')
		return 1;
	(*n)++;
	c = EVP_CIPHER_fetch(NULL, s->cipher, "provider=eip93");
	if (c == NULL || s->ptlen != s->ctlen) {
		fprintf(stderr, "FAIL: line %d: cannot fetch %s from eip93 or bad stanza\n",
			s->line, s->cipher);
		EVP_CIPHER_free(c);
		(*bad)++;
		return 0;
	}
	if (!s->decrypt_only) {
		r = run_dir(s, c, 1, &eng, engine_dirs);
		*bad += !(r && eng);
	}
	r = run_dir(s, c, 0, &eng, engine_dirs);
	*bad += !(r && eng);
	EVP_CIPHER_free(c);
	return 1;
}

int main(int argc, char **argv)
{
	long n = 0, bad = 0, engine_dirs = 0;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "--ops") == 0) {
		ops_file = argv[2];
		i = 3;
	} else if (argc > 1 && strcmp(argv[1], "--count") == 0) {
		count_only = 1;
		i = 2;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: eip93-stanza [--ops FILE | --count] FILE...\n");
		return 2;
	}
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	if (prov == NULL || (ops_file != NULL && read_ops() < 0)) {
		fprintf(stderr, "eip93-stanza: cannot load eip93 or read %s\n",
			ops_file ? ops_file : "-");
		ERR_print_errors_fp(stderr);
		return 1;
	}
	printf("eip93-stanza: %s\n", OpenSSL_version(OPENSSL_VERSION));
	for (; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		char *line = NULL;
		size_t cap = 0;
		ssize_t got;
		struct st s;
		int lineno = 0, ok = 1;

		memset(&s, 0, sizeof(s));
		if (f == NULL) {
			perror(argv[i]);
			return 1;
		}
		while (ok && (got = getline(&line, &cap, f)) >= 0) {
			char *eq, *v;

			lineno++;
			while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
				line[--got] = '\0';
			if (got == 0) {
				run_stanza(&s, &n, &bad, &engine_dirs);
				st_free(&s);
				continue;
			}
			if (line[0] == '#')
				continue;
			eq = strstr(line, " =");
			if (eq == NULL) {
				ok = 0;
				break;
			}
			*eq = '\0';
			v = eq + 2;
			while (*v == ' ')
				v++;
			if (strcmp(line, "Cipher") == 0) {
				snprintf(s.cipher, sizeof(s.cipher), "%s", v);
				s.line = lineno;
			} else if (strcmp(line, "Key") == 0) {
				ok = set_bin(v, &s.key, &s.keylen);
			} else if (strcmp(line, "IV") == 0) {
				ok = set_bin(v, &s.iv, &s.ivlen);
			} else if (strcmp(line, "AAD") == 0) {
				ok = set_bin(v, &s.aad, &s.aadlen);
			} else if (strcmp(line, "Tag") == 0) {
				ok = set_bin(v, &s.tag, &s.taglen) && s.taglen <= 16;
			} else if (strcmp(line, "Plaintext") == 0) {
				ok = set_bin(v, &s.pt, &s.ptlen);
			} else if (strcmp(line, "Ciphertext") == 0) {
				ok = set_bin(v, &s.ct, &s.ctlen);
			} else if (strcmp(line, "NextIV") == 0) {
				ok = set_bin(v, &s.next_iv, &s.next_ivlen);
			} else if (strcmp(line, "Operation") == 0) {
				s.decrypt_only = strcmp(v, "DECRYPT") == 0;
				ok = s.decrypt_only;
			} else if (strcmp(line, "Result") == 0) {
				s.expect_fail = strcmp(v, "CIPHERFINAL_ERROR") == 0;
				ok = s.expect_fail;
			} else {
				ok = 0;
			}
		}
		if (ok)
			run_stanza(&s, &n, &bad, &engine_dirs);
		else {
			fprintf(stderr, "eip93-stanza: %s:%d: not understood\n", argv[i], lineno);
			bad++;
		}
		st_free(&s);
		free(line);
		fclose(f);
	}
	printf("eip93-stanza: %ld cases, %ld failed; %ld directions carried by the engine\n", n,
	       bad, engine_dirs);
	OSSL_PROVIDER_unload(prov);
	return bad == 0 && n > 0 ? 0 : 1;
}
