// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check, the commands corrupt, faults and fail: a driver that
 * corrupts every output, every AF_ALG fault site (EIP93_TEST_FAULT), and a
 * driver failing every request until the engine is disabled.
 */
#include "engine_check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- corrupt --------------------------------------------------------------- */

#define CORRUPT_KEYS 4

int cmd_corrupt(void)
{
	static struct msg m, wm; /* wm: the warm key's messages (m gets new keys) */
	uint64_t rng = 0xc0ffee;
	struct snap a, b, d;
	EVP_CIPHER_CTX *c, *warm;
	int good = 1;

	/* A key verified before the knob flips: what its later messages give. */
	warm = EVP_CIPHER_CTX_new();
	if (warm == NULL || !msg_make(&wm, &rng, 2, MSG_LEN, 1))
		return check(0, "setup");
	check(eng_encrypt(warm, &wm, 1), "warm-up key on the engine before corrupt=1");

	snap_take(&a);
	if (!check(knob_set("corrupt", 1), "corrupt=1 set after insmod"))
		return 0;
	for (int i = 0; i < CORRUPT_KEYS; i++) {
		c = EVP_CIPHER_CTX_new();
		good &= c != NULL && msg_make(&m, &rng, i % NKEYS, MSG_LEN, 1) &&
			roundtrip(c, &m, 1);
		EVP_CIPHER_CTX_free(c);
	}
	snap_take(&b);
	/*
	 * A key that passed its check before the driver turned bad: the integrity
	 * check of every engine result catches the wrong last byte, the message
	 * is redone in software, the key stays there.
	 */
	{
		uint64_t f0 = counter("eip93-engine-faults"),
			 sf0 = counter("eip93-software-messages-fault");
		int same = msg_make(&wm, &rng, 2, MSG_LEN, 0) && eng_encrypt(warm, &wm, 0);

		check(same, "corrupt=1 after a key passed its check: its next encryption still "
			    "equals the default provider's");
		check(counter("eip93-engine-faults") == f0 + 1 &&
			      counter("eip93-software-messages-fault") == sf0 + 1,
		      "that engine result was caught by the integrity check (engine-faults "
		      "+%" PRIu64 ", software-messages-fault +%" PRIu64 ")",
		      counter("eip93-engine-faults") - f0,
		      counter("eip93-software-messages-fault") - sf0);
	}
	knob_set("corrupt", 0);
	EVP_CIPHER_CTX_free(warm);

	d = snap_delta(&a, &b);
	snap_print("corrupt=1", &d);
	check(good, "corrupt=1: %d new keys, every output equals the default provider's",
	      CORRUPT_KEYS);
	check(d.kc_fail == CORRUPT_KEYS, "key-checks-failed +%" PRIu64 " (expected %d)", d.kc_fail,
	      CORRUPT_KEYS);
	check(d.engine == 0, "no engine message (+%" PRIu64 ")", d.engine);
	check(d.sw_keycheck == 2 * (uint64_t)CORRUPT_KEYS,
	      "software-messages-key-check +%" PRIu64 " (expected %d: both messages of each key)",
	      d.sw_keycheck, 2 * CORRUPT_KEYS);
	check(d.errors == 0, "a wrong answer is not an AF_ALG error (engine errors +%" PRIu64 ")",
	      d.errors);

	snap_take(&a);
	c = EVP_CIPHER_CTX_new();
	check(c != NULL && msg_make(&m, &rng, 0, MSG_LEN, 1) && roundtrip(c, &m, 1),
	      "corrupt=0 again: a new key gives correct outputs");
	EVP_CIPHER_CTX_free(c);
	snap_take(&b);
	d = snap_delta(&a, &b);
	check(d.engine == 2 && d.kc_pass == 1,
	      "corrupt=0 again: the new key passes its check and runs on the engine "
	      "(engine +%" PRIu64 ", checks passed +%" PRIu64 ")",
	      d.engine, d.kc_pass);
	return 1;
}

/* ---- faults ---------------------------------------------------------------- */

#define FAULT_KEYS 12

struct fault_site {
	const char *name;
	/* Calls of this site in one key check (0: a key-open site): on the kernel's
	 * AES-GCM (gcm_base) the check is 3 requests, one of them a forged tag that
	 * the kernel refuses (no full read); on ctr(aes-eip93) it is one CTR request. */
	int check_calls, ctr_check_calls;
};

static const struct fault_site fault_sites[] = {
	{ "socket", 0, 0 },   { "bind", 0, 0 },	  { "setkey", 0, 0 },
	{ "authsize", 0, 0 }, { "accept", 0, 0 }, { "timeout", 0, 0 },
	{ "sendmsg", 3, 1 },  { "read", 3, 1 },	  { "shortread", 2, 1 },
};

int cmd_faults(void)
{
	static struct msg m;
	const char *env = getenv("EIP93_TEST_FAULT");
	const struct fault_site *site = NULL;
	uint64_t rng = 0xfa017, err_at[FAULT_KEYS];
	struct snap a, b, d;
	struct fds f0, f1;
	int pooled0, pooled;
	char gate[512];
	long nth = 1;
	int good = 1, data_path, check_calls;

	if (env == NULL)
		return check(0, "EIP93_TEST_FAULT is set");
	for (size_t i = 0; i < sizeof(fault_sites) / sizeof(fault_sites[0]); i++) {
		size_t n = strlen(fault_sites[i].name);

		if (strncmp(env, fault_sites[i].name, n) == 0 &&
		    (env[n] == '\0' || env[n] == ':')) {
			site = &fault_sites[i];
			nth = env[n] == ':' ? strtol(env + n + 1, NULL, 10) : 1;
		}
	}
	if (site == NULL)
		return check(0, "EIP93_TEST_FAULT=%s is a site this command models", env);
	check_calls =
		strcmp(kalg, "ctr(aes-eip93)") == 0 ? site->ctr_check_calls : site->check_calls;
	if (nth < 0 || nth > check_calls + 1 + (check_calls == 0) * 10)
		return check(0,
			     "EIP93_TEST_FAULT=%s is a site this command models on %s (%d calls "
			     "in a key check)",
			     env, kalg, check_calls);
	/* A data site past the key check's calls hits the first data message. */
	data_path = check_calls > 0 && nth > check_calls;

	fds_scan(&f0);
	pooled0 = (int)counter("eip93-afalg-pooled-sockets");
	snap_take(&a);
	for (int i = 0; i < FAULT_KEYS; i++) {
		EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

		good &= c != NULL && msg_make(&m, &rng, i % NKEYS, MSG_LEN, 1) &&
			roundtrip(c, &m, 1);
		EVP_CIPHER_CTX_free(c);
		err_at[i] = counter("eip93-engine-errors");
	}
	snap_take(&b);
	fds_scan(&f1);
	d = snap_delta(&a, &b);
	snap_print(env, &d);
	gate_text(gate, sizeof(gate));
	note("eip93-gate: %s", gate);

	check(good, "%s: %d keys, %d messages, every output equals the default provider's", env,
	      FAULT_KEYS, 2 * FAULT_KEYS);
	pooled = (int)counter("eip93-afalg-pooled-sockets");
	check(f1.all - pooled == f0.all - pooled0 && f1.alg == pooled,
	      "%s: no descriptor leaked (%d -> %d, AF_ALG %d, pooled %d)", env, f0.all, f1.all,
	      f1.alg, pooled);
	if (nth == 0) {
		check(d.engine == 0, "%s: nothing on the engine (+%" PRIu64 ")", env, d.engine);
		check(d.errors >= 8, "%s: engine errors +%" PRIu64 " (>= 8)", env, d.errors);
		check(err_at[FAULT_KEYS - 1] == err_at[FAULT_KEYS - 3],
		      "%s: after the engine was disabled it is not tried again", env);
		check(strstr(gate, "consecutive AF_ALG errors") != NULL,
		      "%s: eip93-gate says the engine is disabled", env);
		check(d.kc_fail == (check_calls > 0 ? d.errors : 0),
		      "%s: key-checks-failed +%" PRIu64 " (%s)", env, d.kc_fail,
		      check_calls > 0 ? "one per key tried" : "keys never opened");
	} else {
		uint64_t kc_fail = check_calls > 0 && !data_path;
		uint64_t engine = 2 * FAULT_KEYS - 1 - kc_fail;
		uint64_t kc_pass = FAULT_KEYS - kc_fail + (uint64_t)data_path;

		check(d.errors == 1, "%s: exactly one engine error (+%" PRIu64 ")", env, d.errors);
		check(d.kc_fail == kc_fail,
		      "%s: key-checks-failed +%" PRIu64 " (expected %" PRIu64 ")", env, d.kc_fail,
		      kc_fail);
		check(d.kc_pass == kc_pass,
		      "%s: key-checks-passed +%" PRIu64 " (expected %" PRIu64 ")", env, d.kc_pass,
		      kc_pass);
		check(d.engine == engine, "%s: engine messages +%" PRIu64 " (expected %" PRIu64 ")",
		      env, d.engine, engine);
		check(d.sw_error + d.sw_keycheck == 2 * (uint64_t)FAULT_KEYS - engine,
		      "%s: the other messages went to software for the error or the key check",
		      env);
		check(strncmp(gate, "enabled: ", 9) == 0 && strstr(gate, "consecutive") == NULL,
		      "%s: the engine stays enabled after one error", env);
	}
	return 1;
}

/* ---- fail ------------------------------------------------------------------ */

#define FAIL_STEPS 12

int cmd_fail(void)
{
	static struct msg ma, mc;
	uint64_t rng = 0xfa11;
	EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new(), *c;
	struct snap s0, s1, s2, d;
	char gate[512];
	int good = 1;

	if (a == NULL || !msg_make(&ma, &rng, 2, MSG_LEN, 1))
		return check(0, "setup");
	check(roundtrip(a, &ma, 1), "context A verified and on the engine before fail=1");
	snap_take(&s0);
	if (!check(knob_set("fail", 1), "fail=1 set after insmod"))
		return 0;
	for (int i = 0; i < FAIL_STEPS; i++) {
		if (i % 2 == 0) {
			/* The open context: its next message fails in the kernel. */
			good &= msg_make(&ma, &rng, 2, MSG_LEN, 0) && roundtrip(a, &ma, 0);
		} else {
			/* A new key: its setkey already fails. */
			c = EVP_CIPHER_CTX_new();
			good &= c != NULL && msg_make(&mc, &rng, i % NKEYS, MSG_LEN, 1) &&
				roundtrip(c, &mc, 1);
			EVP_CIPHER_CTX_free(c);
		}
	}
	knob_set("fail", 0);
	snap_take(&s1);
	gate_text(gate, sizeof(gate));
	d = snap_delta(&s0, &s1);
	snap_print("fail=1", &d);
	note("eip93-gate: %s", gate);
	check(good, "fail=1: %d messages, every output equals the default provider's",
	      2 * FAIL_STEPS);
	check(d.errors >= 8, "eip93-engine-errors +%" PRIu64 " (>= 8)", d.errors);
	check(d.engine == 0, "no engine message succeeded (+%" PRIu64 ")", d.engine);
	check(strstr(gate, "consecutive AF_ALG errors") != NULL,
	      "eip93-gate reports the engine disabled after consecutive AF_ALG errors");
	check(gate_text_outlives_call(gate, sizeof(gate)),
	      "the eip93-gate text outlives the get_params call (not in a dead stack frame)");

	/* The engine stays off for this process, even with a healthy driver. */
	c = EVP_CIPHER_CTX_new();
	good = msg_make(&ma, &rng, 2, MSG_LEN, 0) && roundtrip(a, &ma, 0) && c != NULL &&
	       msg_make(&mc, &rng, 0, MSG_LEN, 1) && roundtrip(c, &mc, 1);
	EVP_CIPHER_CTX_free(c);
	snap_take(&s2);
	d = snap_delta(&s1, &s2);
	check(good, "fail=0 again: outputs correct");
	check(d.engine == 0 && d.errors == 0 && (d.ops < 0 || d.ops == 0),
	      "the engine stays disabled for the process (engine +%" PRIu64 ", driver ops +%lld)",
	      d.engine, d.ops);
	EVP_CIPHER_CTX_free(a);
	return 1;
}
