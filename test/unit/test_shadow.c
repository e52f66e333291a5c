// SPDX-License-Identifier: Apache-2.0
/*
 * alg/gcm/shadow.c: what the cipher context knows of its delegate, event by
 * event.  Each case mirrors a call sequence whose outcome in OpenSSL's GCM
 * (ciphercommon_gcm.c) decides whether an engine message would be exact.
 */
#include <string.h>

#include "check.h"
#include "../../alg/gcm/shadow.h"

static const unsigned char iv12[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

static void ev(struct eip93_shadow *s, enum eip93_shadow_event e, const unsigned char *d,
	       size_t len)
{
	struct eip93_shadow_ev x = { .ev = e, .data = d, .len = len };

	eip93_shadow_move(s, &x);
}

static void init(struct eip93_shadow *s, int enc, int key, const unsigned char *iv, size_t len)
{
	struct eip93_shadow_ev x = {
		.ev = EIP93_EV_INIT, .enc = enc, .has_key = key, .data = iv, .len = len
	};

	eip93_shadow_move(s, &x);
}

static void test_generic(void)
{
	struct eip93_shadow s;
	unsigned char aad[20] = { 0 };

	eip93_shadow_init(&s);
	CHECK(!eip93_shadow_iv_usable(&s));
	init(&s, 1, 1, iv12, 12);
	CHECK(eip93_shadow_iv_usable(&s));
	CHECK(memcmp(s.iv, iv12, 12) == 0);
	ev(&s, EIP93_EV_AAD, aad, 13);
	CHECK_EQ_INT(s.aadlen, 13);
	CHECK(eip93_shadow_iv_usable(&s));
	ev(&s, EIP93_EV_ENGINE, NULL, 4096);
	CHECK_EQ_INT(s.msg, EIP93_MSG_ENGINE);
	CHECK(!eip93_shadow_iv_usable(&s)); /* data seen */
	ev(&s, EIP93_EV_FINAL, NULL, 0);
	CHECK(!eip93_shadow_iv_usable(&s)); /* GCM never reuses an IV */
	CHECK_EQ_INT(s.iv_state, EIP93_IV_DONE);
	/* An init without an IV does not give the old one back. */
	init(&s, 1, 0, NULL, 0);
	CHECK(!eip93_shadow_iv_usable(&s));
	init(&s, 1, 0, iv12, 12);
	CHECK(eip93_shadow_iv_usable(&s));
	/* Other IV lengths are never ours. */
	init(&s, 1, 0, iv12, 8);
	CHECK(!eip93_shadow_iv_usable(&s));
	CHECK_EQ_INT(s.ivlen, 8);
}

static void test_zero_length_data(void)
{
	struct eip93_shadow s;
	unsigned char aad[32] = { 0 };

	/* Unaligned AAD then a zero-length data call: later AAD starts a new block. */
	eip93_shadow_init(&s);
	init(&s, 1, 1, iv12, 12);
	ev(&s, EIP93_EV_AAD, aad, 5);
	ev(&s, EIP93_EV_DATA, NULL, 0);
	CHECK(!eip93_shadow_iv_usable(&s));
	/* Block-aligned AAD: nothing changes. */
	init(&s, 1, 1, iv12, 12);
	ev(&s, EIP93_EV_AAD, aad, 16);
	ev(&s, EIP93_EV_DATA, NULL, 0);
	CHECK(eip93_shadow_iv_usable(&s));
}

static void test_tls12(void)
{
	struct eip93_shadow s;
	unsigned char fixed[4] = { 0xf1, 0xf2, 0xf3, 0xf4 }, eiv[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	unsigned char aad[13] = { 0 }, iv[12];

	eip93_shadow_init(&s);
	init(&s, 1, 1, NULL, 0);
	ev(&s, EIP93_EV_IV_FIXED, fixed, 4);
	CHECK(!eip93_shadow_iv_usable(&s)); /* encrypting: the invocation field is random */
	CHECK_EQ_INT(eip93_shadow_tls_iv(&s, eiv, iv), 0);
	CHECK(memcmp(iv, fixed, 4) == 0 && memcmp(iv + 4, eiv, 8) == 0);
	aad[11] = 0x10; /* record length 4096 + 8 */
	aad[12] = 0x08;
	ev(&s, EIP93_EV_TLS_AAD, aad, 13);
	CHECK_EQ_INT(s.tls, EIP93_TLS_SET);
	CHECK_EQ_INT(s.tls_aad[11] << 8 | s.tls_aad[12], 4096);
	ev(&s, EIP93_EV_TLS_RECORD, NULL, 0);
	CHECK_EQ_INT(s.tls, EIP93_TLS_NONE);
	CHECK_EQ_INT(eip93_shadow_tls_iv(&s, eiv, iv), 0); /* the fixed part stays */

	/* Fixed IV, then a whole IV by init, one record: the IV is finished (no reuse). */
	eip93_shadow_init(&s);
	init(&s, 1, 1, NULL, 0);
	ev(&s, EIP93_EV_IV_FIXED, fixed, 4);
	init(&s, 1, 0, iv12, 12);
	CHECK(eip93_shadow_iv_usable(&s));
	ev(&s, EIP93_EV_TLS_AAD, aad, 13);
	ev(&s, EIP93_EV_TLS_RECORD, NULL, 0);
	CHECK(!eip93_shadow_iv_usable(&s));

	/* Decrypting, the record length loses the tag too; a bad AAD is "maybe pending". */
	eip93_shadow_init(&s);
	init(&s, 0, 1, NULL, 0);
	aad[11] = 0x10;
	aad[12] = 0x18;
	ev(&s, EIP93_EV_TLS_AAD, aad, 13);
	CHECK_EQ_INT(s.tls_aad[11] << 8 | s.tls_aad[12], 4096);
	ev(&s, EIP93_EV_PARAMS_FAILED, NULL, 0);
	CHECK_EQ_INT(s.tls, EIP93_TLS_SET);
	{
		struct eip93_shadow_ev x = { .ev = EIP93_EV_PARAMS_FAILED, .may_tls = 1 };

		ev(&s, EIP93_EV_TLS_RECORD, NULL, 0);
		eip93_shadow_move(&s, &x);
		CHECK_EQ_INT(s.tls, EIP93_TLS_MAYBE);
		ev(&s, EIP93_EV_FINAL, NULL, 0);
		CHECK_EQ_INT(s.tls, EIP93_TLS_NONE);
	}
}

static void test_openssh(void)
{
	struct eip93_shadow s;
	unsigned char whole[12], out[12], next[12];

	memcpy(whole, iv12, 12);
	whole[11] = 0xff; /* the counter carries into byte 10 */
	eip93_shadow_init(&s);
	init(&s, 1, 1, NULL, 0);
	ev(&s, EIP93_EV_IV_FIXED, whole, (size_t)-1);
	CHECK(eip93_shadow_iv_usable(&s));
	/* IV_GEN(1) hands out the last byte, uses the IV, counts up. */
	out[0] = whole[11];
	ev(&s, EIP93_EV_IV_GEN, out, 1);
	CHECK(eip93_shadow_iv_usable(&s));
	CHECK(memcmp(s.iv, whole, 12) == 0);
	memcpy(next, whole, 12);
	next[11] = 0x00;
	next[10] = (unsigned char)(next[10] + 1);
	CHECK(memcmp(s.gen_iv, next, 12) == 0);
	ev(&s, EIP93_EV_ENGINE, NULL, 32768);
	ev(&s, EIP93_EV_FINAL, NULL, 0);
	CHECK(!eip93_shadow_iv_usable(&s));
	out[0] = next[11];
	ev(&s, EIP93_EV_IV_GEN, out, 1);
	CHECK(eip93_shadow_iv_usable(&s));
	CHECK(memcmp(s.iv, next, 12) == 0);

	/* An IV length change makes the IV the delegate's business until a new one. */
	ev(&s, EIP93_EV_IVLEN, NULL, 16);
	CHECK(!eip93_shadow_iv_usable(&s));
}

static void test_tags_and_failures(void)
{
	struct eip93_shadow s;
	unsigned char tag[16] = { 7 };
	struct eip93_shadow_ev fail = {
		.ev = EIP93_EV_INIT_FAILED, .enc = 0, .data = iv12, .len = 12
	};

	eip93_shadow_init(&s);
	init(&s, 0, 1, iv12, 12);
	ev(&s, EIP93_EV_TAG, tag, 16);
	CHECK_EQ_INT(s.taglen, 16);
	ev(&s, EIP93_EV_TAG, tag, 12);
	CHECK_EQ_INT(s.taglen, 0); /* the engine takes only 16-byte tags */
	ev(&s, EIP93_EV_TAG, tag, 16);
	init(&s, 1, 0, NULL, 0);
	CHECK_EQ_INT(s.taglen, 0); /* a change of direction forgets it */
	init(&s, 0, 0, iv12, 12);
	ev(&s, EIP93_EV_TAG, tag, 16);
	init(&s, 0, 0, iv12, 12);
	CHECK_EQ_INT(s.taglen, 16); /* the delegate keeps a tag across an init */
	eip93_shadow_move(&s, &fail);
	CHECK(!eip93_shadow_iv_usable(&s));
	CHECK_EQ_INT(s.taglen, 0);
}

/* What the delegate's setkey and tag buffer do to state it set up earlier. */
static void test_rekey_and_tag_over_aad(void)
{
	struct eip93_shadow s;
	struct eip93_shadow_ev f = { .ev = EIP93_EV_PARAMS_FAILED, .may_tag = 1 };
	unsigned char hdr[13] = { 0 }, tag[16] = { 0 }, out[8];

	/* IV_GEN sets the IV up in the GCM state; a key-only init wipes it. */
	eip93_shadow_init(&s);
	init(&s, 1, 1, NULL, 0);
	ev(&s, EIP93_EV_IV_FIXED, iv12, (size_t)-1);
	memcpy(out, iv12 + 4, 8);
	ev(&s, EIP93_EV_IV_GEN, out, 8);
	CHECK(eip93_shadow_iv_usable(&s));
	init(&s, 0, 1, NULL, 0);
	CHECK(!eip93_shadow_iv_usable(&s));
	/* ... but an IV buffered by init or by a fixed IV survives a new key. */
	init(&s, 1, 1, iv12, 12);
	init(&s, 1, 1, NULL, 0);
	CHECK(eip93_shadow_iv_usable(&s));
	ev(&s, EIP93_EV_IV_FIXED, iv12, (size_t)-1);
	init(&s, 0, 1, NULL, 0);
	CHECK(eip93_shadow_iv_usable(&s));

	/* IV_GEN or a record with an IV shorter than 8 bytes: software for good. */
	init(&s, 1, 1, iv12, 12);
	ev(&s, EIP93_EV_IV_FIXED, iv12, (size_t)-1);
	ev(&s, EIP93_EV_IVLEN, NULL, 1);
	ev(&s, EIP93_EV_IV_GEN, out, 1);
	ev(&s, EIP93_EV_IVLEN, NULL, 12);
	init(&s, 1, 1, iv12, 12);
	CHECK(!eip93_shadow_iv_usable(&s));
	eip93_shadow_init(&s);
	init(&s, 0, 1, iv12, 12);
	ev(&s, EIP93_EV_IVLEN, NULL, 4);
	ev(&s, EIP93_EV_TLS_RECORD, NULL, 0);
	ev(&s, EIP93_EV_IVLEN, NULL, 12);
	init(&s, 0, 1, iv12, 12);
	CHECK(!eip93_shadow_iv_usable(&s));
	eip93_shadow_init(&s);

	/* A tag lands in the buffer that holds the pending record AAD. */
	hdr[12] = 40;
	init(&s, 0, 1, iv12, 12);
	ev(&s, EIP93_EV_TLS_AAD, hdr, 13);
	CHECK_EQ_INT(s.tls, EIP93_TLS_SET);
	ev(&s, EIP93_EV_TAG, tag, 16);
	CHECK_EQ_INT(s.tls, EIP93_TLS_MAYBE);
	/* ... even when the delegate refuses it (encrypting: it copies first). */
	init(&s, 1, 1, iv12, 12);
	ev(&s, EIP93_EV_TLS_AAD, hdr, 13);
	CHECK_EQ_INT(s.tls, EIP93_TLS_SET);
	eip93_shadow_move(&s, &f);
	CHECK_EQ_INT(s.tls, EIP93_TLS_MAYBE);
	/* A tag with no record pending leaves the record state alone. */
	ev(&s, EIP93_EV_FINAL, NULL, 0);
	eip93_shadow_move(&s, &f);
	CHECK_EQ_INT(s.tls, EIP93_TLS_NONE);
}

int main(void)
{
	test_generic();
	test_zero_length_data();
	test_tls12();
	test_openssh();
	test_tags_and_failures();
	test_rekey_and_tag_over_aad();
	return check_done("test_shadow");
}
