// SPDX-License-Identifier: Apache-2.0
/*
 * The one routing decision: engine or software, per message, and why.
 *
 * Every reason a message goes to software is an enum eip93_sw_reason, and
 * each is given here, in two kinds:
 *   - routing reasons (EIP93_SW_GATE .. EIP93_SW_ADAPT): eip93_route(),
 *     before anything runs, from the facts in struct eip93_route_msg;
 *   - runtime outcomes (EIP93_SW_FIRST_RUNTIME ..): eip93_route_outcome(),
 *     from what trying the engine for an eligible message showed (the
 *     process's sandbox, the key's open and known-answer check, the
 *     engine's answer, a replay).
 * Both are pure, so host tests drive them through every shape (test_route).
 * The engine message pipeline (pipeline.h, inline) is their only caller on
 * the data path; the side effects of an outcome (error and fault accounting,
 * the engine switched off) are account.c's.  docs/contract.md "Eligible
 * messages".
 */
#ifndef EIP93_ROUTE_H
#define EIP93_ROUTE_H

#include <errno.h>
#include <stddef.h>

#include "../engine/shape.h"

/* Why a message went to software; EIP93_SW_NONE means "engine". */
enum eip93_sw_reason {
	EIP93_SW_NONE = 0,
	/* Routing reasons: eip93_route(), in the order it asks. */
	EIP93_SW_GATE,	   /* engine not available in this process */
	EIP93_SW_KEY,	   /* no usable key in the context */
	EIP93_SW_NONCE,	   /* IV length other than 12 */
	EIP93_SW_IV,	   /* not an IV we can reproduce, or already used */
	EIP93_SW_TLS,	   /* TLS 1.2 record the engine cannot take as it stands (also an
			      outcome: the engine step found it so) */
	EIP93_SW_TAG,	   /* decrypt without a 16-byte tag set before the data */
	EIP93_SW_AAD,	   /* more than EIP93_ROUTE_MAX_AAD bytes of AAD */
	EIP93_SW_SIZE,	   /* payload outside [min-size, max-size], or no room for it */
	EIP93_SW_OVERLAP,  /* input and output partially overlap */
	EIP93_SW_KEYCHECK, /* this key failed its known-answer check or an integrity check
			      (also an outcome: its check failed now) */
	EIP93_SW_ADAPT,	   /* adaptive routing: software measured cheaper now (adapt.h) */
	/* Runtime outcomes: eip93_route_outcome(). */
	EIP93_SW_SECCOMP, /* the process runs under a seccomp filter (or its state is unreadable) */
	EIP93_SW_SOCKCAP, /* process-wide socket cap reached */
	EIP93_SW_ERROR,	  /* an engine error sent the message back */
	EIP93_SW_REPLAY,  /* left the engine mid-message by a replay */
	EIP93_SW_FAULT,	  /* the engine's result failed its integrity check */
	EIP93_SW_REFUSED, /* decryption: the engine refused the tag; software decides the message */
	EIP93_SW_NREASONS
};
#define EIP93_SW_FIRST_RUNTIME EIP93_SW_SECCOMP

/* Hard limits the configuration may not leave. */
#define EIP93_ROUTE_MIN_SIZE_FLOOR 16
#define EIP93_ROUTE_MAX_SIZE_CEIL 65536
#define EIP93_ROUTE_MAX_AAD EIP93_ENGINE_MAX_AAD
#define EIP93_ROUTE_IVLEN EIP93_ENGINE_IVLEN
#define EIP93_ROUTE_TAGLEN EIP93_ENGINE_TAGLEN

struct eip93_route_limits {
	size_t min_size; /* smallest payload for the engine */
	size_t max_size; /* largest payload for the engine */
};

struct eip93_route_msg {
	int engine_available; /* gate open, engine not switched off */
	int key_set;	      /* the context holds a key */
	int key_failed;	      /* the key failed a check earlier */
	int enc;	      /* 1 encrypt, 0 decrypt */
	size_t ivlen;
	int iv_usable; /* generic message: the IV is known and unused (shadow state) */
	int tls;       /* a TLS 1.2 record (explicit IV || payload || tag) */
	int tls_ok;    /* its preconditions: fixed IV and record AAD known, in place */
	size_t taglen; /* decrypt: tag length set before the data, 0 if none */
	size_t aadlen;
	size_t len; /* payload bytes of the whole message */
	int room;   /* the output buffer can take the payload */
	const unsigned char *in;
	const unsigned char *out;
	int adapt_sw; /* adaptive routing: software costs less now (adapt.h) */
};

/* eip93_route_overlap() - do [in, in+len) and [out, out+len) partially overlap? */
int eip93_route_overlap(const unsigned char *in, const unsigned char *out, size_t len);

/**
 * eip93_route() - where does this message go?
 *
 * Inline (it runs per message, and its callers' facts then stay in
 * registers); host tests drive it through every shape (test_route).
 *
 * Return: EIP93_SW_NONE for the engine, otherwise the first reason, in the
 * order of enum eip93_sw_reason, that sends it to software.
 */
static inline enum eip93_sw_reason eip93_route(const struct eip93_route_limits *lim,
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

/* Where trying the engine for an eligible message stopped (eip93_route_outcome). */
enum eip93_route_stage {
	EIP93_STAGE_SANDBOX,  /* the process is sandboxed: no descriptor may open */
	EIP93_STAGE_OPEN,     /* opening the key on the engine failed with @err */
	EIP93_STAGE_KEYCHECK, /* its known-answer check: @err -EBADMSG (wrong) or -errno */
	EIP93_STAGE_ENGINE,   /* the engine step's answer: EIP93_ENGINE_WRONG, EIP93_RECORD_UNFIT,
				 -EBADMSG or -errno */
	EIP93_STAGE_REPLAY,   /* the message left the engine mid-way by a replay */
};

/* The facts of a runtime outcome. */
struct eip93_route_run {
	enum eip93_route_stage stage;
	int err;    /* -errno, EIP93_ENGINE_WRONG or EIP93_RECORD_UNFIT */
	int at_cap; /* EIP93_STAGE_OPEN: the process's engine resources are at the cap */
};

/*
 * eip93_route_resource_error() - an error that says nothing about the engine:
 * the process is short of memory or descriptors, or handed a bad buffer.
 */
static inline int eip93_route_resource_error(int err)
{
	return err == -ENOMEM || err == -ENOBUFS || err == -EMFILE || err == -ENFILE ||
	       err == -EFAULT;
}

/**
 * eip93_route_outcome() - the software reason of a runtime outcome.
 *
 * SANDBOX: seccomp.  OPEN: socket-cap at the cap with -EMFILE, else error.
 * KEYCHECK: error for a resource error (the key is tried again), else
 * key-check.  ENGINE: fault for a wrong result, tag-refused for -EBADMSG,
 * tls for EIP93_RECORD_UNFIT (a TLS 1.2 record not put to the engine), else
 * error: a backend's -EINVAL is an engine error like any other.  REPLAY: replay.
 */
enum eip93_sw_reason eip93_route_outcome(const struct eip93_route_run *o);

/* eip93_sw_reason_name() - short stable name, used in counter names. */
const char *eip93_sw_reason_name(enum eip93_sw_reason r);

#endif /* EIP93_ROUTE_H */
