// SPDX-License-Identifier: Apache-2.0
/* The routing rule (see route.h): the only place that decides engine or software. */
#include "route.h"

#include <stdint.h>

int eip93_route_overlap(const unsigned char *in, const unsigned char *out, size_t len)
{
	uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;

	if (in == NULL || out == NULL || len == 0 || a == b)
		return 0; /* exact in-place is fine */
	return a < b ? b - a < len : a - b < len;
}

enum eip93_sw_reason eip93_route(const struct eip93_route_limits *lim,
				 const struct eip93_route_msg *m)
{
	if (!m->engine_available)
		return EIP93_SW_GATE;
	if (!m->key_set)
		return EIP93_SW_KEY;
	if (m->ivlen != EIP93_ROUTE_IVLEN)
		return EIP93_SW_NONCE;
	if (m->tls ? !m->tls_ok : !m->iv_usable)
		return m->tls ? EIP93_SW_TLS : EIP93_SW_IV;
	if (!m->enc && m->taglen != EIP93_ROUTE_TAGLEN)
		return EIP93_SW_TAG;
	if (m->aadlen > EIP93_ROUTE_MAX_AAD)
		return EIP93_SW_AAD;
	if (m->len < lim->min_size || m->len > lim->max_size || !m->room)
		return EIP93_SW_SIZE;
	if (eip93_route_overlap(m->in, m->out, m->len))
		return EIP93_SW_OVERLAP;
	if (m->key_failed)
		return EIP93_SW_KEYCHECK;
	if (m->adapt_sw) /* adaptive routing (adapt.h): the last fact, asked only of eligible ones */
		return EIP93_SW_ADAPT;
	return EIP93_SW_NONE;
}

const char *eip93_sw_reason_name(enum eip93_sw_reason r)
{
	static const char *const names[EIP93_SW_NREASONS] = {
		[EIP93_SW_NONE] = "engine",
		[EIP93_SW_GATE] = "gate",
		[EIP93_SW_KEY] = "key",
		[EIP93_SW_NONCE] = "nonce",
		[EIP93_SW_IV] = "iv",
		[EIP93_SW_TLS] = "tls",
		[EIP93_SW_TAG] = "tag",
		[EIP93_SW_AAD] = "aad",
		[EIP93_SW_SIZE] = "size",
		[EIP93_SW_OVERLAP] = "overlap",
		[EIP93_SW_KEYCHECK] = "key-check",
		[EIP93_SW_SOCKCAP] = "socket-cap",
		[EIP93_SW_ERROR] = "error",
		[EIP93_SW_REPLAY] = "replay",
		[EIP93_SW_FAULT] = "fault",
		[EIP93_SW_ADAPT] = "adaptive",
		[EIP93_SW_SECCOMP] = "seccomp",
	};

	if ((unsigned int)r >= EIP93_SW_NREASONS)
		return "unknown";
	return names[r];
}
