// SPDX-License-Identifier: Apache-2.0
/*
 * Bytes to call script and back (script.h), and the script in words.  The
 * decoder never rejects: a mutated input is always some legal-looking call
 * sequence, which is what lets libFuzzer explore sequences rather than
 * parsing errors.  Sizes are drawn so that most messages fall in the
 * engine's window (4-32 KiB) while boundaries and large sizes stay reachable.
 */
#include "script.h"

#include <string.h>

#include "skc.h"

static const size_t boundaries[] = { 0,	   1,	  15,	 16,	17,    4095,  4096,  4097,
				     8192, 16383, 16384, 32767, 32768, 32769, 65535, 65536 };
#define N_BOUND (sizeof(boundaries) / sizeof(boundaries[0]))

/*
 * Top 3 bits pick a class: 0 exact (0..8191), 1 a boundary, 2..5 exact in
 * 4096..32768 (the engine window, over half of all draws), 6 and 7 up to
 * 64 KiB.  Classes 0 and 2..5 are exact so seeds can ask for any size.
 */
size_t fz_size(uint16_t raw)
{
	unsigned int cls = raw >> 13, v = raw & 0x1fff;

	switch (cls) {
	case 0:
		return v;
	case 1:
		return boundaries[v % N_BOUND];
	case 6:
	case 7:
		return 8192 + (size_t)(((cls - 6) << 13 | v) % (FZ_MAX_LEN - 8192 + 1));
	default:
		return 4096 + (((size_t)(cls - 2) << 13 | v) % (32768 - 4096 + 1));
	}
}

uint16_t fz_raw_size(size_t n)
{
	if (n <= 0x1fff)
		return (uint16_t)n;
	if (n >= 4096 && n <= 32768) {
		size_t w = n - 4096;

		return (uint16_t)((2 + (w >> 13)) << 13 | (w & 0x1fff));
	}
	for (size_t i = 0; i < N_BOUND; i++)
		if (boundaries[i] == n)
			return (uint16_t)(1 << 13 | i);
	return 0;
}

/* Mostly small (a TLS header is 13, SSH 4), sometimes past the engine's 512. */
size_t fz_aadlen(uint16_t raw)
{
	unsigned int cls = raw >> 14, v = raw & 0x3fff;

	switch (cls) {
	case 0:
		return v % 65;
	case 1:
		return v % 513;
	case 2:
		return v % (FZ_MAX_AAD + 1);
	default:
		return v & 1 ? 13 : 0;
	}
}

int fz_taglen(uint8_t sel)
{
	static const int t[] = { 16, 16, 16, 16, 12, 4, 8, 0, 17, 13, 1, 32 };

	return t[sel % (sizeof(t) / sizeof(t[0]))];
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

void fz_decode(const uint8_t *data, size_t size, struct fz_script *s)
{
	uint8_t h[FZ_HEADER] = { 0 };
	static const int errs[] = { 5 /* EIO */,     12 /* ENOMEM */,
				    24 /* EMFILE */, 14 /* EFAULT */,
				    11 /* EAGAIN */, 110 /* ETIMEDOUT */,
				    22 /* EINVAL */, 74 /* EBADMSG */ };

	memset(s, 0, sizeof(*s));
	memcpy(h, data, size < FZ_HEADER ? size : FZ_HEADER);
	s->keysize = (h[0] & 3) == 3 ? 2 : h[0] & 3;
	s->query_each = (h[0] & 0x14) == 0x14; /* a quarter of the inputs: it costs */
	s->start_dec = (h[0] >> 3) & 1;
	s->composition = (h[0] >> 5) & 1 ? FZ_KGCM : FZ_CTR;
	s->cipher = !(h[0] & 0x80) ? FZ_GCM : h[0] & 0x40 ? FZ_AES_CBC : FZ_AES_CTR;

	/*
	 * Three inputs in four run without faults (sites 12..15 map onto 1..4):
	 * a fault that counts as an engine error costs a provider reload.
	 */
	s->plan.site = (h[1] & 15) < 12 ? 0 : (h[1] & 15) - 11;
	s->plan.kind = (h[2] & 0x0f) % (FUZZ_KEYSTREAM_FAULTS ? 7 : 3);
	s->plan.err = errs[(h[2] >> 4) % (sizeof(errs) / sizeof(errs[0]))];
	s->plan.nth = 1 + h[3] % 16; /* a key check takes 1 call (CTR-only) or 3 */
	s->plan.every = h[4] & 1;
	/*
	 * Keystream faults always touch an edge block (the first, or the last):
	 * what the integrity check guarantees to catch.  A lone middle block is
	 * caught only by sampling (design.md); guest_integrity measures that rate.
	 */
	s->plan.block = h[5] & 1 ? -1 : 0;
	s->plan.count = h[6] % 4;
	s->plan.mask = h[7];
	for (int i = 0; i < 8; i++)
		s->seed = s->seed << 8 | h[8 + i];
	if (s->cipher != FZ_GCM)
		fzs_header(h, s);

	data += size < FZ_HEADER ? size : FZ_HEADER;
	size -= size < FZ_HEADER ? size : FZ_HEADER;
	while (size > 0 && s->nops < FZ_MAX_OPS) {
		uint8_t o[FZ_OPSIZE] = { 0 };
		struct fz_op *op = &s->ops[s->nops++];

		memcpy(o, data, size < FZ_OPSIZE ? size : FZ_OPSIZE);
		op->code = (enum fz_code)(o[0] % FZ_NCODES);
		op->scode = o[0] % FZS_NCODES;
		op->f1 = o[1];
		op->f2 = o[2];
		op->f3 = o[3];
		op->len = le16(o + 4);
		op->len2 = le16(o + 6);
		data += size < FZ_OPSIZE ? size : FZ_OPSIZE;
		size -= size < FZ_OPSIZE ? size : FZ_OPSIZE;
	}
}

size_t fz_encode_header(uint8_t *out, int keysize, int flags, const uint8_t plan[7], uint64_t seed)
{
	out[0] = (uint8_t)((keysize & 3) | (flags & 0xfc));
	memcpy(out + 1, plan, 7);
	for (int i = 0; i < 8; i++)
		out[8 + i] = (uint8_t)(seed >> (56 - 8 * i));
	return FZ_HEADER;
}

size_t fz_encode_op(uint8_t *out, unsigned int code, uint8_t f1, uint8_t f2, uint8_t f3,
		    uint16_t len, uint16_t len2)
{
	out[0] = (uint8_t)code;
	out[1] = f1;
	out[2] = f2;
	out[3] = f3;
	out[4] = (uint8_t)len;
	out[5] = (uint8_t)(len >> 8);
	out[6] = (uint8_t)len2;
	out[7] = (uint8_t)(len2 >> 8);
	return FZ_OPSIZE;
}

static const char *const api3[] = { "CipherUpdate", "Enc/DecUpdate", "EVP_Cipher" };
static const char *const final3[] = { "CipherFinal_ex", "Enc/DecFinal_ex", "EVP_Cipher(NULL,0)" };
static const char *const dirs[] = { "enc", "dec", "unchanged", "flip" };
static const char *const srcs[] = { "plaintext", "valid-ciphertext", "junk" };
static const char *const tagsrc[] = { "valid", "corrupted", "junk" };
static const char *const reinit[] = { "iv",	     "key+iv",	   "cipher+key+iv", "none",
				      "key-then-iv", "iv(dir -1)", "same-key+iv",   "iv" };
static const char *const timing[] = { "tag-early", "tag-late", "tag-early+late", "no-tag" };
static const char *const corrupt[] = { "none",	 "explicit-iv", "ciphertext", "tag",
				       "header", "none",	"none",	      "none" };

/* The tables run.c uses to give selectors their meaning, printed alike. */
const int fz_ivlens[10] = { 12, 12, 16, 1, 8, 13, 64, 128, 0, 129 };
const int fz_fixedlens[8] = { 4, 4, -1, -1, 0, 3, 12, 8 };
const int fz_genargs[7] = { 8, 8, 1, -1, 12, 0, 13 };
const int fz_invargs[4] = { 8, 8, 4, 12 };

void fz_describe_op(const struct fz_script *s, const struct fz_op *op, char *b, size_t n)
{
	size_t len = fz_size(op->len), aad = fz_aadlen(op->len2);

	if (s->cipher != FZ_GCM) {
		fzs_describe_op(op, b, n);
		return;
	}
	switch (op->code) {
	case FZ_INIT:
		snprintf(b, n, "init(%s%s%s dir=%s api=%d key#%d iv#%d%s)",
			 op->f1 & 1 ? "cipher " : "", op->f1 & 2 ? "key " : "",
			 op->f1 & 4 ? "iv" : "", dirs[(op->f1 >> 3) & 3], (op->f1 >> 5) & 3,
			 op->f2 & 3, op->f3 % 8, (op->f2 >> 2) & 3 ? " other-keysize" : "");
		break;
	case FZ_IVLEN:
		snprintf(b, n, "set ivlen %d by %s", fz_ivlens[op->len % 10],
			 op->f1 & 1 ? "param" : "ctrl");
		break;
	case FZ_AAD:
		snprintf(b, n, "aad %zu bytes by %s", aad, api3[op->f1 % 3]);
		break;
	case FZ_DATA:
		snprintf(b, n, "data %zu bytes (%s) by %s%s%s", len, srcs[op->f2 % 3],
			 api3[op->f1 % 3], op->f3 & 1 ? " in-place" : "",
			 op->f3 & 2 ? " overlapping" : "");
		break;
	case FZ_FINAL:
		snprintf(b, n, "final by %s", final3[op->f1 % 3]);
		break;
	case FZ_SET_TAG:
		snprintf(b, n, "set tag (%s, %d bytes) by %s", tagsrc[op->f1 % 3],
			 fz_taglen(op->f3), op->f2 & 1 ? "param" : "ctrl");
		break;
	case FZ_GET_TAG:
		snprintf(b, n, "get tag (%d bytes) by %s", fz_taglen(op->f3),
			 op->f1 & 1 ? "param" : "ctrl");
		break;
	case FZ_QUERY:
		snprintf(b, n, "query every context parameter");
		break;
	case FZ_IV_FIXED:
		snprintf(b, n, "SET_IV_FIXED(%d)", fz_fixedlens[op->f1 % 8]);
		break;
	case FZ_IV_GEN:
		snprintf(b, n, "IV_GEN(%d)", fz_genargs[op->f1 % 7]);
		break;
	case FZ_IV_INV:
		snprintf(b, n, "SET_IV_INV(%d, %s)", fz_invargs[op->f1 % 4],
			 op->f2 & 1 ? "junk" : "last generated");
		break;
	case FZ_TLS_AAD:
		snprintf(b, n, "TLS1_AAD alone (mode %d, %zu)", op->f1 % 4, len);
		break;
	case FZ_COPY:
		snprintf(b, n, "EVP_CIPHER_CTX_copy to the other slot%s",
			 op->f1 & 1 ? ", continue there" : "");
		break;
	case FZ_SWITCH:
		snprintf(b, n, "switch slot");
		break;
	case FZ_MSG:
		snprintf(b, n,
			 "message %s %zu bytes, aad %zu in %d parts, data in %d parts, reinit %s, "
			 "%s, api %s%s%s%s%s iv#%d key#%d",
			 op->f1 & 1 ? "decrypt" : "encrypt", len, aad, op->f2 & 3,
			 1 + ((op->f2 >> 2) & 3), reinit[(op->f1 >> 5) & 7],
			 timing[(op->f1 >> 3) & 3], api3[((op->f1 >> 1) & 3) % 3],
			 op->f2 & 0x10 ? " in-place" : "", op->f2 & 0x20 ? " copy-mid" : "",
			 op->f2 & 0x40 ? " corrupt" : "",
			 op->f2 & 0x80 ? " zero-length-updates" : "", op->f3 % 8,
			 (op->f3 >> 4) & 3);
		break;
	case FZ_TLS12:
		snprintf(b, n, "TLS 1.2 record %s %zu bytes by %s, corrupt %s%s%s",
			 op->f1 & 1 ? "decrypt" : "encrypt", len % (FZ_MAX_RECORD + 1),
			 op->f1 & 2 ? "EVP_Cipher" : "CipherUpdate", corrupt[(op->f1 >> 3) & 7],
			 op->f1 & 4 ? ", zero-length update first" : "",
			 op->f1 & 0x40 ? ", not in place" : "");
		break;
	case FZ_TLS13:
		snprintf(b, n, "TLS 1.3 record %s %zu bytes by %s, %s%s%s",
			 op->f1 & 1 ? "decrypt" : "encrypt", len % (FZ_MAX_RECORD + 2),
			 api3[((op->f1 >> 1) & 3) % 3], timing[(op->f1 >> 3) & 3],
			 op->f1 & 0x20 ? ", corrupt" : "", op->f1 & 0x40 ? ", init with key" : "");
		break;
	case FZ_SSH:
		snprintf(b, n, "OpenSSH packet %s %zu bytes%s%s",
			 op->f1 & 1 ? "decrypt" : "encrypt", len & ~(size_t)15,
			 op->f1 & 2 ? ", corrupt" : "", op->f1 & 4 ? ", no IV_GEN" : "");
		break;
	case FZ_PARAMS:
		snprintf(b, n, "set_params{%s%s%s%s%s%s%s}", op->f1 & 1 ? " ivlen" : "",
			 op->f1 & 2 ? " tag" : "", op->f1 & 4 ? " tls1_iv_fixed" : "",
			 op->f1 & 8 ? " tls1_aad" : "", op->f1 & 16 ? " keylen" : "",
			 op->f1 & 32 ? " tls1_set_iv_inv" : "", op->f1 & 64 ? " unknown" : "");
		break;
	case FZ_RESET:
	default:
		snprintf(b, n, "EVP_CIPHER_CTX_reset");
		break;
	}
}

void fz_print(FILE *f, const struct fz_script *s, long mark)
{
	static const char *const sites[] = { "none", "open", "seal", "unseal", "data" };
	static const char *const kinds[] = { "errno",	"short", "badmsg", "keystream", "nowrite",
					     "tagmask", "skip",	 "tail",   "page" };
	static const char *const ciphers[] = { "GCM", "CTR", "CBC" };
	static const char *const ivs[] = { "", ", first IV near a 32-bit counter wrap",
					   ", first IV near a 64-bit counter wrap",
					   ", first IV near a 128-bit counter wrap" };
	static const char *const bufs[] = { "out", "in", "tx" };
	char line[400];

	fprintf(f, "script: AES-%d-%s %s%s, %s first, seed %016llx%s%s, %zu steps\n",
		128 + 64 * s->keysize, ciphers[s->cipher],
		s->cipher == FZ_GCM ? "on " : "in the world of ",
		s->composition == FZ_KGCM ? "gcm_base(ctr(aes-eip93),ghash-generic)"
					  : "ctr(aes-eip93)",
		s->start_dec ? "decrypting" : "encrypting", (unsigned long long)s->seed,
		s->query_each ? ", parameters read after each step" : "", ivs[s->iv_class & 3],
		s->nops);
	if (s->cipher != FZ_GCM)
		fprintf(f, "driver bugs modelled by the fake: %s\n",
			s->bugs == 0		      ? "none"
			: s->bugs == FZ_BUG_DIRECTION ? "direction"
			: s->bugs == FZ_BUG_CTR32     ? "ctr32"
						      : "direction,ctr32");
	if (s->plan.site == 0)
		fprintf(f, "fault plan: none\n");
	else
		fprintf(f,
			"fault plan: "
			"site=%s,kind=%s,err=%d,nth=%lu,every=%d,block=%ld,count=%lu,mask=%u",
			sites[s->plan.site], kinds[s->plan.kind], s->plan.err, s->plan.nth,
			s->plan.every, s->plan.block, s->plan.count, s->plan.mask);
	if (s->plan.site != 0 && s->plan.kind == 7)
		fprintf(f, ",byte=%lu", s->plan.byte);
	if (s->plan.site != 0 && s->plan.kind == 8)
		fprintf(f, ",at=%ld,buf=%s,page=%lu", s->plan.at, bufs[s->plan.buf % 3],
			s->plan.page);
	if (s->plan.site != 0)
		fprintf(f, "\n");
	for (size_t i = 0; i < s->nops; i++) {
		fz_describe_op(s, &s->ops[i], line, sizeof(line));
		fprintf(f, "%s %2zu: %s\n", (long)i == mark ? "=>" : "  ", i, line);
	}
}
