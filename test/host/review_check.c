// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-review-check: the second review's findings that a differential
 * test cannot show, on this host (hooks build, the fake engine):
 *
 *   fixed-iv   a TLS fixed IV that the default provider's GCM would write
 *              past its buffers with (longer than the IV, encrypting; or
 *              longer than its 128-byte IV buffer; OpenSSL 3.0.22 and
 *              3.5.7 both do) is refused by eip93, through set_params
 *              (with AEAD_IVLEN in the same call) and through init
 *              parameters, and the process lives on.  (The default
 *              provider is not asked: it would crash.)
 *   refused    a tag the engine rightly refused, then a legal change (the
 *              right tag by init parameters; a change of direction) and a
 *              final that software accepts: counted as a refused tag
 *              (eip93-software-messages-tag-refused), never as an engine
 *              fault, and the engine stays on (nine times: more than the
 *              eight faults that would switch it off).
 *   copies     a keyed context's copies do not repeat the key check its
 *              key passed: 4 threads x 25 messages, each on a fresh
 *              EVP_CIPHER_CTX_copy() of one keyed context, all on the
 *              engine and equal to the default provider's, one key check.
 *   copies-keyed  the same for a context keyed only, never used itself (the
 *              check's verdict is kept per provider instance): 100 copies,
 *              one key check; other key bytes, or the same bytes as a longer
 *              key, one check each; a forked child checks again, its parent
 *              not; 4 threads x 25 copies of another key, at most one check
 *              per thread.
 *   after-fault   (EIP93_TEST_FAKE: the first message after the key check
 *              faulty) 10 copies of a keyed-only context: the first one's
 *              message caught, the next copy checks the key again, the 8
 *              after it do not: 2 checks.
 *   after-failed-check  (EIP93_TEST_FAKE: the first key check answers
 *              wrong) 10 copies: the first one's check fails, the second
 *              one checks again and passes, the 8 after it do not.
 *
 * Exit status 0 when every check holds; prints "N passed, N failed".
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

static int passed, failed;
static OSSL_PROVIDER *p_eip93;
static EVP_CIPHER *c_eip93, *c_default, *c_eip93_256, *c_default_256;

static void check(int ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok" : "not ok", what);
	if (ok)
		passed++;
	else
		failed++;
}

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	return OSSL_PROVIDER_get_params(p_eip93, q) ? v : UINT64_MAX;
}

static int gate_enabled(void)
{
	char *gate = NULL;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_utf8_ptr("eip93-gate", &gate, 0),
			    OSSL_PARAM_construct_end() };

	return OSSL_PROVIDER_get_params(p_eip93, q) && gate != NULL &&
	       strncmp(gate, "enabled: ", 9) == 0 && strstr(gate, "software only") == NULL;
}

/* Fixed IV @len through set_params (with AEAD_IVLEN @ivlen, 0: none) or init parameters. */
static int fixed_iv(const EVP_CIPHER *c, int enc, int via_init, size_t len, size_t ivlen)
{
	static unsigned char fixed[256];
	unsigned char key[16] = { 1 }, iv[12] = { 2 };
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	OSSL_PARAM p[3];
	int n = 0, r;

	p[n++] =
		OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, fixed, len);
	if (ivlen != 0)
		p[n++] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	p[n] = OSSL_PARAM_construct_end();
	if (via_init) {
		r = EVP_CipherInit_ex2(x, c, key, iv, enc, p);
	} else {
		r = EVP_CipherInit_ex2(x, c, key, iv, enc, NULL);
		if (r > 0)
			r = EVP_CIPHER_CTX_set_params(x, p);
	}
	EVP_CIPHER_CTX_free(x);
	ERR_clear_error();
	return r > 0;
}

static void check_fixed_iv(void)
{
	static const struct {
		int enc, via_init;
		size_t len, ivlen;
		const char *what;
	} cs[] = {
		{ 1, 0, 10, 8, "encrypt: set_params{IV_FIXED 10, AEAD_IVLEN 8}" },
		{ 1, 1, 13, 0, "encrypt: init with IV_FIXED 13 (12-byte IV)" },
		{ 1, 0, 13, 0, "encrypt: set_params{IV_FIXED 13} (12-byte IV)" },
		{ 0, 0, 200, 0, "decrypt: set_params{IV_FIXED 200} (past a 128-byte IV buffer)" },
		{ 0, 1, 129, 0, "decrypt: init with IV_FIXED 129" },
	};
	char what[160];

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		snprintf(what, sizeof(what), "%s: refused by eip93", cs[i].what);
		check(!fixed_iv(c_eip93, cs[i].enc, cs[i].via_init, cs[i].len, cs[i].ivlen), what);
	}
	/* What the default provider takes without harm stays accepted (eip93-diff compares). */
	check(fixed_iv(c_eip93, 0, 0, 13, 0) == fixed_iv(c_default, 0, 0, 13, 0),
	      "decrypt: IV_FIXED 13 answered as the default provider answers");
}

/* One message whose tag the engine refuses, then @variant's legal change and a final. */
static int refused_message(int variant, int i)
{
	unsigned char key[16] = { 5 }, iv[12] = { (unsigned char)i }, pt[4096], ct[4096], out[4096];
	unsigned char tag[16], bad[16];
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	OSSL_PARAM p[2];
	int n, ok;

	memset(pt, 0x33, sizeof(pt));
	ok = EVP_EncryptInit_ex2(x, c_default, key, iv, NULL) &&
	     EVP_EncryptUpdate(x, ct, &n, pt, sizeof(pt)) && EVP_EncryptFinal_ex(x, ct, &n) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
	EVP_CIPHER_CTX_free(x);
	memcpy(bad, tag, 16);
	bad[0] ^= 1;
	x = EVP_CIPHER_CTX_new();
	ok = ok && EVP_DecryptInit_ex2(x, c_eip93, key, iv, NULL) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, bad) > 0 &&
	     EVP_DecryptUpdate(x, out, &n, ct, sizeof(ct));
	if (variant == 0) {
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16);
		p[1] = OSSL_PARAM_construct_end();
		ok = ok && EVP_DecryptInit_ex2(x, NULL, NULL, NULL, p) &&
		     EVP_DecryptFinal_ex(x, out, &n);
	} else {
		ok = ok && EVP_EncryptInit_ex2(x, NULL, NULL, NULL, NULL) &&
		     EVP_EncryptFinal_ex(x, out, &n);
	}
	EVP_CIPHER_CTX_free(x);
	ERR_clear_error();
	return ok;
}

static void check_refused(void)
{
	uint64_t f0 = counter("eip93-engine-faults"),
		 r0 = counter("eip93-software-messages-tag-refused");
	uint64_t e0 = counter("eip93-engine-messages");
	int all = 1;
	char what[160];

	for (int variant = 0; variant < 2; variant++)
		for (int i = 0; i < 9; i++)
			all &= refused_message(variant, i);
	check(all, "18 messages: the final after the change succeeds, as in the default provider");
	snprintf(what, sizeof(what), "no engine fault counted (%llu)",
		 (unsigned long long)(counter("eip93-engine-faults") - f0));
	check(counter("eip93-engine-faults") == f0, what);
	snprintf(what, sizeof(what), "18 refused tags counted (%llu)",
		 (unsigned long long)(counter("eip93-software-messages-tag-refused") - r0));
	check(counter("eip93-software-messages-tag-refused") - r0 == 18, what);
	check(counter("eip93-engine-messages") == e0,
	      "the refused messages are not engine messages");
	check(gate_enabled(), "the engine is still on");
}

#define COPY_THREADS 4
#define COPY_MESSAGES 25
#define COPY_LEN 8192

static EVP_CIPHER_CTX *copy_src;
static unsigned char copy_key[16] = { 7 };

/* One message of @len on @x with nonce @i: ciphertext || tag into @out. */
static int copy_message(EVP_CIPHER_CTX *x, int i, const unsigned char *pt, unsigned char *out)
{
	unsigned char iv[12] = { 0x42, (unsigned char)i, (unsigned char)(i >> 8) };
	int n, m;

	return EVP_EncryptInit_ex2(x, NULL, NULL, iv, NULL) &&
	       EVP_EncryptUpdate(x, out, &n, pt, COPY_LEN) && n == COPY_LEN &&
	       EVP_EncryptFinal_ex(x, out + n, &m) &&
	       EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, out + COPY_LEN) > 0;
}

struct copy_job {
	int t;	 /* thread number */
	int bad; /* set by the thread */
};

static void *copy_thread(void *arg)
{
	static unsigned char pt[COPY_LEN];
	unsigned char out[COPY_LEN + 16], ref[COPY_LEN + 16];
	struct copy_job *job = arg;
	int t = job->t, bad = 0;
	EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();

	if (d == NULL || !EVP_EncryptInit_ex2(d, c_default, copy_key, NULL, NULL))
		bad = 1;
	for (int i = 0; i < COPY_MESSAGES && !bad; i++) {
		EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
		int nonce = t * COPY_MESSAGES + i + 1;

		if (x == NULL || !EVP_CIPHER_CTX_copy(x, copy_src) ||
		    !copy_message(x, nonce, pt, out) || !copy_message(d, nonce, pt, ref) ||
		    memcmp(out, ref, sizeof(out)) != 0)
			bad = 1;
		EVP_CIPHER_CTX_free(x);
	}
	EVP_CIPHER_CTX_free(d);
	job->bad = bad;
	return NULL;
}

static void check_copies(void)
{
	static unsigned char pt[COPY_LEN];
	unsigned char out[COPY_LEN + 16];
	uint64_t k0 = counter("eip93-key-checks-passed"), e0 = counter("eip93-engine-messages");
	pthread_t th[COPY_THREADS];
	struct copy_job job[COPY_THREADS];
	int bad = 0, started = 0;
	char what[160];

	copy_src = EVP_CIPHER_CTX_new();
	if (copy_src == NULL || !EVP_EncryptInit_ex2(copy_src, c_eip93, copy_key, NULL, NULL) ||
	    !copy_message(copy_src, 0, pt, out)) {
		check(0, "a keyed context and its first message");
		return;
	}
	check(counter("eip93-key-checks-passed") == k0 + 1,
	      "the first message checked the key on the engine");
	for (int t = 0; t < COPY_THREADS; t++) {
		job[t] = (struct copy_job){ t, 1 };
		if (pthread_create(&th[t], NULL, copy_thread, &job[t]) != 0)
			break;
		started++;
	}
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	for (int t = 0; t < COPY_THREADS; t++)
		bad |= t >= started || job[t].bad;
	check(!bad, "100 messages on copies, from 4 threads, equal the default provider's");
	snprintf(what, sizeof(what), "%llu of 101 messages on the engine",
		 (unsigned long long)(counter("eip93-engine-messages") - e0));
	check(counter("eip93-engine-messages") - e0 == 101, what);
	snprintf(what, sizeof(what), "one key check for the key and its 100 copies (%llu)",
		 (unsigned long long)(counter("eip93-key-checks-passed") - k0));
	check(counter("eip93-key-checks-passed") - k0 == 1, what);
	EVP_CIPHER_CTX_free(copy_src);
}

/*
 * @n messages, each on a fresh copy of @tmpl (keyed with @key, never used), each
 * compared with the default provider's @cd: how many differ or failed.
 */
static int copies_of(EVP_CIPHER_CTX *tmpl, const EVP_CIPHER *cd, const unsigned char *key, int n,
		     int nonce0)
{
	static unsigned char pt[COPY_LEN];
	unsigned char out[COPY_LEN + 16], ref[COPY_LEN + 16];
	EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
	int bad = 0;

	if (d == NULL || !EVP_EncryptInit_ex2(d, cd, key, NULL, NULL))
		bad = n;
	for (int i = 0; i < n && bad == 0; i++) {
		EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();

		if (x == NULL || !EVP_CIPHER_CTX_copy(x, tmpl) ||
		    !copy_message(x, nonce0 + i, pt, out) ||
		    !copy_message(d, nonce0 + i, pt, ref) || memcmp(out, ref, sizeof(out)) != 0)
			bad++;
		EVP_CIPHER_CTX_free(x);
	}
	EVP_CIPHER_CTX_free(d);
	ERR_clear_error();
	return bad;
}

static EVP_CIPHER_CTX *keyed(const EVP_CIPHER *c, const unsigned char *key)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();

	if (x != NULL && !EVP_EncryptInit_ex2(x, c, key, NULL, NULL)) {
		EVP_CIPHER_CTX_free(x);
		x = NULL;
	}
	return x;
}

/* Check that @delta (a counter's change) is @want; @what has one %llu for it. */
static void check_delta(uint64_t delta, uint64_t want, const char *what)
{
	char line[200];

	snprintf(line, sizeof(line), what, (unsigned long long)delta);
	check(delta == want, line);
}

static EVP_CIPHER_CTX *kc_tmpl;
static unsigned char kc_key[32] = { 9, 8, 7 };

static void *keyed_thread(void *arg)
{
	struct copy_job *job = arg;

	job->bad = copies_of(kc_tmpl, c_default, kc_key, COPY_MESSAGES,
			     1000 + job->t * COPY_MESSAGES) != 0;
	return NULL;
}

/* In a forked child: 10 copies of @tmpl, one check (the parent's verdict is not the child's). */
static void keyed_child(EVP_CIPHER_CTX *tmpl, const unsigned char *key)
{
	uint64_t k0 = counter("eip93-key-checks-passed"), e0 = counter("eip93-engine-messages");
	int bad = copies_of(tmpl, c_default, key, 10, 500);

	_exit(bad == 0 && counter("eip93-key-checks-passed") - k0 == 1 &&
			      counter("eip93-engine-messages") - e0 == 10
		      ? 0
		      : 1);
}

static void check_copies_keyed(void)
{
	unsigned char k1[32] = { 1, 2, 3, 4 }, k2[16] = { 1, 2, 3, 5 };
	uint64_t k0 = counter("eip93-key-checks-passed"), e0 = counter("eip93-engine-messages");
	EVP_CIPHER_CTX *t1 = keyed(c_eip93, k1), *t2 = keyed(c_eip93, k2),
		       *t3 = keyed(c_eip93_256, k1);
	pthread_t th[COPY_THREADS];
	struct copy_job job[COPY_THREADS];
	int bad, started = 0, st = -1;
	pid_t pid;

	if (t1 == NULL || t2 == NULL || t3 == NULL) {
		check(0, "three keyed contexts");
		return;
	}
	check(copies_of(t1, c_default, k1, 100, 1) == 0,
	      "100 messages on copies of a keyed-only context equal the default provider's");
	check_delta(counter("eip93-engine-messages") - e0, 100, "%llu of 100 on the engine");
	check_delta(counter("eip93-key-checks-passed") - k0, 1,
		    "one key check for the 100 copies (%llu)");

	k0 = counter("eip93-key-checks-passed");
	check(copies_of(t2, c_default, k2, 10, 200) == 0 &&
		      copies_of(t3, c_default_256, k1, 10, 300) == 0,
	      "10 copies each of other key bytes and of a 256-bit key with the same first bytes");
	check_delta(counter("eip93-key-checks-passed") - k0, 2, "one check each (%llu of 2)");

	k0 = counter("eip93-key-checks-passed");
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		keyed_child(t1, k1);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a forked child's 10 copies: on the engine, one key check there");
	check(copies_of(t1, c_default, k1, 10, 400) == 0, "10 more copies in the parent");
	check_delta(counter("eip93-key-checks-passed") - k0, 0,
		    "no check in the parent after the fork (%llu)");

	kc_tmpl = keyed(c_eip93, kc_key);
	k0 = counter("eip93-key-checks-passed");
	for (int t = 0; t < COPY_THREADS && kc_tmpl != NULL; t++) {
		job[t] = (struct copy_job){ t, 1 };
		if (pthread_create(&th[t], NULL, keyed_thread, &job[t]) != 0)
			break;
		started++;
	}
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	bad = started < COPY_THREADS;
	for (int t = 0; t < started; t++)
		bad |= job[t].bad;
	check(!bad, "4 threads x 25 copies of another keyed-only context equal the default's");
	check(counter("eip93-key-checks-passed") - k0 >= 1 &&
		      counter("eip93-key-checks-passed") - k0 <= COPY_THREADS,
	      "at most one check per thread for them");
	EVP_CIPHER_CTX_free(kc_tmpl);
	EVP_CIPHER_CTX_free(t1);
	EVP_CIPHER_CTX_free(t2);
	EVP_CIPHER_CTX_free(t3);
}

/*
 * 10 copies of a keyed-only context under the fault plan the test sets
 * (EIP93_TEST_FAKE): @fault, a message after a passed check is faulty;
 * otherwise the first key check answers wrong.
 */
static void check_recheck(int fault)
{
	unsigned char key[16] = { 0x31, 0x41, 0x59 };
	uint64_t p0 = counter("eip93-key-checks-passed"), f0 = counter("eip93-key-checks-failed");
	uint64_t x0 = counter("eip93-engine-faults"), e0 = counter("eip93-engine-messages");
	EVP_CIPHER_CTX *t = keyed(c_eip93, key);

	check(t != NULL && copies_of(t, c_default, key, 10, 1) == 0,
	      "10 copies of a keyed-only context equal the default provider's");
	check_delta(counter("eip93-engine-faults") - x0, 1, "one engine fault (%llu)");
	if (fault) {
		check_delta(counter("eip93-key-checks-passed") - p0, 2,
			    "the copy after the fault checks the key again, no other: %llu "
			    "checks of 2");
		check_delta(counter("eip93-key-checks-failed") - f0, 0, "no check failed (%llu)");
	} else {
		check_delta(counter("eip93-key-checks-failed") - f0, 1,
			    "the first copy's check failed (%llu)");
		check_delta(counter("eip93-key-checks-passed") - p0, 1,
			    "the second copy checks again and passes, no other: %llu of 1");
		check_delta(counter("eip93-engine-messages") - e0, 9,
			    "%llu of 9 messages on the engine");
	}
	EVP_CIPHER_CTX_free(t);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	p_eip93 = OSSL_PROVIDER_load(NULL, "eip93");
	(void)OSSL_PROVIDER_load(NULL, "default");
	c_eip93 = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=eip93");
	c_default = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=default");
	c_eip93_256 = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=eip93");
	c_default_256 = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=default");
	if (p_eip93 == NULL || c_eip93 == NULL || c_default == NULL || c_eip93_256 == NULL ||
	    c_default_256 == NULL || !gate_enabled()) {
		printf("not ok - eip93 with the gate open (hooks build, EIP93_TEST_ENGINE=fake)\n");
		return 1;
	}
	{
		char *kalg = NULL;
		OSSL_PARAM q[2] = { OSSL_PARAM_construct_utf8_ptr("eip93-gate", &kalg, 0),
				    OSSL_PARAM_construct_end() };

		if (OSSL_PROVIDER_get_params(p_eip93, q) && kalg != NULL)
			printf("# gate: %s\n", kalg);
	}
	if (strcmp(mode, "fixed-iv") == 0)
		check_fixed_iv();
	else if (strcmp(mode, "refused") == 0)
		check_refused();
	else if (strcmp(mode, "copies") == 0)
		check_copies();
	else if (strcmp(mode, "copies-keyed") == 0)
		check_copies_keyed();
	else if (strcmp(mode, "after-fault") == 0)
		check_recheck(1);
	else if (strcmp(mode, "after-failed-check") == 0)
		check_recheck(0);
	else {
		fprintf(stderr, "usage: eip93-review-check fixed-iv|refused|copies|copies-keyed|"
				"after-fault|after-failed-check\n");
		return 2;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 && passed > 0 ? 0 : 1;
}
