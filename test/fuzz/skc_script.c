// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-CTR and AES-CBC worlds' share of the script language (skc.h):
 * the header's spare bits, sizes, the selectors' tables and the steps in
 * words.  Like decode.c, nothing is rejected: every byte string is some
 * script.
 */
#include "skc.h"

#include <stdio.h>
#include <string.h>

/* num values: the valid ones (CTR's blocks are 1 byte in OpenSSL 3.0: only 0), and past them. */
const unsigned int fzs_nums[8] = { 0, 0, 1, 5, 15, 16, 17, 255 };
/* tls-version: off, TLS 1.0, TLS 1.2, SSL 3 (TLS 1.1+ carry an explicit IV block). */
const unsigned int fzs_tlsvers[4] = { 0, 0x301, 0x303, 0x300 };
const size_t fzs_macsizes[8] = { 0, 16, 20, 32, 48, 64, 0, 20 };
const char *const fzs_reinits[8] = {
	"iv",	       "key+iv",     "cipher+key+iv", "none",
	"key-then-iv", "iv(dir -1)", "same-key+iv",   "init_ex2(same-key,iv,padding)"
};

size_t fzs_size(uint16_t len, uint16_t len2)
{
	size_t n = fz_size(len);

	switch (len2 & 3) {
	case 2:
		return n;
	case 3:
		return (n & ~(size_t)15) + 1 + (size_t)((len2 >> 2) % 15);
	default:
		return n & ~(size_t)15;
	}
}

void fzs_header(const uint8_t h[16], struct fz_script *s)
{
	int at = (h[4] >> 3) & 31;

	/* 0 (the seeds' default): both bugs on, as the mainline driver has them. */
	s->bugs = (~(unsigned int)(h[1] >> 4)) & (FZ_BUG_DIRECTION | FZ_BUG_CTR32);
	s->iv_class = h[1] >> 6;
	/* Every kind of the fake: tail (7) and page (8) too. */
	s->plan.kind = (h[2] & 0x0f) % (FUZZ_KEYSTREAM_FAULTS ? 9 : 3);
	s->plan.buf = ((h[4] >> 1) & 3) % 3;
	s->plan.at = at - 16;
	s->plan.byte = (unsigned long)((h[5] >> 1) % 17);
	s->plan.page = 1 + (unsigned long)((h[6] >> 2) & 3);
}

static const char *const api3[] = { "CipherUpdate", "Enc/DecUpdate", "EVP_Cipher" };
static const char *const final3[] = { "CipherFinal_ex", "Enc/DecFinal_ex", "EVP_Cipher(NULL,0)" };
static const char *const dirs[] = { "enc", "dec", "-1", "flip" };
static const char *const inits[] = { "CipherInit_ex", "Enc/DecInit_ex", "CipherInit_ex2",
				     "CipherInit_ex2+params" };
static const char *const srcs[] = { "plaintext", "model-ciphertext", "junk" };
static const char *const ivsel[] = { "iv#a",	  "iv#b",	"iv#c",	    "iv~wrap32",
				     "iv~wrap64", "iv~wrap128", "iv=model", "iv=first" };
static const char *const cuts[] = { "block-aligned", "anywhere", "partial-first", "even" };
static const char *const shapes[] = { "whole blocks", "whole blocks", "exact", "blocks+partial" };

static void describe_init(const struct fz_op *op, char *b, size_t n)
{
	static const char *const keys[] = { "key#0 ", "key#1 ", "key#2 ", "key#3 " };
	int ks = (op->f2 >> 2) & 3, params = ((op->f1 >> 5) & 3) == 3;

	snprintf(b, n, "init by %s(%s%s%s%sdir=%s", inits[(op->f1 >> 5) & 3],
		 op->f1 & 1 ? "cipher " : "", op->f1 & 2 ? keys[op->f2 & 3] : "",
		 op->f1 & 4 ? ivsel[op->f3 & 7] : "", op->f1 & 4 ? " " : "",
		 dirs[(op->f1 >> 3) & 3]);
	/* The key size and mode count with a cipher only, the parameters with init_ex2's. */
	if ((op->f1 & 1) && ks != 0)
		snprintf(b + strlen(b), n - strlen(b), " AES-%d", 64 + 64 * ks);
	if ((op->f1 & 1) && (op->f2 & 0x10))
		snprintf(b + strlen(b), n - strlen(b), " other-mode");
	if (params && (op->f2 & 0x20))
		snprintf(b + strlen(b), n - strlen(b), " padding=%d", op->f3 >> 7);
	if (params && (op->f2 & 0x40))
		snprintf(b + strlen(b), n - strlen(b), " num=%d", (op->f3 >> 3) & 15);
	if (params && (op->f2 & 0x80))
		snprintf(b + strlen(b), n - strlen(b), " unknown=7");
	snprintf(b + strlen(b), n - strlen(b), ")");
}

static void describe_params(const struct fz_op *op, char *b, size_t n)
{
	snprintf(b, n, "set_params{%s%s%s%s%s%s%s}%s", op->f1 & 1 ? " padding" : "",
		 op->f1 & 2 ? " num" : "", op->f1 & 4 ? " keylen" : "",
		 op->f1 & 8 ? " tls-version" : "", op->f1 & 16 ? " tls-mac-size" : "",
		 op->f1 & 32 ? " ivlen" : "", op->f1 & 64 ? " unknown" : "",
		 op->f1 & 128 ? " reversed" : "");
	if (op->f1 & 1)
		snprintf(b + strlen(b), n - strlen(b), " padding=%d", op->f2 & 1);
	if (op->f1 & 2)
		snprintf(b + strlen(b), n - strlen(b), " num=%u", fzs_nums[op->f3 % 8]);
	if (op->f1 & 8)
		snprintf(b + strlen(b), n - strlen(b), " tls-version=0x%x",
			 fzs_tlsvers[(op->f2 >> 2) & 3]);
	if (op->f1 & 16)
		snprintf(b + strlen(b), n - strlen(b), " tls-mac-size=%zu",
			 fzs_macsizes[(op->f2 >> 4) & 7]);
}

static void describe_setter(const struct fz_op *op, char *b, size_t n)
{
	static const int keylens[6] = { 16, 24, 32, 0, 15, 64 };

	switch (op->f1 % 4) {
	case 0:
		snprintf(b, n, "EVP_CIPHER_CTX_set_padding(%d)", op->f2 & 1);
		break;
	case 1:
		snprintf(b, n, "EVP_CIPHER_CTX_set_num(%u)", fzs_nums[op->f2 % 8]);
		break;
	case 2:
		snprintf(b, n, "EVP_CIPHER_CTX_set_key_length(%d)", keylens[op->f2 % 6]);
		break;
	default:
		snprintf(b, n, "EVP_CIPHER_CTX_ctrl(SET_IVLEN, %d)", op->f2 & 1 ? 12 : 16);
		break;
	}
}

static void describe_msg(const struct fz_op *op, char *b, size_t n)
{
	snprintf(b, n,
		 "message %s %zu bytes (%s), init %s, %s, %d parts cut %s%s%s%s%s%s%s%s, key#%d",
		 op->f1 & 1 ? "decrypt" : "encrypt", fzs_size(op->len, op->len2),
		 shapes[op->len2 & 3], fzs_reinits[(op->f1 >> 3) & 7], ivsel[op->f3 & 7],
		 1 + (op->f2 & 3), cuts[(op->f2 >> 2) & 3], op->f2 & 0x10 ? ", padding off" : "",
		 op->f2 & 0x20 ? ", in place" : "", op->f2 & 0x40 ? ", corrupt" : "",
		 op->f2 & 0x80 ? ", zero-length updates" : "",
		 op->f1 & 0x80 ? ", copy after part 1" : "", op->f1 & 0x40 ? ", no final" : "",
		 op->f3 & 8 ? ", running IV read" : "", (op->f3 >> 4) & 3);
	snprintf(b + strlen(b), n - strlen(b), ", by %s", api3[((op->f1 >> 1) & 3) % 3]);
}

void fzs_describe_op(const struct fz_op *op, char *b, size_t n)
{
	switch ((enum fzs_code)op->scode) {
	case FZS_INIT:
		describe_init(op, b, n);
		break;
	case FZS_DATA:
		snprintf(b, n, "data %zu bytes (%s, %s) by %s%s%s, offsets in %d out %d",
			 fzs_size(op->len, op->len2), shapes[op->len2 & 3], srcs[op->f2 % 3],
			 api3[op->f1 % 3], op->f3 & 1 ? " in-place" : "",
			 op->f3 & 2 ? (op->f3 & 4 ? " overlapping(out first)" : " overlapping")
				    : "",
			 (op->f3 >> 3) & 7, 5 * ((op->f3 >> 6) & 3));
		break;
	case FZS_FINAL:
		snprintf(b, n, "final by %s", final3[op->f1 % 3]);
		break;
	case FZS_PARAMS:
		describe_params(op, b, n);
		break;
	case FZS_SETTER:
		describe_setter(op, b, n);
		break;
	case FZS_QUERY:
		snprintf(b, n, "query every context parameter");
		break;
	case FZS_COPY:
		snprintf(b, n, "EVP_CIPHER_CTX_copy to the other slot%s",
			 op->f1 & 1 ? ", continue there" : "");
		break;
	case FZS_SWITCH:
		snprintf(b, n, "switch slot");
		break;
	case FZS_MSG:
		describe_msg(op, b, n);
		break;
	case FZS_TLS:
		snprintf(b, n, "TLS record %s %zu bytes, tls-version 0x%x, mac %zu%s%s",
			 op->f1 & 1 ? "decrypt" : "encrypt", fz_size(op->len) % 16385,
			 fzs_tls_version(op->f1), fzs_macsizes[(op->f1 >> 3) & 7],
			 op->f1 & 0x40 ? ", bad padding" : "",
			 op->f1 & 0x80 ? ", not in place" : "");
		break;
	case FZS_RESET:
	default:
		snprintf(b, n, "EVP_CIPHER_CTX_reset");
		break;
	}
}
