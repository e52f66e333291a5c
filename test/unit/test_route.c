// SPDX-License-Identifier: Apache-2.0
/*
 * alg/route.h, alg/route.c: the one routing decision over every shape, and
 * the reasons of runtime outcomes.  Every software reason must come out of
 * one of the two (test_every_reason).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "../../alg/route.h"

static const struct eip93_route_limits lim = { 4096, 32768 };
static int seen[EIP93_SW_NREASONS];

/* eip93_route(), recording what it gave: only routing reasons, never a runtime outcome. */
static enum eip93_sw_reason route(const struct eip93_route_limits *l,
				  const struct eip93_route_msg *m)
{
	enum eip93_sw_reason r = eip93_route(l, m);

	CHECK(r < EIP93_SW_FIRST_RUNTIME);
	seen[r] = 1;
	return r;
}

static enum eip93_sw_reason outcome(enum eip93_route_stage stage, int err, int at_cap)
{
	const struct eip93_route_run o = { .stage = stage, .err = err, .at_cap = at_cap };
	enum eip93_sw_reason r = eip93_route_outcome(&o);

	CHECK(r != EIP93_SW_NONE);
	seen[r] = 1;
	return r;
}

static struct eip93_route_msg eligible(int enc)
{
	struct eip93_route_msg m;

	memset(&m, 0, sizeof(m));
	m.engine_available = 1;
	m.key_set = 1;
	m.iv_usable = 1;
	m.room = 1;
	m.enc = enc;
	m.ivlen = 12;
	m.taglen = enc ? 0 : 16;
	m.aadlen = 13;
	m.len = 16384;
	return m;
}

/*
 * The scenarios as tables: a step starts again from eligible(enc) (F_FRESH),
 * or sets one field of the message, then checks the reason eip93_route()
 * gives (unless NO_CHECK).
 */
enum field {
	F_FRESH,
	F_ENGINE,
	F_KEY_SET,
	F_KEY_FAILED,
	F_IVLEN,
	F_IV_USABLE,
	F_TLS,
	F_TLS_OK,
	F_TAGLEN,
	F_AADLEN,
	F_LEN,
	F_ROOM,
	F_ADAPT,
};

#define NO_CHECK (-1)

struct step {
	size_t value; /* F_FRESH: enc (2: the scenario's own) */
	enum field field;
	int want; /* enum eip93_sw_reason, or NO_CHECK */
};

static void set_field(struct eip93_route_msg *m, enum field f, size_t v)
{
	switch (f) {
	case F_FRESH:
		break;
	case F_ENGINE:
		m->engine_available = (int)v;
		break;
	case F_KEY_SET:
		m->key_set = (int)v;
		break;
	case F_KEY_FAILED:
		m->key_failed = (int)v;
		break;
	case F_IVLEN:
		m->ivlen = v;
		break;
	case F_IV_USABLE:
		m->iv_usable = (int)v;
		break;
	case F_TLS:
		m->tls = (int)v;
		break;
	case F_TLS_OK:
		m->tls_ok = (int)v;
		break;
	case F_TAGLEN:
		m->taglen = v;
		break;
	case F_AADLEN:
		m->aadlen = v;
		break;
	case F_LEN:
		m->len = v;
		break;
	case F_ROOM:
		m->room = (int)v;
		break;
	case F_ADAPT:
		m->adapt_sw = (int)v;
		break;
	}
}

/* Run the steps from eligible(enc); a F_FRESH step of value 2 starts from it again. */
static void run_steps(const struct step *s, size_t n, int enc)
{
	struct eip93_route_msg m = eligible(enc);

	for (size_t i = 0; i < n; i++) {
		if (s[i].field == F_FRESH)
			m = eligible(s[i].value == 2 ? enc : (int)s[i].value);
		else
			set_field(&m, s[i].field, s[i].value);
		if (s[i].want != NO_CHECK)
			CHECK_EQ_INT(route(&lim, &m), s[i].want);
	}
}

#define RUN_STEPS(steps, enc) run_steps((steps), sizeof(steps) / sizeof((steps)[0]), (enc))

/* The size and AAD bounds, both directions. */
static const struct step eligible_steps[] = {
	{ 16384, F_LEN, EIP93_SW_NONE },  { 4096, F_LEN, EIP93_SW_NONE },
	{ 32768, F_LEN, EIP93_SW_NONE },  { 4095, F_LEN, EIP93_SW_SIZE },
	{ 32769, F_LEN, EIP93_SW_SIZE },  { 0, F_LEN, EIP93_SW_SIZE },
	{ 2, F_FRESH, NO_CHECK },	  { 0, F_AADLEN, EIP93_SW_NONE },
	{ 512, F_AADLEN, EIP93_SW_NONE }, { 513, F_AADLEN, EIP93_SW_AAD },
};

static void test_eligible(void)
{
	for (int enc = 0; enc <= 1; enc++)
		RUN_STEPS(eligible_steps, enc);
}

static const struct step reason_steps[] = {
	{ 1, F_FRESH, NO_CHECK },
	{ 0, F_ENGINE, EIP93_SW_GATE },
	{ 1, F_FRESH, NO_CHECK },
	{ 1, F_KEY_FAILED, EIP93_SW_KEYCHECK },
	/* Adaptive routing's fact comes last: every other reason wins over it. */
	{ 0, F_FRESH, NO_CHECK },
	{ 1, F_ADAPT, EIP93_SW_ADAPT },
	{ 1, F_KEY_FAILED, EIP93_SW_KEYCHECK },
	{ 1, F_FRESH, NO_CHECK },
	{ 1, F_ADAPT, NO_CHECK },
	{ 10, F_LEN, EIP93_SW_SIZE },
	/* The gate is checked first, then nonce, tag, AAD, size, overlap, key. */
	{ 0, F_FRESH, NO_CHECK },
	{ 0, F_ENGINE, NO_CHECK },
	{ 8, F_IVLEN, EIP93_SW_GATE },
	{ 1, F_ENGINE, NO_CHECK },
	{ 4, F_TAGLEN, EIP93_SW_NONCE },
	{ 12, F_IVLEN, NO_CHECK },
	{ 10, F_LEN, EIP93_SW_TAG },
};

static void test_reasons(void)
{
	struct eip93_route_msg m;

	for (size_t iv = 1; iv <= 64; iv++) {
		m = eligible(1);
		m.ivlen = iv;
		CHECK_EQ_INT(route(&lim, &m), iv == 12 ? EIP93_SW_NONE : EIP93_SW_NONCE);
	}
	/* Decrypt needs the full tag before the data; encrypt never looks at it. */
	for (size_t t = 0; t <= 16; t++) {
		m = eligible(0);
		m.taglen = t;
		CHECK_EQ_INT(route(&lim, &m), t == 16 ? EIP93_SW_NONE : EIP93_SW_TAG);
		m = eligible(1);
		m.taglen = t;
		CHECK_EQ_INT(route(&lim, &m), EIP93_SW_NONE);
	}
	RUN_STEPS(reason_steps, 1);
}

/* Every other input that can send a message to software, and their order. */
static const struct step input_steps[] = {
	{ 1, F_FRESH, NO_CHECK },
	{ 0, F_KEY_SET, EIP93_SW_KEY },
	{ 0, F_ENGINE, EIP93_SW_GATE },
	{ 0, F_FRESH, NO_CHECK },
	{ 0, F_IV_USABLE, EIP93_SW_IV },
	{ 16, F_IVLEN, EIP93_SW_NONCE },
	{ 0, F_KEY_SET, EIP93_SW_KEY },
	/* A TLS 1.2 record is judged by its own preconditions, not the generic IV. */
	{ 1, F_FRESH, NO_CHECK },
	{ 1, F_TLS, NO_CHECK },
	{ 0, F_IV_USABLE, EIP93_SW_TLS },
	{ 1, F_TLS_OK, EIP93_SW_NONE },
	{ 8, F_IVLEN, EIP93_SW_NONCE },
	/* No room for the output: the delegate reports it, from software. */
	{ 1, F_FRESH, NO_CHECK },
	{ 0, F_ROOM, EIP93_SW_SIZE },
	{ 600, F_AADLEN, EIP93_SW_AAD },
};

static void test_inputs(void)
{
	RUN_STEPS(input_steps, 1);
}

static void test_overlap(void)
{
	static unsigned char buf[65536];
	struct eip93_route_msg m = eligible(1);

	m.in = buf;
	m.out = buf;
	CHECK_EQ_INT(route(&lim, &m), EIP93_SW_NONE); /* exact in-place */
	m.out = buf + 1;
	CHECK_EQ_INT(route(&lim, &m), EIP93_SW_OVERLAP);
	m.out = buf + m.len - 1;
	CHECK_EQ_INT(route(&lim, &m), EIP93_SW_OVERLAP);
	m.out = buf + m.len;
	CHECK_EQ_INT(route(&lim, &m), EIP93_SW_NONE);
	m.in = buf + m.len;
	m.out = buf;
	CHECK_EQ_INT(route(&lim, &m), EIP93_SW_NONE);
	m.in = buf + 16;
	CHECK_EQ_INT(route(&lim, &m), EIP93_SW_OVERLAP);
	CHECK(!eip93_route_overlap(NULL, buf, 10));
	CHECK(!eip93_route_overlap(buf, buf + 1, 0));
	CHECK(eip93_route_overlap(buf, buf + 1, 2));
}

static void test_limits(void)
{
	struct eip93_route_limits l = { 16, 65536 };
	struct eip93_route_msg m = eligible(1);

	m.len = 16;
	CHECK_EQ_INT(route(&l, &m), EIP93_SW_NONE);
	m.len = 15;
	CHECK_EQ_INT(route(&l, &m), EIP93_SW_SIZE);
	m.len = 65536;
	CHECK_EQ_INT(route(&l, &m), EIP93_SW_NONE);
}

/* The runtime outcomes: what trying the engine showed, as a reason. */
static void test_outcomes(void)
{
	CHECK_EQ_INT(outcome(EIP93_STAGE_SANDBOX, 0, 0), EIP93_SW_SECCOMP);
	/* Opening: at the cap it is the cap; -EMFILE below it is the process's own limit. */
	CHECK_EQ_INT(outcome(EIP93_STAGE_OPEN, -EMFILE, 1), EIP93_SW_SOCKCAP);
	CHECK_EQ_INT(outcome(EIP93_STAGE_OPEN, -EMFILE, 0), EIP93_SW_ERROR);
	CHECK_EQ_INT(outcome(EIP93_STAGE_OPEN, -ENOENT, 1), EIP93_SW_ERROR);
	/* The known-answer check: a resource error retries later, anything else fails the key. */
	CHECK_EQ_INT(outcome(EIP93_STAGE_KEYCHECK, -ENOMEM, 0), EIP93_SW_ERROR);
	CHECK_EQ_INT(outcome(EIP93_STAGE_KEYCHECK, -ENFILE, 0), EIP93_SW_ERROR);
	CHECK_EQ_INT(outcome(EIP93_STAGE_KEYCHECK, -EBADMSG, 0), EIP93_SW_KEYCHECK);
	CHECK_EQ_INT(outcome(EIP93_STAGE_KEYCHECK, -EIO, 0), EIP93_SW_KEYCHECK);
	/* The engine's answer: a backend's -EINVAL is an error like any other. */
	CHECK_EQ_INT(outcome(EIP93_STAGE_ENGINE, EIP93_ENGINE_WRONG, 0), EIP93_SW_FAULT);
	CHECK_EQ_INT(outcome(EIP93_STAGE_ENGINE, -EBADMSG, 0), EIP93_SW_REFUSED);
	CHECK_EQ_INT(outcome(EIP93_STAGE_ENGINE, -EIO, 0), EIP93_SW_ERROR);
	CHECK_EQ_INT(outcome(EIP93_STAGE_ENGINE, -EAGAIN, 0), EIP93_SW_ERROR);
	CHECK_EQ_INT(outcome(EIP93_STAGE_ENGINE, -EINVAL, 0), EIP93_SW_ERROR);
	CHECK_EQ_INT(outcome(EIP93_STAGE_ENGINE, EIP93_RECORD_UNFIT, 0), EIP93_SW_TLS);
	CHECK_EQ_INT(outcome(EIP93_STAGE_REPLAY, 0, 0), EIP93_SW_REPLAY);
	/* The errors that say nothing about the engine. */
	CHECK(eip93_route_resource_error(-ENOMEM) && eip93_route_resource_error(-ENOBUFS) &&
	      eip93_route_resource_error(-EMFILE) && eip93_route_resource_error(-ENFILE) &&
	      eip93_route_resource_error(-EFAULT));
	CHECK(!eip93_route_resource_error(-EIO) && !eip93_route_resource_error(-EBADMSG) &&
	      !eip93_route_resource_error(0));
}

/* Every software reason is given by eip93_route() or eip93_route_outcome(). */
static void test_every_reason(void)
{
	for (int r = EIP93_SW_GATE; r < EIP93_SW_NREASONS; r++) {
		if (!seen[r])
			fprintf(stderr, "reason %s: given by neither route nor outcome\n",
				eip93_sw_reason_name((enum eip93_sw_reason)r));
		CHECK(seen[r]);
	}
	CHECK(seen[EIP93_SW_NONE]);
}

static void test_names(void)
{
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_SIZE), "size") == 0);
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_SOCKCAP), "socket-cap") == 0);
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_FAULT), "fault") == 0);
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_SECCOMP), "seccomp") == 0);
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_REFUSED), "tag-refused") == 0);
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_IV), "iv") == 0);
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_ADAPT), "adaptive") == 0);
	CHECK(strcmp(eip93_sw_reason_name(EIP93_SW_NREASONS), "unknown") == 0);
	for (int r = 0; r < EIP93_SW_NREASONS; r++)
		CHECK(strcmp(eip93_sw_reason_name(r), "unknown") != 0);
}

int main(void)
{
	test_eligible();
	test_reasons();
	test_inputs();
	test_overlap();
	test_limits();
	test_outcomes();
	test_every_reason();
	test_names();
	return check_done("test_route");
}
