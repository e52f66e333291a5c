// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-pages-check: engine messages under a fault where the engine really
 * reads and writes (docs/design.md "Integrity: the buffers the engine
 * touches"), on this host: the fake engine (EIP93_TEST_FAKE) or the
 * user-space /dev/crypto (EIP93_TEST_CDEV_FAULT, LD_PRELOAD) supplies the
 * fault; the hooks build of eip93.so checks.
 *
 *   eip93-pages-check enc|dec AAD LEN IN_OFF OUT_OFF [inplace] [MESSAGES] [LABEL]
 *
 * One key; its first message passes the key check, then MESSAGES messages
 * (default 40) of LEN bytes with AAD bytes of AAD, the input IN_OFF bytes
 * into a page and the output OUT_OFF bytes into one (inplace: the output is
 * the input), each compared with the default provider's.  The output buffer
 * holds a canary before each call (in place: the input).  Counted: faults
 * caught (eip93-engine-faults), wrong messages released (payload or tag
 * differ, or an opening refused that software accepts), and plaintext or
 * stale 16-byte blocks released: sealing, a block equal to its plaintext or
 * to the canary; opening, a block equal to its ciphertext or to the canary.
 * Prints one line "pages: LABEL ... caught=C wrong=W plain_or_stale=S" and
 * exits 1 when W or S is not 0 or no fault was caught (every plan the
 * suite uses hits every message of these lengths).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define PAGE 4096
#define MAXLEN 32768
#define CANARY 0xc5

static OSSL_PROVIDER *prov;
/* The caller's buffers, page aligned, and the reference's. */
static unsigned char page_in[MAXLEN + 2 * PAGE] __attribute__((aligned(PAGE)));
static unsigned char page_out[MAXLEN + 2 * PAGE] __attribute__((aligned(PAGE)));
static unsigned char buf_pt[MAXLEN], buf_ct[MAXLEN], buf_ref[MAXLEN];

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_uint64(name, &v), OSSL_PARAM_END };

	return OSSL_PROVIDER_get_params(prov, q) ? v : 0;
}

/* One message; 1 when it went through. */
static int run(EVP_CIPHER_CTX *x, int enc, const unsigned char *iv, const unsigned char *aad,
	       size_t aadlen, const unsigned char *in, unsigned char *out, size_t len,
	       unsigned char *tag)
{
	int n = 0, m = 0, ok;

	ok = EVP_CipherInit_ex2(x, NULL, NULL, iv, enc, NULL);
	if (ok && aadlen != 0)
		ok = EVP_CipherUpdate(x, NULL, &n, aad, (int)aadlen);
	if (ok && !enc)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0;
	if (ok)
		ok = EVP_CipherUpdate(x, out, &n, in, (int)len);
	if (ok)
		ok = EVP_CipherFinal_ex(x, out + n, &m);
	if (ok && enc)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
	ERR_clear_error();
	return ok;
}

/* Released blocks of @got equal to the same block of @was or to the canary. */
static unsigned int suspicious(const unsigned char *got, const unsigned char *was, size_t len)
{
	unsigned char canary[16];
	unsigned int n = 0;

	memset(canary, CANARY, sizeof(canary));
	for (size_t i = 0; i + 16 <= len; i += 16)
		if (memcmp(got + i, was + i, 16) == 0 || memcmp(got + i, canary, 16) == 0)
			n++;
	return n;
}

int main(int argc, char **argv)
{
	unsigned char key[16], iv[12], aad[512], tag_d[16], tag_e[16];
	unsigned char *pin, *pout, *in, *out, *pt, *ct, *ref;
	size_t aadlen, len, in_off, out_off;
	unsigned long wrong = 0, odd = 0;
	int enc, inplace = 0, msgs = 40, argi = 6;
	const char *label = "-";
	EVP_CIPHER *ce, *cd;
	EVP_CIPHER_CTX *xe, *xd;

	if (argc < 6) {
		fprintf(stderr, "usage: eip93-pages-check enc|dec AAD LEN IN_OFF OUT_OFF [inplace] "
				"[MESSAGES] [LABEL]\n");
		return 2;
	}
	enc = strcmp(argv[1], "enc") == 0;
	aadlen = strtoul(argv[2], NULL, 10);
	len = strtoul(argv[3], NULL, 10);
	in_off = strtoul(argv[4], NULL, 10) % PAGE;
	out_off = strtoul(argv[5], NULL, 10) % PAGE;
	if (argc > argi && strcmp(argv[argi], "inplace") == 0) {
		inplace = 1;
		argi++;
	}
	if (argc > argi && strspn(argv[argi], "0123456789") == strlen(argv[argi]))
		msgs = atoi(argv[argi++]);
	if (argc > argi)
		label = argv[argi];
	if (aadlen > sizeof(aad) || len == 0 || len > MAXLEN || msgs <= 0) {
		fprintf(stderr, "eip93-pages-check: AAD <= 512, 0 < LEN <= 32768, MESSAGES > 0\n");
		return 2;
	}
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	if (prov == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL) {
		fprintf(stderr, "eip93-pages-check: providers did not load\n");
		return 2;
	}
	ce = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=eip93");
	cd = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=default");
	xe = EVP_CIPHER_CTX_new();
	xd = EVP_CIPHER_CTX_new();
	pin = page_in;
	pout = page_out;
	pt = buf_pt;
	ct = buf_ct;
	ref = buf_ref;
	if (ce == NULL || cd == NULL || xe == NULL || xd == NULL) {
		fprintf(stderr, "eip93-pages-check: the gate is closed or out of memory\n");
		return 2;
	}
	in = pin + in_off;
	out = inplace ? in : pout + out_off;
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)(0x31 * i + 7);
	for (size_t i = 0; i < sizeof(aad); i++)
		aad[i] = (unsigned char)(i ^ 0x5a);
	if (!EVP_CipherInit_ex2(xe, ce, key, NULL, enc, NULL) ||
	    !EVP_CipherInit_ex2(xd, cd, key, NULL, 1, NULL))
		return 2;
	for (int m = 0; m <= msgs; m++) {
		int ok;

		memset(iv, 0, sizeof(iv));
		iv[0] = (unsigned char)m;
		iv[11] = 1;
		for (size_t i = 0; i < len; i++)
			pt[i] = (unsigned char)(i * 7 + (size_t)m * 13 + (i >> 8));
		if (!run(xd, 1, iv, aad, aadlen, pt, ct, len, tag_d))
			return 2;
		memcpy(in, enc ? pt : ct, len);
		if (!inplace)
			memset(out, CANARY, len);
		memcpy(tag_e, tag_d, sizeof(tag_e));
		ok = run(xe, enc, iv, aad, aadlen, in, out, len, tag_e);
		if (m == 0)
			continue; /* the key check's message */
		memcpy(ref, enc ? ct : pt, len);
		if (!ok || memcmp(out, ref, len) != 0 || (enc && memcmp(tag_e, tag_d, 16) != 0)) {
			wrong++;
			if (ok)
				odd += suspicious(out, enc ? pt : ct, len);
		}
	}
	printf("pages: %s %s aad=%zu len=%zu in=+%zu out=%s%zu messages=%d caught=%llu wrong=%lu "
	       "plain_or_stale=%lu\n",
	       label, enc ? "enc" : "dec", aadlen, len, in_off, inplace ? "in-place+" : "+",
	       inplace ? in_off : out_off, msgs, (unsigned long long)counter("eip93-engine-faults"),
	       wrong, odd);
	return wrong != 0 || odd != 0 || counter("eip93-engine-faults") == 0 ? 1 : 0;
}
