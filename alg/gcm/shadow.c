// SPDX-License-Identifier: Apache-2.0
/*
 * The shadow state's one transition function.  Each case states what the
 * default provider's GCM (providers/implementations/ciphers/
 * ciphercommon_gcm.c) does on that call, and keeps of it only what we can
 * reproduce exactly; whatever we cannot is marked unusable, which sends the
 * message to software, where the delegate decides.
 */
#include "shadow.h"

#include <string.h>

#define SHADOW_INVOCATION 8 /* the last 8 bytes of a generated IV count up */

void eip93_shadow_init(struct eip93_shadow *s)
{
	memset(s, 0, sizeof(*s));
	s->ivlen = EIP93_SHADOW_IVLEN;
}

int eip93_shadow_iv_usable(const struct eip93_shadow *s)
{
	return !s->poisoned && s->ivlen == EIP93_SHADOW_IVLEN && s->msg == EIP93_MSG_IDLE &&
	       (s->iv_state == EIP93_IV_READY || s->iv_state == EIP93_IV_STARTED);
}

int eip93_shadow_tls_iv(const struct eip93_shadow *s, const unsigned char *explicit_iv,
			unsigned char *iv)
{
	const size_t fixed = EIP93_SHADOW_IVLEN - SHADOW_INVOCATION;

	if (s->poisoned || s->ivlen != EIP93_SHADOW_IVLEN || s->gen_known < fixed)
		return -1;
	memcpy(iv, s->gen_iv, fixed);
	memcpy(iv + fixed, explicit_iv, SHADOW_INVOCATION);
	return 0;
}

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The bytes of the IV buffer that a counter step or an explicit IV leaves alone. */
static size_t prefix_len(const struct eip93_shadow *s)
{
	return s->ivlen > SHADOW_INVOCATION ? s->ivlen - SHADOW_INVOCATION : 0;
}

static void ctr64_inc(unsigned char *c)
{
	for (int n = SHADOW_INVOCATION - 1; n >= 0; n--)
		if (++c[n] != 0)
			return;
}

/* The delegate set up a new message with its IV buffer: is that an IV we know? */
static void take_gen_iv(struct eip93_shadow *s)
{
	s->msg = EIP93_MSG_IDLE;
	s->aadlen = 0;
	if (s->ivlen == EIP93_SHADOW_IVLEN && s->gen_known >= EIP93_SHADOW_IVLEN) {
		memcpy(s->iv, s->gen_iv, EIP93_SHADOW_IVLEN);
		s->iv_state = EIP93_IV_READY;
	} else {
		s->iv_state = EIP93_IV_NONE;
	}
}

/* init with an IV: the delegate buffers it (and its IV buffer now holds it). */
static void on_init_iv(struct eip93_shadow *s, const unsigned char *iv, size_t len)
{
	s->ivlen = len;
	s->iv_copied = 0; /* buffered again */
	s->gen_known = min_sz(len, EIP93_SHADOW_IVLEN);
	if (len == EIP93_SHADOW_IVLEN)
		memcpy(s->gen_iv, iv, EIP93_SHADOW_IVLEN); /* the usual length, copied inline */
	else
		memcpy(s->gen_iv, iv, s->gen_known);
	take_gen_iv(s);
}

static void on_init(struct eip93_shadow *s, const struct eip93_shadow_ev *e)
{
	if (e->enc != s->enc)
		s->taglen = 0; /* the delegate's tag buffer may no longer hold it */
	s->enc = e->enc;
	if (e->data != NULL)
		on_init_iv(s, e->data, e->len);
	else if (e->has_key && (s->iv_state == EIP93_IV_STARTED || s->msg != EIP93_MSG_IDLE ||
				(s->iv_copied && s->iv_state == EIP93_IV_READY)))
		/*
		 * A key change mid-message, or after IV_GEN/IV_INV set the IV up:
		 * the new key wipes the delegate's GCM state and it goes on from
		 * there without setting the IV up again.  The delegate's business.
		 */
		s->iv_state = EIP93_IV_NONE;
}

/*
 * The delegate takes a tag into the buffer that holds a pending record AAD
 * (before it checks anything, so even when it refuses the tag): the record
 * it would make now is not the one the caller set up.  Software makes it.
 */
static void on_tag_bytes(struct eip93_shadow *s)
{
	if (s->tls == EIP93_TLS_SET)
		s->tls = EIP93_TLS_MAYBE;
}

/* A refused call may have applied part of itself: keep nothing we cannot prove. */
static void on_failure(struct eip93_shadow *s, int may_tls, int may_tag)
{
	s->iv_state = EIP93_IV_NONE;
	s->gen_known = 0;
	s->taglen = 0;
	if (may_tag)
		on_tag_bytes(s);
	if (may_tls)
		s->tls = EIP93_TLS_MAYBE;
}

static void on_aad(struct eip93_shadow *s, const unsigned char *aad, size_t len)
{
	if (s->iv_state == EIP93_IV_READY)
		s->iv_state = EIP93_IV_STARTED;
	if (s->msg == EIP93_MSG_IDLE && s->aadlen + len <= sizeof(s->aad) && aad != NULL)
		memcpy(s->aad + s->aadlen, aad, len);
	s->aadlen += len;
}

static void on_final(struct eip93_shadow *s)
{
	if (s->iv_state != EIP93_IV_NONE)
		s->iv_state = EIP93_IV_DONE; /* GCM never reuses an IV */
	s->msg = EIP93_MSG_IDLE;
	s->aadlen = 0;
	s->taglen = 0;
	s->tls = EIP93_TLS_NONE; /* the delegate's final ends a pending record too */
}

/* TLS1_AAD: the delegate keeps the record AAD with its length corrected. */
static void on_tls_aad(struct eip93_shadow *s, const unsigned char *aad, size_t len)
{
	unsigned char *b = s->tls_aad;
	size_t n;

	s->taglen = 0; /* the record AAD lives in the delegate's tag buffer */
	if (len != EIP93_SHADOW_TLS_AAD) {
		s->tls = EIP93_TLS_MAYBE;
		return;
	}
	memcpy(b, aad, len);
	n = ((size_t)b[len - 2] << 8 | b[len - 1]) - SHADOW_INVOCATION;
	if (!s->enc)
		n -= EIP93_SHADOW_TAGLEN;
	b[len - 2] = (unsigned char)(n >> 8);
	b[len - 1] = (unsigned char)(n & 0xff);
	s->tls = EIP93_TLS_SET;
}

/*
 * OpenSSL's GCM hands out and takes the last 8 bytes of its IV buffer
 * (IV_GEN, SET_IV_INV, a TLS record) as if the IV were at least that long:
 * with a shorter IV it writes before the buffer, over its own IV state and
 * flags.  Whatever it does after that, software does it: for good.
 */
static void check_invocation(struct eip93_shadow *s, size_t len)
{
	if (s->ivlen < len)
		s->poisoned = 1;
}

/* A record generates or takes an explicit IV and always finishes the IV. */
static void on_tls_record(struct eip93_shadow *s)
{
	check_invocation(s, SHADOW_INVOCATION);
	s->iv_state = EIP93_IV_DONE;
	s->tls = EIP93_TLS_NONE;
	s->msg = EIP93_MSG_IDLE;
	s->aadlen = 0;
	s->gen_known = min_sz(s->gen_known, prefix_len(s));
}

static void on_iv_fixed(struct eip93_shadow *s, const unsigned char *v, size_t len)
{
	s->gen = 1;	  /* the delegate never clears it */
	s->iv_copied = 0; /* buffered again */
	if (len == (size_t)-1) {
		/* OpenSSH: the whole IV, counting up from here. */
		s->gen_known = min_sz(s->ivlen, EIP93_SHADOW_IVLEN);
		memcpy(s->gen_iv, v, s->gen_known);
	} else {
		size_t n = min_sz(len, EIP93_SHADOW_IVLEN);

		memcpy(s->gen_iv, v, n);
		/* Encrypting, the rest is random; decrypting, it stays as it was. */
		s->gen_known = s->enc || s->gen_known < n ? n : s->gen_known;
	}
	take_gen_iv(s);
}

static void on_iv_gen(struct eip93_shadow *s, const unsigned char *out, size_t len)
{
	size_t olen = len == 0 || len > s->ivlen ? s->ivlen : len;

	s->iv_copied = 1;
	check_invocation(s, SHADOW_INVOCATION);

	/* The delegate hands out the last olen bytes of its IV buffer, uses it, counts up. */
	if (s->ivlen == EIP93_SHADOW_IVLEN && s->gen_known + olen >= EIP93_SHADOW_IVLEN) {
		memcpy(s->gen_iv + EIP93_SHADOW_IVLEN - olen, out, olen);
		s->gen_known = EIP93_SHADOW_IVLEN;
		take_gen_iv(s);
		ctr64_inc(s->gen_iv + EIP93_SHADOW_IVLEN - SHADOW_INVOCATION);
	} else {
		s->gen_known = min_sz(s->gen_known, prefix_len(s));
		take_gen_iv(s);
	}
}

static void on_iv_inv(struct eip93_shadow *s, const unsigned char *v, size_t len)
{
	s->iv_copied = 1;
	check_invocation(s, len);
	if (s->ivlen == EIP93_SHADOW_IVLEN && len <= EIP93_SHADOW_IVLEN &&
	    s->gen_known + len >= EIP93_SHADOW_IVLEN) {
		memcpy(s->gen_iv + EIP93_SHADOW_IVLEN - len, v, len);
		s->gen_known = EIP93_SHADOW_IVLEN;
	} else {
		s->gen_known = min_sz(s->gen_known, len <= s->ivlen ? s->ivlen - len : 0);
	}
	take_gen_iv(s);
}

static void on_tag(struct eip93_shadow *s, const unsigned char *tag, size_t len)
{
	on_tag_bytes(s);
	s->taglen = 0;
	if (!s->enc && tag != NULL && len == EIP93_SHADOW_TAGLEN && s->msg == EIP93_MSG_IDLE) {
		memcpy(s->tag, tag, len);
		s->taglen = len;
	}
}

void eip93_shadow_step(struct eip93_shadow *s, const struct eip93_shadow_ev *e)
{
	switch (e->ev) {
	case EIP93_EV_INIT:
		on_init(s, e);
		break;
	case EIP93_EV_INIT_FAILED:
		if (e->enc != s->enc)
			s->taglen = 0;
		s->enc = e->enc;
		on_failure(s, e->may_tls, e->may_tag);
		break;
	case EIP93_EV_AAD:
		on_aad(s, e->data, e->len);
		break;
	case EIP93_EV_DATA:
		eip93_shadow_on_data(s, e->len, EIP93_MSG_SOFTWARE);
		break;
	case EIP93_EV_ENGINE:
		eip93_shadow_on_data(s, e->len, EIP93_MSG_ENGINE);
		break;
	case EIP93_EV_REPLAY:
		s->msg = EIP93_MSG_SOFTWARE;
		break;
	case EIP93_EV_FINAL:
		on_final(s);
		break;
	case EIP93_EV_TLS_AAD:
		on_tls_aad(s, e->data, e->len);
		break;
	case EIP93_EV_TLS_RECORD:
		on_tls_record(s);
		break;
	case EIP93_EV_IV_FIXED:
		on_iv_fixed(s, e->data, e->len);
		break;
	case EIP93_EV_IV_GEN:
		on_iv_gen(s, e->data, e->len);
		break;
	case EIP93_EV_IV_INV:
		on_iv_inv(s, e->data, e->len);
		break;
	case EIP93_EV_IVLEN:
		if (e->len != s->ivlen) {
			if (s->iv_state != EIP93_IV_NONE)
				s->iv_state = EIP93_IV_DONE;
			s->ivlen = e->len;
		}
		break;
	case EIP93_EV_TAG:
		on_tag(s, e->data, e->len);
		break;
	case EIP93_EV_PARAMS_FAILED:
		on_failure(s, e->may_tls, e->may_tag);
		break;
	}
}
