// SPDX-License-Identifier: Apache-2.0
/*
 * What the cipher context knows of its software delegate's state: the IV the
 * delegate will use, where the current message's data went, its AAD and
 * decrypt tag, a pending TLS 1.2 record AAD, and whether the delegate's tag
 * buffer still holds an engine tag.  It mirrors OpenSSL's GCM iv_state
 * (uninitialised, buffered, copied, finished) with "known to us" folded in:
 * an IV the delegate holds but we cannot reproduce is simply not ours to use.
 *
 * One function, eip93_shadow_move(), moves it after every delegate call.
 * Pure code (no OpenSSL): host tests drive it through every event.
 */
#ifndef EIP93_SHADOW_H
#define EIP93_SHADOW_H

#include <stddef.h>
#include <stdint.h>

#define EIP93_SHADOW_IVLEN 12
#define EIP93_SHADOW_MAX_AAD 512
#define EIP93_SHADOW_TAGLEN 16
#define EIP93_SHADOW_TLS_AAD 13

enum eip93_iv_state {
	EIP93_IV_NONE = 0, /* no IV we can reproduce: unset, the delegate's own, or lost */
	EIP93_IV_READY,	   /* iv[] is what the next message uses; nothing of it seen yet */
	EIP93_IV_STARTED,  /* a message with iv[] has begun (AAD, a zero-length update) */
	EIP93_IV_DONE,	   /* that message ended: the delegate wants a new IV */
};

enum eip93_msg_state {
	EIP93_MSG_IDLE = 0, /* no data yet */
	EIP93_MSG_SOFTWARE, /* the delegate has the data */
	EIP93_MSG_ENGINE,   /* the engine did the data; the delegate saw IV and AAD only */
};

enum eip93_tls_state {
	EIP93_TLS_NONE = 0, /* no record AAD pending */
	EIP93_TLS_SET,	    /* tls_aad[] pending, as the delegate corrected it */
	EIP93_TLS_MAYBE,    /* a failed parameter call may have left one pending */
};

struct eip93_shadow {
	int enc;
	enum eip93_iv_state iv_state;
	enum eip93_msg_state msg;
	size_t ivlen;			      /* the delegate's IV length */
	unsigned char iv[EIP93_SHADOW_IVLEN]; /* the message IV (READY, STARTED) */

	/* IV generation (TLS fixed IV, OpenSSH's whole IV): the delegate's IV buffer. */
	int gen;	  /* IV_FIXED accepted: IV_GEN/IV_INV work */
	int iv_copied;	  /* IV_GEN/IV_INV set the IV up in the delegate's GCM state */
	int poisoned;	  /* the delegate wrote outside its IV (IV length < 8): software for good */
	size_t gen_known; /* leading bytes of gen_iv[] we know */
	unsigned char gen_iv[EIP93_SHADOW_IVLEN];

	size_t aadlen; /* AAD of this message; may exceed aad[] */
	unsigned char aad[EIP93_SHADOW_MAX_AAD];
	size_t taglen; /* decrypt: tag bytes set before any data */
	unsigned char tag[EIP93_SHADOW_TAGLEN];

	enum eip93_tls_state tls;
	unsigned char tls_aad[EIP93_SHADOW_TLS_AAD];
};

enum eip93_shadow_event {
	EIP93_EV_INIT,		/* init accepted: enc, has_key, data/len = IV (data NULL: none) */
	EIP93_EV_INIT_FAILED,	/* init refused: enc, data = IV given, may_tls */
	EIP93_EV_AAD,		/* AAD of len bytes accepted (data: the bytes) */
	EIP93_EV_DATA,		/* len bytes of data went to the delegate (len 0: set-up only) */
	EIP93_EV_ENGINE,	/* the engine did the message's data */
	EIP93_EV_REPLAY,	/* an engine message was replayed into the delegate */
	EIP93_EV_FINAL,		/* final or cipher(NULL), whatever its result */
	EIP93_EV_TLS_AAD,	/* TLS1_AAD accepted: data/len */
	EIP93_EV_TLS_RECORD,	/* a TLS 1.2 record was processed, either path, any result */
	EIP93_EV_IV_FIXED,	/* IV_FIXED accepted: data/len (SIZE_MAX: the whole IV) */
	EIP93_EV_IV_GEN,	/* IV_GEN answered: data/len = the bytes handed out */
	EIP93_EV_IV_INV,	/* SET_IV_INV accepted: data/len */
	EIP93_EV_IVLEN,		/* AEAD_IVLEN accepted: len */
	EIP93_EV_TAG,		/* decrypt tag accepted: data/len */
	EIP93_EV_PARAMS_FAILED, /* set_ctx_params refused midway: may_tls */
};

struct eip93_shadow_ev {
	enum eip93_shadow_event ev;
	int enc;     /* INIT, INIT_FAILED */
	int has_key; /* INIT: a key came with it */
	int may_tls; /* INIT_FAILED, PARAMS_FAILED: the call carried a TLS1_AAD */
	int may_tag; /* INIT_FAILED, PARAMS_FAILED: the call carried a tag */
	const unsigned char *data;
	size_t len;
};

/* eip93_shadow_init() - a fresh context: no IV, 12-byte IV length. */
void eip93_shadow_init(struct eip93_shadow *s);

/* eip93_shadow_step() - every event's transition (shadow.c); callers use eip93_shadow_move(). */
void eip93_shadow_step(struct eip93_shadow *s, const struct eip93_shadow_ev *e);

/* The data events' transition, the one every message pays: inline (test/icount). */
static inline void eip93_shadow_on_data(struct eip93_shadow *s, size_t len, enum eip93_msg_state to)
{
	if (s->iv_state == EIP93_IV_READY)
		s->iv_state = EIP93_IV_STARTED;
	/*
	 * Even without data, the delegate's data call closes the AAD's last
	 * partial block: AAD that follows starts a new block, which one AEAD
	 * operation cannot express.
	 */
	if (len == 0 && to == EIP93_MSG_SOFTWARE && s->aadlen % 16 != 0)
		s->iv_state = EIP93_IV_NONE;
	if (len > 0 || to == EIP93_MSG_ENGINE)
		s->msg = to;
}

/*
 * eip93_shadow_move() - the one transition function: the data events
 * inline at the call site (a constant event folds to a few stores), every
 * other event in eip93_shadow_step().
 */
static inline __attribute__((always_inline)) void eip93_shadow_move(struct eip93_shadow *s,
								    const struct eip93_shadow_ev *e)
{
	if (e->ev == EIP93_EV_DATA || e->ev == EIP93_EV_ENGINE)
		eip93_shadow_on_data(s, e->len,
				     e->ev == EIP93_EV_ENGINE ? EIP93_MSG_ENGINE
							      : EIP93_MSG_SOFTWARE);
	else
		eip93_shadow_step(s, e);
}

/* eip93_shadow_iv_usable() - may the next data start an engine message with iv[]? */
int eip93_shadow_iv_usable(const struct eip93_shadow *s);

/* eip93_shadow_tls_iv() - the IV of a TLS 1.2 record: fixed part || explicit IV; 0 or -1. */
int eip93_shadow_tls_iv(const struct eip93_shadow *s, const unsigned char *explicit_iv,
			unsigned char *iv);

#endif /* EIP93_SHADOW_H */
