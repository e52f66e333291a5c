// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-ahead-check: AES-GCM's keystream ahead through the real
 * provider (the hooks build, the fake engine completing asynchronously),
 * every output compared byte for byte with the default provider in a
 * second library context (ahead_pair.c).  Streams, each sealed on one pair
 * of contexts and opened on another:
 *   a  TLS 1.3: nonce = static IV XOR the sequence number, 16 KiB + 1 byte
 *      records and a short last one;
 *   b  incrementing nonces: the low 64 bits + 1 by init; OpenSSH's
 *      SET_IV_FIXED(-1) and IV_GEN; TLS 1.2 records (SET_IV_FIXED, the
 *      explicit IV generated, EVP_Cipher);
 *   c  the same nonce repeated (openssl speed);
 *   d  mispredictions in a TLS 1.3 stream: a random nonce, a record longer
 *      than predicted, a tiny record (software by size), a wrong tag;
 *   e  re-key in the middle (a new key, then the same key again);
 *   f  EVP_CIPHER_CTX_copy in the middle: both copies continue;
 *   h  in place: a TLS 1.3 stream sealed and opened in place (one buffer);
 *   g  fork in the middle: the child continues (and must not use the
 *      keystream its parent's engine computed: eip93-keystream-ahead-used
 *      stays put over its first record), so does the parent.
 *
 *   eip93-ahead-check [--ahead on|off|any] [--fault faults|errors] [--only LETTERS]
 *
 * --ahead on: in (a), (b) and (c), where nothing is mispredicted, every
 * message of a stream from its fifth on used keystream computed ahead
 * (eip93-keystream-ahead-used; expect() says why the fifth), (d), (e) and (g) used some, (d) and (e)
 * dropped some (eip93-keystream-ahead-dropped); off: neither counter moves;
 * any: the counters are printed, not asserted.  --fault: the fake's plan
 * (EIP93_TEST_FAKE) injects faults: the outputs must still be the default
 * provider's, and eip93-engine-faults (or -errors) must have grown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "ahead.h"

#define USED "eip93-keystream-ahead-used"
#define DROPPED "eip93-keystream-ahead-dropped"

enum { AH_ANY, AH_ON, AH_OFF } mode = AH_ON;

static unsigned char pt[AH_MAXLEN + 64], ct[AH_MAXLEN + 64], back[AH_MAXLEN + 64];

/* A sealing and an opening pair on one key, and where a TLS 1.3 stream stands. */
struct stream {
	struct ah_pair s, o;
	unsigned char key[32];
	size_t keylen;
	unsigned char siv[AH_IVLEN];
	uint64_t seq;
	unsigned int seed;
	const char *what;
};

static void tls13_nonce(const unsigned char *siv, uint64_t seq, unsigned char *iv)
{
	memcpy(iv, siv, AH_IVLEN);
	for (int i = 0; i < 8; i++)
		iv[4 + i] ^= (unsigned char)(seq >> (56 - 8 * i));
}

static void add64(unsigned char *iv, uint64_t n)
{
	for (int i = AH_IVLEN - 1; i >= 4 && n != 0; i--) {
		n += iv[i];
		iv[i] = (unsigned char)n;
		n >>= 8;
	}
}

static int stream_open(struct stream *st, const char *what, size_t keylen, unsigned int seed)
{
	memset(st, 0, sizeof(*st));
	st->keylen = keylen;
	st->seed = seed;
	st->what = what;
	ah_fill(st->key, sizeof(st->key), seed);
	ah_fill(st->siv, sizeof(st->siv), seed + 1);
	if (ah_pair_init(&st->s, what, st->key, keylen, st->siv, 1) < 0 ||
	    ah_pair_init(&st->o, what, st->key, keylen, st->siv, 0) < 0)
		return -1;
	return 0;
}

static void stream_close(struct stream *st)
{
	ah_pair_free(&st->s);
	ah_pair_free(&st->o);
}

/*
 * One message of @len bytes sealed on st->s and opened on st->o under @iv
 * (NULL: the stream's next TLS 1.3 nonce, the sequence number moves on);
 * @badtag: opened with a wrong tag (both must refuse).
 */
static void message(struct stream *st, const unsigned char *iv, size_t len, int badtag)
{
	unsigned char nonce[AH_IVLEN], aad[5] = { 0x17, 3, 3, 0, 0 }, tag[AH_TAGLEN] = { 0 };
	int r;

	if (iv == NULL) {
		tls13_nonce(st->siv, st->seq, nonce);
		iv = nonce;
	}
	aad[3] = (unsigned char)((len + AH_TAGLEN) >> 8);
	aad[4] = (unsigned char)(len + AH_TAGLEN);
	ah_fill(pt, len, st->seed * 7919u + (unsigned int)st->seq);
	if (ah_msg(&st->s, iv, aad, sizeof(aad), pt, len, ct, tag) < 0)
		goto out;
	tag[3] ^= badtag ? 0x10 : 0;
	r = ah_msg(&st->o, iv, aad, sizeof(aad), ct, len, back, tag);
	if (r >= 0 && r != !badtag)
		ah_fail(st->what, "opening record %llu of %zu bytes: %s",
			(unsigned long long)st->seq, len, r ? "a wrong tag accepted" : "refused");
	else if (r == 1 && memcmp(back, pt, len) != 0)
		ah_fail(st->what, "record %llu of %zu bytes: not the plaintext back",
			(unsigned long long)st->seq, len);
out:
	st->seq++;
}

/* The same in place (its input buffer gets the output). */
static void message_inplace(struct stream *st, size_t len)
{
	unsigned char nonce[AH_IVLEN], aad[5] = { 0x17, 3, 3, 0, 0 }, tag[AH_TAGLEN] = { 0 };

	tls13_nonce(st->siv, st->seq, nonce);
	aad[3] = (unsigned char)((len + AH_TAGLEN) >> 8);
	aad[4] = (unsigned char)(len + AH_TAGLEN);
	ah_fill(pt, len, st->seed * 7919u + (unsigned int)st->seq);
	memcpy(ct, pt, len);
	if (ah_msg_inplace(&st->s, nonce, aad, sizeof(aad), ct, len, tag) == 1 &&
	    (ah_msg_inplace(&st->o, nonce, aad, sizeof(aad), ct, len, tag) != 1 ||
	     memcmp(ct, pt, len) != 0))
		ah_fail(st->what, "record %llu of %zu bytes in place: not the plaintext back",
			(unsigned long long)st->seq, len);
	st->seq++;
}

static void records(struct stream *st, int n, size_t len)
{
	for (int i = 0; i < n; i++)
		message(st, NULL, len, 0);
}

static const char *fault_name; /* --fault: the provider's counter of what the plan injects */

struct mark {
	uint64_t used, dropped, faults, msgs;
};

static void mark(struct mark *m)
{
	m->used = ah_counter(USED);
	m->dropped = ah_counter(DROPPED);
	m->faults = fault_name != NULL ? ah_counter(fault_name) : 0;
	m->msgs = ah_counter("eip93-engine-messages");
}

/*
 * Assert what keystream ahead did since @m: used at least @min_used times;
 * @want_dropped: some dropped.  A context follows a nonce pattern once two
 * messages in a row kept it (the third message's is asked ahead), and asks
 * nothing while two patterns kept as long disagree on the next nonce (a TLS
 * 1.3 nonce may also look incremented, as the static IV's bits fall: one
 * more message), so a stream of n messages of one size with nothing
 * mispredicted uses keystream computed ahead at least n - 4 times.
 */
static void expect(const char *what, const struct mark *m, unsigned int min_used, int want_dropped)
{
	struct mark now;

	mark(&now);
	printf("# %s: keystream ahead used %lld, dropped %lld\n", what,
	       now.used == UINT64_MAX ? -1LL : (long long)(now.used - m->used),
	       now.dropped == UINT64_MAX ? -1LL : (long long)(now.dropped - m->dropped));
	/*
	 * Under a fault plan, a stream where keystream ahead is taken (@min_used)
	 * and the engine still answers meets the plan: the provider counts it.
	 */
	if (fault_name != NULL && min_used > 0 && now.msgs != m->msgs && now.faults == m->faults)
		ah_fail(what,
			"%llu engine messages, and %s did not grow: the faults injected went "
			"uncounted",
			(unsigned long long)(now.msgs - m->msgs), fault_name);
	if (mode == AH_ANY)
		return;
	if (now.used == UINT64_MAX || now.dropped == UINT64_MAX) {
		ah_fail(what, "the provider has no %s or %s", USED, DROPPED);
		return;
	}
	if (mode == AH_OFF) {
		if (now.used != m->used || now.dropped != m->dropped)
			ah_fail(what, "keystream-ahead = off, yet used %llu, dropped %llu",
				(unsigned long long)(now.used - m->used),
				(unsigned long long)(now.dropped - m->dropped));
		return;
	}
	if (now.used - m->used < min_used)
		ah_fail(what, "keystream computed ahead used %llu times, expected at least %llu",
			(unsigned long long)(now.used - m->used), (unsigned long long)min_used);
	if (want_dropped && now.dropped == m->dropped)
		ah_fail(what, "no keystream computed ahead was dropped");
}

static void case_a(void)
{
	struct stream st;
	struct mark m;

	mark(&m);
	for (int k = 0; k < 2; k++) {
		if (stream_open(&st, k ? "(a) TLS 1.3, AES-256" : "(a) TLS 1.3, AES-128",
				k ? 32 : 16, 100 + k) == 0) {
			records(&st, 12, AH_REC);
			records(&st, 1, 1000); /* the short last record */
		}
		stream_close(&st);
	}
	expect("(a) TLS 1.3", &m, 2 * 2 * (13 - 4), 0); /* 2 keys, 2 contexts, 13 records */
}

static void case_b_plus1(void)
{
	struct stream st;
	unsigned char iv[AH_IVLEN];
	struct mark m;

	mark(&m);
	if (stream_open(&st, "(b) nonce + 1", 16, 200) == 0) {
		memcpy(iv, st.siv, AH_IVLEN);
		iv[11] = 0xfd; /* carries out of the last byte on the way */
		for (int i = 0; i < 10; i++) {
			message(&st, iv, 8192, 0);
			add64(iv, 1);
		}
	}
	stream_close(&st);
	expect("(b) nonce + 1", &m, 2 * (10 - 4), 0);
}

/* OpenSSH: SET_IV_FIXED(-1), then IV_GEN before each packet (both sides). */
static void case_b_openssh(void)
{
	struct stream st;
	unsigned char last[8], tag[AH_TAGLEN], aad[4];
	struct mark m;
	size_t len = 32768;

	mark(&m);
	if (stream_open(&st, "(b) OpenSSH IV_GEN", 16, 300) < 0 ||
	    ah_pair_ctrl(&st.s, EVP_CTRL_GCM_SET_IV_FIXED, -1, st.siv, 0) != 1 ||
	    ah_pair_ctrl(&st.o, EVP_CTRL_GCM_SET_IV_FIXED, -1, st.siv, 0) != 1) {
		stream_close(&st);
		return;
	}
	for (int i = 0; i < 10; i++) {
		aad[0] = 0;
		aad[1] = (unsigned char)(len >> 16);
		aad[2] = (unsigned char)(len >> 8);
		aad[3] = (unsigned char)len;
		ah_fill(pt, len, 300u + (unsigned int)i);
		if (ah_pair_ctrl(&st.s, EVP_CTRL_GCM_IV_GEN, 8, last, 8) != 1 ||
		    ah_msg(&st.s, NULL, aad, 4, pt, len, ct, tag) < 0 ||
		    ah_pair_ctrl(&st.o, EVP_CTRL_GCM_IV_GEN, 8, last, 8) != 1 ||
		    ah_msg(&st.o, NULL, aad, 4, ct, len, back, tag) != 1 ||
		    memcmp(back, pt, len) != 0) {
			ah_fail(st.what, "packet %d not opened to its plaintext", i);
			break;
		}
	}
	stream_close(&st);
	expect("(b) OpenSSH IV_GEN", &m, 2 * (10 - 4), 0);
}

/* TLS 1.2: the sealing side's explicit IV generated (SET_IV_FIXED(-1)), the opening side's fixed 4 bytes. */
static void case_b_tls12(void)
{
	struct stream st;
	struct mark m;
	size_t len = 16384, total = 8 + len + AH_TAGLEN;

	mark(&m);
	if (stream_open(&st, "(b) TLS 1.2", 16, 400) < 0 ||
	    ah_pair_ctrl(&st.s, EVP_CTRL_GCM_SET_IV_FIXED, -1, st.siv, 0) != 1 ||
	    ah_pair_ctrl(&st.o, EVP_CTRL_GCM_SET_IV_FIXED, 4, st.siv, 0) != 1) {
		stream_close(&st);
		return;
	}
	for (uint64_t seq = 0; seq < 10; seq++) {
		int r;

		ah_fill(pt, len, 400u + (unsigned int)seq);
		memset(ct, 0, total);
		memcpy(ct + 8, pt, len);
		if (ah_tls12(&st.s, seq, ct, len) != (int)total)
			break;
		if (seq == 7) /* a record that fails its tag */
			ct[total - 1] ^= 1;
		r = ah_tls12(&st.o, seq, ct, total);
		if ((seq == 7) != (r <= 0) || (seq != 7 && memcmp(ct + 8, pt, len) != 0)) {
			ah_fail(st.what, "record %llu not opened as expected (%d)",
				(unsigned long long)seq, r);
			break;
		}
	}
	stream_close(&st);
	/* sealing 10 - 4; opening: records 4-6 (7 fails its tag before the engine is asked) */
	expect("(b) TLS 1.2", &m, (10 - 4) + 3, 0);
}

static void case_c(void)
{
	struct stream st;
	struct mark m;

	mark(&m);
	if (stream_open(&st, "(c) the same nonce", 16, 500) == 0)
		for (int i = 0; i < 10; i++)
			message(&st, st.siv, 16384, 0);
	stream_close(&st);
	expect("(c) the same nonce", &m, 2 * (10 - 4), 0);
}

static void case_d(void)
{
	struct stream st;
	unsigned char iv[AH_IVLEN];
	struct mark m;

	mark(&m);
	if (stream_open(&st, "(d) mispredictions", 16, 600) == 0) {
		records(&st, 4, AH_REC);
		ah_fill(iv, sizeof(iv), 601); /* a random nonce in the middle */
		message(&st, iv, AH_REC, 0);
		records(&st, 3, AH_REC);
		records(&st, 3, 4096);
		records(&st, 1, 32768); /* longer than predicted */
		records(&st, 2, AH_REC);
		records(&st, 1, 8); /* tiny: software by size */
		records(&st, 2, AH_REC);
		message(&st, NULL, AH_REC, 1); /* a wrong tag */
		records(&st, 3, AH_REC);
		records(&st, 1, 8);
		records(&st, 2, 8192);
	}
	stream_close(&st);
	expect("(d) mispredictions", &m, 1, 1);
}

static void case_e(void)
{
	struct stream st;
	unsigned char iv[AH_IVLEN];
	struct mark m;

	mark(&m);
	if (stream_open(&st, "(e) re-key", 16, 700) == 0) {
		records(&st, 4, AH_REC);
		/* A new key (and static IV): the stream starts again. */
		ah_fill(st.key, st.keylen, 701);
		ah_fill(st.siv, sizeof(st.siv), 702);
		st.seq = 0;
		if (ah_pair_reinit(&st.s, st.key, st.siv) == 0 &&
		    ah_pair_reinit(&st.o, st.key, st.siv) == 0)
			records(&st, 4, AH_REC);
		/* The same key again, with the next record's nonce. */
		tls13_nonce(st.siv, st.seq, iv);
		if (ah_pair_reinit(&st.s, st.key, iv) == 0 &&
		    ah_pair_reinit(&st.o, st.key, iv) == 0)
			records(&st, 4, AH_REC);
		/* A key-only init, then the stream goes on by nonce. */
		if (ah_pair_reinit(&st.s, st.key, NULL) == 0 &&
		    ah_pair_reinit(&st.o, st.key, NULL) == 0)
			records(&st, 4, AH_REC);
	}
	stream_close(&st);
	expect("(e) re-key", &m, 1, 1);
}

static void case_f(void)
{
	struct stream st, cp;
	struct mark m;

	mark(&m);
	if (stream_open(&st, "(f) copy: the original", 16, 800) == 0) {
		records(&st, 4, AH_REC);
		cp = st;
		cp.what = "(f) copy: the copy";
		cp.seed = 801; /* other plaintext, the same nonces */
		if (ah_pair_copy(&cp.s, &st.s, cp.what) == 0 &&
		    ah_pair_copy(&cp.o, &st.o, cp.what) == 0) {
			records(&st, 3, AH_REC);      /* the original first, */
			records(&cp, 3, AH_REC);      /* then the copy, */
			for (int i = 0; i < 4; i++) { /* then by turns */
				records(&st, 1, AH_REC);
				records(&cp, 1, AH_REC);
			}
			records(&cp, 2, AH_REC);
			records(&st, 1, AH_REC);
		}
		stream_close(&cp);
	}
	stream_close(&st);
	expect("(f) copy", &m, 0, 0);
}

static void case_h(void)
{
	struct stream st;
	struct mark m;

	mark(&m);
	if (stream_open(&st, "(h) in place", 16, 1000) == 0) {
		for (int i = 0; i < 10; i++)
			message_inplace(&st, AH_REC);
		message_inplace(&st, 4096);
	}
	stream_close(&st);
	expect("(h) in place", &m, 2 * (11 - 4), 0);
}

static void case_g(void)
{
	struct stream st;
	struct mark m, c0, c1;
	int status = 0;
	pid_t pid;

	mark(&m);
	if (stream_open(&st, "(g) fork: the parent", 16, 900) < 0) {
		stream_close(&st);
		return;
	}
	records(&st, 4, AH_REC);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		ah_fails = 0; /* the child's own */
		st.what = "(g) fork: the child";
		st.seed = 901;
		mark(&c0);
		records(&st, 1, AH_REC); /* the record the parent predicted */
		mark(&c1);
		if (mode != AH_ANY && c1.used != c0.used)
			ah_fail(st.what, "its first record used keystream computed in the parent");
		records(&st, 6, AH_REC);
		expect("(g) fork: the child", &c0, 0, 0);
		fflush(stdout);
		_exit(ah_fails == 0 ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		ah_fail("(g) fork", "the child failed (status %d)", status);
	records(&st, 7, AH_REC);
	stream_close(&st);
	expect("(g) fork: the parent", &m, 1, 0);
}

int main(int argc, char **argv)
{
	const char *only = "abcdefgh", *fault = NULL;

	uint64_t f0 = 0, f1;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--ahead") == 0)
			mode = strcmp(argv[i + 1], "on") == 0	 ? AH_ON
			       : strcmp(argv[i + 1], "off") == 0 ? AH_OFF
								 : AH_ANY;
		else if (strcmp(argv[i], "--only") == 0)
			only = argv[i + 1];
		else if (strcmp(argv[i], "--fault") == 0)
			fault = strcmp(argv[i + 1], "errors") == 0 ? "eip93-engine-errors"
								   : "eip93-engine-faults";
		else {
			fprintf(stderr, "eip93-ahead-check: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	fault_name = fault;
	if (ah_setup() < 0)
		return 1;
	if (fault != NULL)
		f0 = ah_counter(fault);
	if (strchr(only, 'a'))
		case_a();
	if (strchr(only, 'b')) {
		case_b_plus1();
		case_b_openssh();
		case_b_tls12();
	}
	if (strchr(only, 'c'))
		case_c();
	if (strchr(only, 'd'))
		case_d();
	if (strchr(only, 'e'))
		case_e();
	if (strchr(only, 'f'))
		case_f();
	if (strchr(only, 'h'))
		case_h();
	if (strchr(only, 'g'))
		case_g();
	printf("# engine messages %llu, software %llu, errors %llu, faults %llu\n",
	       (unsigned long long)ah_counter("eip93-engine-messages"),
	       (unsigned long long)ah_counter("eip93-software-messages"),
	       (unsigned long long)ah_counter("eip93-engine-errors"),
	       (unsigned long long)ah_counter("eip93-engine-faults"));
	if (ah_counter("eip93-engine-messages") == 0)
		ah_fail("eip93", "no engine message at all: is the fake engine bound?");
	if (fault != NULL) {
		f1 = ah_counter(fault);
		if (f1 == UINT64_MAX || f1 == f0)
			ah_fail("fault plan", "%s did not grow: the injected faults went unseen",
				fault);
	}
	ah_teardown();
	printf("%s: eip93-ahead-check (%s), %d failure(s)\n", ah_fails == 0 ? "ok" : "FAIL", only,
	       ah_fails);
	return ah_fails == 0 ? 0 : 1;
}
