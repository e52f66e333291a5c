// SPDX-License-Identifier: Apache-2.0
/*
 * The one routing decision: engine or software, per message.
 *
 * Pure: it looks only at the facts it is given, so host tests can drive it
 * through every shape.  Called once per message (at the first data update or
 * at a TLS 1.2 record); the answer is kept in the cipher context.
 */
#ifndef EIP93_ROUTE_H
#define EIP93_ROUTE_H

#include <stddef.h>

/* Why a message went to software; EIP93_SW_NONE means "engine". */
enum eip93_sw_reason {
	EIP93_SW_NONE = 0,
	EIP93_SW_GATE,		/* engine not available in this process */
	EIP93_SW_SIZE,		/* payload outside [min-size, max-size] */
	EIP93_SW_NONCE,		/* IV length other than 12 */
	EIP93_SW_TAG,		/* decrypt without a 16-byte tag set before the data */
	EIP93_SW_AAD,		/* more than EIP93_ROUTE_MAX_AAD bytes of AAD */
	EIP93_SW_OVERLAP,	/* input and output partially overlap */
	EIP93_SW_KEYCHECK,	/* this key failed its known-answer check */
	EIP93_SW_ERROR,		/* an AF_ALG error sent the message back */
	EIP93_SW_REPLAY,	/* left the engine mid-message by a replay */
	EIP93_SW_SOCKCAP,	/* process-wide socket cap reached */
	EIP93_SW_NREASONS
};

/* Hard limits the configuration may not leave. */
#define EIP93_ROUTE_MIN_SIZE_FLOOR 16
#define EIP93_ROUTE_MAX_SIZE_CEIL 65536
#define EIP93_ROUTE_MAX_AAD 512
#define EIP93_ROUTE_IVLEN 12
#define EIP93_ROUTE_TAGLEN 16

struct eip93_route_limits {
	size_t min_size;	/* smallest payload for the engine */
	size_t max_size;	/* largest payload for the engine */
};

struct eip93_route_msg {
	int engine_available;	/* gate open, engine not disabled */
	int key_failed;		/* the key failed its check earlier */
	int enc;		/* 1 encrypt, 0 decrypt */
	size_t ivlen;
	size_t taglen;		/* decrypt: tag length set before the data, 0 if none */
	size_t aadlen;
	size_t len;		/* payload bytes of the whole message */
	const unsigned char *in;
	const unsigned char *out;
};

/**
 * eip93_route() - where does this message go?
 *
 * Return: EIP93_SW_NONE for the engine, otherwise the first reason (in the
 * order of enum eip93_sw_reason) that sends it to software.
 */
enum eip93_sw_reason eip93_route(const struct eip93_route_limits *lim,
				 const struct eip93_route_msg *m);

/* eip93_route_overlap() - do [in, in+len) and [out, out+len) partially overlap? */
int eip93_route_overlap(const unsigned char *in, const unsigned char *out, size_t len);

/* eip93_sw_reason_name() - short stable name, used in counter names. */
const char *eip93_sw_reason_name(enum eip93_sw_reason r);

#endif /* EIP93_ROUTE_H */
