/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eip93-vecgen: generate the large AES-GCM vectors (test/data/vectors/) in
 * evp_test's stanza format, computed by the Linux kernel's generic GCM
 * through libkcapi -- an implementation independent of OpenSSL.  Runs in
 * the test guest (test/harness/vecgen.sh); the output is checked in.
 *
 * The kernel algorithm is gcm_base(ctr(aes-generic),ghash-generic) by
 * default: spelled out, so that the simulated EIP93 driver (which becomes
 * the kernel's "gcm(aes)" once loaded) can never be the reference.
 *
 *   eip93-vecgen [--alg NAME] ENGINE_FILE SOFTWARE_FILE
 *
 * Cases: payloads around the engine window (4095 4096 4097 16384 16400
 * 32767 32768 32769, and 65456 = 64 KiB less 64 bytes of AAD and a 16-byte
 * tag, the largest one-shot request libkcapi carries), AES-128/192/256,
 * AAD of 0, 5, 13 and 64 bytes, tags of 16 bytes (every size and key) and
 * 12 bytes (every size), and corrupted tags (decryption must fail).  Keys,
 * IVs and AAD come from a fixed-seed splitmix64 stream; plaintexts are a
 * cheap byte pattern (the vectors compress well; ciphertexts are random).
 *
 * ENGINE_FILE receives the cases of which at least one direction is
 * eligible for the engine (12-byte IV, payload 4096..32768, AAD <= 512,
 * decryption with a 16-byte tag); SOFTWARE_FILE those that no direction
 * sends to the engine.  Each file starts with a "# eip93-engine-directions:
 * N" line: how many (case, direction) pairs are eligible.
 */
#include "vecgen.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcapi.h>

#define DEFAULT_ALG "gcm_base(ctr(aes-generic),ghash-generic)"
#define IV_LEN 12
#define MAX_REQ 65536

static const size_t sizes[] = { 4095, 4096, 4097, 16384, 16400, 32767, 32768, 32769, 65456 };
static const size_t keylens[] = { 16, 24, 32 };
static const size_t aadlens[] = { 0, 5, 13, 64 };
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))
#define N_KEYS (sizeof(keylens) / sizeof(keylens[0]))
#define N_AADS (sizeof(aadlens) / sizeof(aadlens[0]))

struct vcase {
	size_t keylen, aadlen, len, taglen;
	int bad_tag; /* 0: good; else the tag byte index + 1 that is flipped */
	uint64_t seed;
};

/* The engine's eligibility rule (docs/contract.md "Eligible messages"), per direction. */
static int eligible(const struct vcase *c, int enc)
{
	if (c->len < 4096 || c->len > 32768 || c->aadlen > 512)
		return 0;
	return enc || c->taglen == 16;
}

/*
 * A kernel AEAD handle for alg with the case's key, tag length and AAD
 * length: 0, or a negative errno (*kh NULL then).
 */
static int kernel_open(struct kcapi_handle **kh, const char *alg, const struct vcase *c,
		       const unsigned char *key)
{
	int rc = kcapi_aead_init(kh, alg, 0);

	if (rc < 0) {
		*kh = NULL;
		return rc;
	}
	rc = kcapi_aead_setkey(*kh, key, (uint32_t)c->keylen);
	if (rc >= 0)
		rc = kcapi_aead_settaglen(*kh, (uint32_t)c->taglen);
	if (rc < 0) {
		kcapi_aead_destroy(*kh);
		*kh = NULL;
		return rc;
	}
	kcapi_aead_setassoclen(*kh, c->aadlen);
	return 0;
}

/* One request to the kernel: ilen bytes of ib, olen of ob; what kcapi returns, or a negative errno. */
static ssize_t kernel_req(const char *alg, const struct vcase *c, const unsigned char *key,
			  const unsigned char *iv, int enc, unsigned char *ib, size_t ilen,
			  unsigned char *ob, size_t olen)
{
	struct kcapi_handle *kh;
	ssize_t n = kernel_open(&kh, alg, c, key);

	if (n < 0)
		return n;
	if (enc)
		n = kcapi_aead_encrypt(kh, ib, ilen, iv, ob, olen, KCAPI_ACCESS_SENDMSG);
	else
		n = kcapi_aead_decrypt(kh, ib, ilen, iv, ob, olen, KCAPI_ACCESS_SENDMSG);
	kcapi_aead_destroy(kh);
	return n;
}

/* ct||tag of one encryption by the kernel; returns 0 or a negative errno. */
static int kernel_encrypt(const char *alg, const struct vcase *c, const unsigned char *key,
			  const unsigned char *iv, const unsigned char *aad,
			  const unsigned char *pt, unsigned char *ct, unsigned char *tag)
{
	size_t ilen = c->aadlen + c->len, olen = ilen + c->taglen;
	unsigned char *ib = xmalloc(ilen), *ob = xmalloc(olen);
	ssize_t n;
	int rc;

	if (c->aadlen)
		memcpy(ib, aad, c->aadlen);
	memcpy(ib + c->aadlen, pt, c->len);
	n = kernel_req(alg, c, key, iv, 1, ib, ilen, ob, olen);
	if (n < 0) {
		rc = (int)n;
	} else if ((size_t)n != olen) {
		rc = -EMSGSIZE;
	} else {
		memcpy(ct, ob + c->aadlen, c->len);
		memcpy(tag, ob + ilen, c->taglen);
		rc = 0;
	}
	free(ib);
	free(ob);
	return rc;
}

/* The kernel must also accept its own output back (and refuse a bad tag). */
static int kernel_decrypt(const char *alg, const struct vcase *c, const unsigned char *key,
			  const unsigned char *iv, const unsigned char *aad,
			  const unsigned char *ct, const unsigned char *tag,
			  const unsigned char *pt)
{
	size_t ilen = c->aadlen + c->len + c->taglen, olen = c->aadlen + c->len;
	unsigned char *ib = xmalloc(ilen), *ob = xmalloc(olen);
	ssize_t n;
	int rc;

	if (c->aadlen)
		memcpy(ib, aad, c->aadlen);
	memcpy(ib + c->aadlen, ct, c->len);
	memcpy(ib + c->aadlen + c->len, tag, c->taglen);
	n = kernel_req(alg, c, key, iv, 0, ib, ilen, ob, olen);
	if (c->bad_tag)
		rc = n == -EBADMSG ? 0 : -EPROTO;
	else if (n < 0)
		rc = (int)n;
	else
		rc = (size_t)n == olen && memcmp(ob + c->aadlen, pt, c->len) == 0 ? 0 : -EPROTO;
	free(ib);
	free(ob);
	return rc;
}

static int emit(FILE *f, const char *alg, const struct vcase *c)
{
	uint64_t s = c->seed;
	unsigned char key[32], iv[IV_LEN], aad[64], tag[16];
	unsigned char *pt = xmalloc(c->len), *ct = xmalloc(c->len);
	int rc;

	if (c->aadlen + c->len + c->taglen > MAX_REQ) {
		fprintf(stderr, "eip93-vecgen: case larger than one request\n");
		exit(2);
	}
	fill_random(&s, key, c->keylen);
	fill_random(&s, iv, IV_LEN);
	fill_random(&s, aad, c->aadlen);
	for (size_t i = 0; i < c->len; i++)
		pt[i] = (unsigned char)((i ^ (i >> 8) ^ c->seed) & 0xff);
	rc = kernel_encrypt(alg, c, key, iv, aad, pt, ct, tag);
	if (rc == 0 && c->bad_tag)
		tag[c->bad_tag - 1] ^= 0x01;
	if (rc == 0)
		rc = kernel_decrypt(alg, c, key, iv, aad, ct, tag, pt);
	if (rc != 0) {
		fprintf(stderr,
			"eip93-vecgen: kernel %s failed (key %zu, aad %zu, len %zu, tag %zu): %s\n",
			alg, c->keylen, c->aadlen, c->len, c->taglen, strerror(-rc));
		free(pt);
		free(ct);
		return -1;
	}
	fprintf(f, "# %zu-byte payload, %zu-byte AAD, %zu-byte tag%s\n", c->len, c->aadlen,
		c->taglen, c->bad_tag ? ", corrupted tag" : "");
	fprintf(f, "Cipher = aes-%zu-gcm\n", c->keylen * 8);
	put_hex(f, "Key", key, c->keylen);
	put_hex(f, "IV", iv, IV_LEN);
	put_hex(f, "AAD", aad, c->aadlen);
	put_hex(f, "Tag", tag, c->taglen);
	put_hex(f, "Plaintext", pt, c->len);
	put_hex(f, "Ciphertext", ct, c->len);
	if (c->bad_tag)
		fprintf(f, "Operation = DECRYPT\nResult = CIPHERFINAL_ERROR\n");
	fputc('\n', f);
	free(pt);
	free(ct);
	return 0;
}

int main(int argc, char **argv)
{
	const char *alg = DEFAULT_ALG;
	struct vcase cases[N_SIZES * N_KEYS + N_SIZES + 8];
	size_t n = 0, ndir[2] = { 0, 0 }, ncase[2] = { 0, 0 };
	FILE *out[2];
	int argi = 1;

	if (argc == 5 && strcmp(argv[1], "--alg") == 0) {
		alg = argv[2];
		argi = 3;
	}
	if (argc - argi != 2) {
		fprintf(stderr, "usage: eip93-vecgen [--alg NAME] ENGINE_FILE SOFTWARE_FILE\n");
		return 2;
	}
	/* Tag 16: every size x every key; the AAD length cycles so that every key
     * size meets every AAD length.  Tag 12: every size, key and AAD cycling. */
	for (size_t i = 0; i < N_SIZES; i++) {
		for (size_t j = 0; j < N_KEYS; j++)
			cases[n++] = (struct vcase){ keylens[j], aadlens[(i + j) % N_AADS],
						     sizes[i],	 16,
						     0,		 0 };
		cases[n++] = (struct vcase){
			keylens[i % N_KEYS], aadlens[(i + 2) % N_AADS], sizes[i], 12, 0, 0
		};
	}
	/* Corrupted tags: inside and outside the window, both tag lengths, the
     * flipped byte first or last. */
	cases[n++] = (struct vcase){ 16, 13, 4096, 16, 1, 0 };
	cases[n++] = (struct vcase){ 24, 0, 16384, 16, 16, 0 };
	cases[n++] = (struct vcase){ 32, 5, 32768, 16, 8, 0 };
	cases[n++] = (struct vcase){ 32, 64, 4095, 16, 16, 0 };
	cases[n++] = (struct vcase){ 16, 13, 32769, 16, 1, 0 };
	cases[n++] = (struct vcase){ 24, 5, 16400, 12, 12, 0 };
	cases[n++] = (struct vcase){ 16, 64, 65456, 16, 2, 0 };
	cases[n++] = (struct vcase){ 32, 0, 8192, 16, 16, 0 };
	for (size_t i = 0; i < n; i++)
		cases[i].seed = UINT64_C(0xe1b93) * (i + 1);

	for (int k = 0; k < 2; k++) {
		out[k] = fopen(argv[argi + k], "w");
		if (out[k] == NULL) {
			perror(argv[argi + k]);
			return 1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t dirs = (size_t)(cases[i].bad_tag ? 0 : eligible(&cases[i], 1)) +
			      (size_t)eligible(&cases[i], 0);
		ndir[dirs ? 0 : 1] += dirs;
		ncase[dirs ? 0 : 1]++;
	}
	for (int k = 0; k < 2; k++)
		fprintf(out[k],
			"# SPDX-License-Identifier: Apache-2.0\n"
			"# Generated by eip93-vecgen (test/harness/vecgen.c) with the kernel's\n"
			"# %s through libkcapi; do not edit.\n"
			"# eip93-engine-directions: %zu\n"
			"# cases: %zu\n\n",
			alg, ndir[k], ncase[k]);
	for (size_t i = 0; i < n; i++) {
		int dirs = (cases[i].bad_tag ? 0 : eligible(&cases[i], 1)) + eligible(&cases[i], 0);

		if (emit(out[dirs ? 0 : 1], alg, &cases[i]) != 0)
			return 1;
	}
	for (int k = 0; k < 2; k++) {
		if (fclose(out[k]) != 0) {
			perror(argv[argi + k]);
			return 1;
		}
	}
	printf("eip93-vecgen: %zu cases (%zu engine-eligible in %zu directions, %zu software-only) "
	       "via %s\n",
	       n, ncase[0], ndir[0], ncase[1], alg);
	return 0;
}
