// SPDX-License-Identifier: Apache-2.0
/*
 * The routing rule's helpers (eip93_route() itself is inline in route.h: it
 * runs per message) and the reasons of runtime outcomes.
 */
#include "route.h"

#include <stdint.h>

int eip93_route_overlap(const unsigned char *in, const unsigned char *out, size_t len)
{
	uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;

	if (in == NULL || out == NULL || len == 0 || a == b)
		return 0; /* exact in-place is fine */
	return a < b ? b - a < len : a - b < len;
}

enum eip93_sw_reason eip93_route_outcome(const struct eip93_route_run *o)
{
	switch (o->stage) {
	case EIP93_STAGE_SANDBOX:
		return EIP93_SW_SECCOMP;
	case EIP93_STAGE_OPEN:
		return o->err == -EMFILE && o->at_cap ? EIP93_SW_SOCKCAP : EIP93_SW_ERROR;
	case EIP93_STAGE_KEYCHECK:
		return eip93_route_resource_error(o->err) ? EIP93_SW_ERROR : EIP93_SW_KEYCHECK;
	case EIP93_STAGE_ENGINE:
		if (o->err == EIP93_ENGINE_WRONG)
			return EIP93_SW_FAULT;
		if (o->err == -EBADMSG)
			return EIP93_SW_REFUSED;
		if (o->err == EIP93_RECORD_UNFIT)
			return EIP93_SW_TLS;
		return EIP93_SW_ERROR;
	case EIP93_STAGE_REPLAY:
		return EIP93_SW_REPLAY;
	}
	return EIP93_SW_ERROR;
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
		[EIP93_SW_REFUSED] = "tag-refused",
	};

	if ((unsigned int)r >= EIP93_SW_NREASONS)
		return "unknown";
	return names[r];
}
