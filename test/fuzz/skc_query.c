// SPDX-License-Identifier: Apache-2.0
/*
 * What an AES-CTR or AES-CBC context answers (skc.h): every gettable
 * parameter at several buffer sizes and by pointer, the EVP accessors, the
 * running IV and num between the parts of a message, and the tls-mac a
 * record leaves.
 */
#include "skc.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define BLK 16

static void log_num(struct fz_side *sd, const char *name, int size_t_type)
{
	size_t z = 0xdead;
	unsigned int u = 0xdead;
	OSSL_PARAM p[2] = { size_t_type ? OSSL_PARAM_construct_size_t(name, &z)
					: OSSL_PARAM_construct_uint(name, &u),
			    OSSL_PARAM_END };
	int r = EVP_CIPHER_CTX_get_params(fz_ctx(sd), p);
	char w[64];

	snprintf(w, sizeof(w), "get(%s)", name);
	fz_log(&sd->tr, w, r,
	       !OSSL_PARAM_modified(&p[0]) ? -1
	       : size_t_type		   ? (long long)z
					   : (long long)u,
	       NULL, 0);
}

/* An octet parameter into a buffer of @size bytes, or (@size 0) by pointer: the bytes it points at. */
static void log_octets(struct fz_side *sd, const char *name, size_t size, int deref)
{
	unsigned char buf[64];
	void *ptr = NULL;
	OSSL_PARAM p[2] = { size != 0 ? OSSL_PARAM_construct_octet_string(name, buf, size)
				      : OSSL_PARAM_construct_octet_ptr(name, &ptr, 0),
			    OSSL_PARAM_END };
	char w[64];
	int r;

	memset(buf, 0xa5, sizeof(buf));
	r = EVP_CIPHER_CTX_get_params(fz_ctx(sd), p);
	snprintf(w, sizeof(w), "get(%s,%zu)", name, size);
	if (size != 0) {
		fz_log(&sd->tr, w, r, OSSL_PARAM_modified(&p[0]) ? (long long)p[0].return_size : -1,
		       buf, size);
		return;
	}
	/* A pointer: into the context, or (tls-mac) into a caller's buffer maybe gone. */
	fz_log(&sd->tr, w, r * 2 + (ptr != NULL),
	       OSSL_PARAM_modified(&p[0]) ? (long long)p[0].return_size : -1,
	       deref && ptr != NULL && p[0].return_size <= sizeof(buf) ? ptr : NULL,
	       p[0].return_size);
}

void fzs_query(struct fz_side *sd)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	unsigned char buf[32];

	if (x == NULL || EVP_CIPHER_CTX_get0_cipher(x) == NULL) {
		fz_log(&sd->tr, "query: no cipher", 0, -1, NULL, 0);
		return;
	}
	fz_log(&sd->tr, "get_iv_length", EVP_CIPHER_CTX_get_iv_length(x), -1, NULL, 0);
	fz_log(&sd->tr, "get_key_length", EVP_CIPHER_CTX_get_key_length(x), -1, NULL, 0);
	fz_log(&sd->tr, "get_block_size", EVP_CIPHER_CTX_get_block_size(x), -1, NULL, 0);
	fz_log(&sd->tr, "get_mode", EVP_CIPHER_CTX_get_mode(x), -1, NULL, 0);
	fz_log(&sd->tr, "is_encrypting", EVP_CIPHER_CTX_is_encrypting(x), -1, NULL, 0);
	fz_log(&sd->tr, "get_num", EVP_CIPHER_CTX_get_num(x), -1, NULL, 0);
	fz_log(&sd->tr, "no_padding", EVP_CIPHER_CTX_test_flags(x, EVP_CIPH_NO_PADDING) != 0, -1,
	       NULL, 0);
	log_num(sd, OSSL_CIPHER_PARAM_IVLEN, 1);
	log_num(sd, OSSL_CIPHER_PARAM_KEYLEN, 1);
	log_num(sd, OSSL_CIPHER_PARAM_PADDING, 0);
	log_num(sd, OSSL_CIPHER_PARAM_NUM, 0);
	log_octets(sd, OSSL_CIPHER_PARAM_IV, BLK, 0);
	log_octets(sd, OSSL_CIPHER_PARAM_IV, 8, 0);
	log_octets(sd, OSSL_CIPHER_PARAM_IV, 32, 0);
	log_octets(sd, OSSL_CIPHER_PARAM_IV, 0, 1);
	log_octets(sd, OSSL_CIPHER_PARAM_UPDATED_IV, BLK, 0);
	log_octets(sd, OSSL_CIPHER_PARAM_UPDATED_IV, 8, 0);
	log_octets(sd, OSSL_CIPHER_PARAM_UPDATED_IV, 32, 0);
	log_octets(sd, OSSL_CIPHER_PARAM_UPDATED_IV, 0, 1);
	log_octets(sd, OSSL_CIPHER_PARAM_TLS_MAC, 0, 0);
	memset(buf, 0, sizeof(buf));
	fz_log(&sd->tr, "get_updated_iv", EVP_CIPHER_CTX_get_updated_iv(x, buf, BLK), -1, buf,
	       sizeof(buf));
	memset(buf, 0, sizeof(buf));
	fz_log(&sd->tr, "get_original_iv", EVP_CIPHER_CTX_get_original_iv(x, buf, BLK), -1, buf,
	       sizeof(buf));
	fzs_reason(sd, "query");
}

void fzs_running(struct fz_side *sd)
{
	if (EVP_CIPHER_CTX_get0_cipher(fz_ctx(sd)) == NULL)
		return;
	log_octets(sd, OSSL_CIPHER_PARAM_UPDATED_IV, BLK, 0);
	log_num(sd, OSSL_CIPHER_PARAM_NUM, 0);
	fzs_reason(sd, "running");
}

const void *fzs_tls_mac_ptr(struct fz_side *sd)
{
	void *ptr = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, &ptr, 0),
			    OSSL_PARAM_END };

	if (EVP_CIPHER_CTX_get0_cipher(fz_ctx(sd)) == NULL ||
	    EVP_CIPHER_CTX_get_params(fz_ctx(sd), p) <= 0)
		ptr = NULL;
	ERR_clear_error();
	return ptr;
}

/*
 * The tls-mac a record left: its bytes where this record surely set it,
 * the same bytes on both sides (@fresh: a well-padded AES-CBC record's MAC,
 * in memory the provider allocated; @at: where an AES-CTR decryption puts
 * it, in the record's output, and it is there), else only its length.  A
 * pointer's mere position says nothing: an earlier call may have left it
 * in a buffer since freed, whose address this record's buffers may have.
 */
void fzs_tls_mac(struct fz_side *sd, int fresh, const unsigned char *at)
{
	const unsigned char *now = fzs_tls_mac_ptr(sd);

	if (EVP_CIPHER_CTX_get0_cipher(fz_ctx(sd)) == NULL)
		return;
	log_octets(sd, OSSL_CIPHER_PARAM_TLS_MAC, 0,
		   now != NULL && (fresh || (at != NULL && now == at)));
	fzs_reason(sd, "tls-mac");
}
