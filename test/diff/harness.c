// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's reporting and its comparisons with the kernel: the shape
 * line of the current case, failures (failf: the first few cases in
 * full, with the command that replays them), transcript comparison,
 * message accounting, and the kernel's AEAD through libkcapi.
 */
#include "diff.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EIP93_DIFF_NO_KCAPI
#include <kcapi.h>
#endif

const char *const cipher_names[3] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };
const size_t key_lens[3] = { 16, 24, 32 };

const char *const ctype_names[CT_N] = { "static", "generic", "reinit", "errors",
					"ivgen",  "tls12",   "tls13",  "named" };

void shape_add(struct harness *h, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (h->shape_len >= sizeof(h->shape) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(h->shape + h->shape_len, sizeof(h->shape) - h->shape_len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	h->shape_len += (size_t)n;
	if (h->shape_len > sizeof(h->shape) - 1)
		h->shape_len = sizeof(h->shape) - 1;
}

void shape_hex(struct harness *h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		shape_add(h, "%02x", p[i]);
}

void shape_pair(struct harness *h, const char *name, const unsigned char *a, const unsigned char *b,
		size_t n)
{
	shape_add(h, "%s", name);
	shape_hex(h, a, n);
	shape_add(h, ",");
	shape_hex(h, b, n);
}

void records_compare(struct harness *h, const char *what, records_fn run, const void *s, int kidx,
		     unsigned char **payload, unsigned char **garbage, int nrec)
{
	struct stats saved;

	shape_add(h, " (peer1=%s, peer2=%s; compared with both on %s)", h->test.label, h->ref.label,
		  h->ref.label);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	run(h, s, h->test.c[kidx], h->ref.c[kidx], payload, garbage, &h->ta, 1);
	/* the reference run must not count as traffic of the test side */
	saved = h->st;
	run(h, s, h->ref.c[kidx], h->ref.c[kidx], payload, garbage, &h->tb, 0);
	h->st = saved;
	compare_tr(h, what, &h->ta, h->test.label, &h->tb, "both-default");
	for (int i = 0; i < nrec; i++) {
		free(payload[i]);
		free(garbage[i]);
	}
}

void failf(struct harness *h, const char *fmt, ...)
{
	if (!h->case_failed) {
		h->case_failed = 1;
		h->reported++;
		if (h->reported <= DETAIL_MAX) {
			printf("FAIL seed=%" PRIu64 " case=%lu type=%s"
			       " (replay: eip93-diff%s --seed %" PRIu64 " --case %lu)\n",
			       h->seed, h->caseno, ctype_names[h->ctype],
			       h->self_check ? " --self-check" : "", h->seed, h->caseno);
			printf("  shape: %s\n", h->shape);
		} else if (h->reported <= LIST_MAX) {
			printf("FAIL seed=%" PRIu64 " case=%lu type=%s\n", h->seed, h->caseno,
			       ctype_names[h->ctype]);
		} else if (h->reported == LIST_MAX + 1) {
			printf("(further failing cases are counted, not listed)\n");
		}
	}
	if (h->reported <= DETAIL_MAX && h->case_msgs < MSGS_PER_CASE) {
		va_list ap;

		printf("  - ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	h->case_msgs++;
	fflush(stdout);
}

void compare_tr(struct harness *h, const char *what, const struct tr *x, const char *lx,
		const struct tr *y, const char *ly)
{
	char msg[640];

	if (tr_compare(x, y, lx, ly, msg, sizeof(msg)))
		failf(h, "%s: %s", what, msg);
}

static int engine_shaped(size_t ivlen, size_t taglen, size_t aadlen, size_t len)
{
	return ivlen == 12 && taglen == TAG_MAX && aadlen <= ENGINE_AAD_MAX && len >= ENGINE_MIN &&
	       len <= ENGINE_MAX;
}

void count_message(struct harness *h, size_t ivlen, size_t taglen, size_t aadlen, size_t len,
		   int overlap)
{
	h->st.messages++;
	h->st.bytes += len;
	if (!overlap && engine_shaped(ivlen, taglen, aadlen, len))
		h->st.engine_shaped++;
}

/* ------------------------------------------------------------------ */
/* The kernel's gcm(aes) through libkcapi                               */
/* ------------------------------------------------------------------ */

/* libkcapi refuses one-shot AEAD input larger than ALG_MAX_PAGES pages. */
size_t kc_limit(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return (size_t)(p > 0 ? p : 4096) * 16;
}

static int kc_taglen_ok(size_t t)
{
	return t == 4 || t == 8 || (t >= 12 && t <= 16);
}

static int kc_usable(struct harness *h, size_t ivlen, size_t taglen, size_t aadlen, size_t len)
{
	if (!h->kernel)
		return 0;
	if (ivlen != 12 || !kc_taglen_ok(taglen) || aadlen + len + taglen > kc_limit()) {
		h->st.kc_skipped++;
		return 0;
	}
	return 1;
}

/*
 * One AEAD operation in the kernel. Returns 1 when done, 0 on an
 * authentication failure (decryption), or a negative errno.
 * enc: out receives ct||tag (inlen + taglen); decrypt: out receives pt.
 */
#ifdef EIP93_DIFF_NO_KCAPI
/* Built without libkcapi (test/diff/CMakeLists.txt): probe_kernel() never turns the kernel on. */
static int kc_aead(const char *alg, int enc, const unsigned char *key, size_t keylen,
		   const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		   const unsigned char *in, size_t inlen, const unsigned char *tag, size_t taglen,
		   unsigned char *out)
{
	(void)alg, (void)enc, (void)key, (void)keylen, (void)iv, (void)aad, (void)aadlen;
	(void)in, (void)inlen, (void)tag, (void)taglen, (void)out;
	return -ENOSYS;
}
#else
static int kc_aead(const char *alg, int enc, const unsigned char *key, size_t keylen,
		   const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		   const unsigned char *in, size_t inlen, const unsigned char *tag, size_t taglen,
		   unsigned char *out)
{
	struct kcapi_handle *kh = NULL;
	size_t ilen = aadlen + inlen + (enc ? 0 : taglen);
	size_t olen = aadlen + inlen + (enc ? taglen : 0);
	unsigned char *ib = xmalloc(ilen);
	unsigned char *ob = xmalloc(olen);
	ssize_t n;
	int rc;

	copy_bytes(ib, aad, aadlen);
	copy_bytes(ib + aadlen, in, inlen);
	if (!enc)
		copy_bytes(ib + aadlen + inlen, tag, taglen);
	rc = kcapi_aead_init(&kh, alg, 0);
	if (rc < 0) {
		kh = NULL;
		goto done;
	}
	rc = kcapi_aead_setkey(kh, key, (uint32_t)keylen);
	if (rc < 0)
		goto done;
	rc = kcapi_aead_settaglen(kh, (uint32_t)taglen);
	if (rc < 0)
		goto done;
	kcapi_aead_setassoclen(kh, aadlen);
	if (enc)
		n = kcapi_aead_encrypt(kh, ib, ilen, iv, ob, olen ? olen : 1, KCAPI_ACCESS_SENDMSG);
	else
		n = kcapi_aead_decrypt(kh, ib, ilen, iv, ob, olen ? olen : 1, KCAPI_ACCESS_SENDMSG);
	if (!enc && n == -EBADMSG) {
		rc = 0;
	} else if (n < 0) {
		rc = (int)n;
	} else if ((size_t)n != olen) {
		rc = -EMSGSIZE;
	} else {
		copy_bytes(out, ob + aadlen, olen - aadlen);
		rc = 1;
	}
done:
	if (kh != NULL)
		kcapi_aead_destroy(kh);
	free(ib);
	free(ob);
	return rc;
}
#endif

void kc_check_enc(struct harness *h, const char *what, int kidx, const unsigned char *key,
		  const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		  const unsigned char *pt, size_t len, const unsigned char *ct,
		  const unsigned char *tag, size_t taglen)
{
	unsigned char *o;
	int rc;

	if (!kc_usable(h, 12, taglen, aadlen, len))
		return;
	o = xmalloc(len + taglen);
	rc = kc_aead(h->kernel_alg, 1, key, key_lens[kidx], iv, aad, aadlen, pt, len, NULL, taglen,
		     o);
	h->st.kc_enc++;
	if (rc != 1) {
		failf(h, "%s: kernel %s encryption failed: %d (%s)", what, h->kernel_alg, rc,
		      strerror(-rc));
	} else if (len != 0 && memcmp(o, ct, len) != 0) {
		size_t j = 0;

		while (o[j] == ct[j])
			j++;
		failf(h, "%s: ciphertext differs from kernel %s at offset %zu", what, h->kernel_alg,
		      j);
	} else if (memcmp(o + len, tag, taglen) != 0) {
		failf(h, "%s: tag differs from kernel %s", what, h->kernel_alg);
	}
	free(o);
}

void kc_check_dec(struct harness *h, const char *what, int kidx, const unsigned char *key,
		  const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		  const unsigned char *ct, size_t len, const unsigned char *tag, size_t taglen,
		  int ossl_ok, const unsigned char *ossl_pt)
{
	unsigned char *o;
	int rc;

	if (!kc_usable(h, 12, taglen, aadlen, len))
		return;
	o = xmalloc(len);
	rc = kc_aead(h->kernel_alg, 0, key, key_lens[kidx], iv, aad, aadlen, ct, len, tag, taglen,
		     o);
	h->st.kc_dec++;
	if (rc < 0)
		failf(h, "%s: kernel %s decryption error: %d (%s)", what, h->kernel_alg, rc,
		      strerror(-rc));
	else if (rc != ossl_ok)
		failf(h, "%s: kernel %s %s, OpenSSL %s", what, h->kernel_alg,
		      rc ? "authenticates" : "rejects (EBADMSG)",
		      ossl_ok ? "authenticates" : "rejects");
	else if (rc == 1 && len != 0 && memcmp(o, ossl_pt, len) != 0)
		failf(h, "%s: plaintext differs from kernel %s", what, h->kernel_alg);
	free(o);
}
