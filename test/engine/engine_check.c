// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check: the engine path of the eip93 provider in the test guest
 * (hooks build, gate open, simulated EIP93 driver loaded).
 *
 * usage: eip93-engine-check [--config FILE] [--sysfs DIR] COMMAND [ARGS]
 *
 *   corrupt        new keys while the driver corrupts every output: each key
 *                  fails its check, every output equals the default
 *                  provider's, nothing runs on the engine; a key verified
 *                  before: its next result is caught by the integrity check;
 *                  then corrupt=0 and a new key is back on the engine
 *   faults         under EIP93_TEST_FAULT=<site>:<n>: 12 keys, 24 messages,
 *                  every output correct, counters as the fault predicts
 *   lifetimes [N]  N (10000) key lifetimes: context, new key, one engine
 *                  message, free; the fd count is unchanged
 *   fork           a child of a process whose contexts are on the engine
 *                  inherits no AF_ALG socket, gets correct results on its
 *                  own sockets; the parent's keep working
 *   exec           no AF_ALG socket survives exec (posix_spawn, fork+exec,
 *                  and an exec of this very process, which ends the command)
 *   threads        8 threads with their own contexts
 *   timeout MS     socket timeouts (run with a --config that sets
 *                  timeout-ms = MS): requests delayed by the driver below
 *                  and above MS, and the raw socket-layer waits; prints
 *                  "measure:" lines
 *   stall MS       a request held by the driver's stall knob, in a child
 *                  process, released by this program after ~2 s (once
 *                  waited for, once SIGKILLed while held)
 *   fail           the driver fails every request: 8 engine errors in a
 *                  row disable the engine for the process
 *   afalg-fds EXPECT [PASSED FAILED NAME]
 *                  the number of AF_ALG sockets open in this process must be
 *                  EXPECT (run by exec; with the caller's counts it prints
 *                  the closing line for command NAME)
 *
 * Every command compares each output with the default provider's, asserts
 * outcomes and counter deltas (never durations), prints "ok - ..." or
 * "not ok - ..." lines and "<command>: N passed, M failed"; the exit status
 * is nonzero when anything failed.  Durations are printed as "measure:"
 * lines only.  The driver's knobs are restored before each command returns.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_alg.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

extern char **environ;

#define IVLEN 12
#define TAGLEN 16
#define AADLEN 13 /* as a TLS 1.2 record */
#define MSG_MAX 16384
#define MSG_LEN 8192 /* inside the engine window 4096..32768 */
#define NKEYS 3
#define MAX_ALG_FDS 64

static const char *const cipher_names[NKEYS] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };

/* ---- reporting ------------------------------------------------------------ */

static int n_pass, n_fail;
static const char *line_prefix = "";

static int check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s%s - ", line_prefix, cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (cond)
		n_pass++;
	else
		n_fail++;
	return cond;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void note(const char *fmt, ...)
{
	va_list ap;

	printf("%s# ", line_prefix);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void measure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void measure(const char *fmt, ...)
{
	va_list ap;

	printf("measure: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int finish(const char *cmd)
{
	printf("%s: %d passed, %d failed\n", cmd, n_pass, n_fail);
	fflush(stdout);
	return n_fail == 0 ? 0 : 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* ---- the simulated driver's knobs ----------------------------------------- */

static const char *sysfs_dir = "/sys/module/eip93_sim/parameters";

/* A knob's value, or -1 if it cannot be read. */
static long long knob_get(const char *name)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysfs_dir, name);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int knob_set(const char *name, long long v)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", sysfs_dir, name);
	f = fopen(path, "we");
	if (f == NULL) {
		note("cannot open %s: %s", path, strerror(errno));
		return 0;
	}
	ok = fprintf(f, "%lld\n", v) > 0;
	ok = fclose(f) == 0 && ok;
	if (!ok)
		note("cannot write %lld to %s", v, path);
	return ok;
}

/* ---- providers ------------------------------------------------------------ */

static OSSL_LIB_CTX *lib;
static OSSL_PROVIDER *prov_eip93, *prov_default;
static EVP_CIPHER *c_test[NKEYS], *c_ref[NKEYS];
static char kalg[64]; /* the kernel algorithm the gate bound */

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_uint64(name, &v);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov_eip93, p) || !OSSL_PARAM_modified(&p[0])) {
		note("cannot read provider parameter %s", name);
		ERR_clear_error();
		return 0;
	}
	return v;
}

/* The gate text, copied at once. */
static void gate_text(char *buf, size_t n)
{
	const char *s = NULL;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&s, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov_eip93, p) || s == NULL) {
		ERR_clear_error();
		snprintf(buf, n, "(unreadable)");
		return;
	}
	snprintf(buf, n, "%s", s);
}

/* Overwrite a stretch of the stack below the caller's frame. */
static __attribute__((noinline)) void stack_scribble(void)
{
	volatile unsigned char junk[8192];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0x5a;
}

/*
 * Is the eip93-gate text still the same once the call has returned and the
 * stack below it was reused?  A UTF8 pointer parameter must point to memory
 * that outlives the call (OpenSSL copies nothing).
 */
static int gate_text_outlives_call(char *first, size_t n)
{
	const char *s = NULL;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&s, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov_eip93, p) || s == NULL) {
		ERR_clear_error();
		return 0;
	}
	snprintf(first, n, "%s", s);
	stack_scribble();
	return strncmp(first, s, n) == 0;
}

struct snap {
	uint64_t engine, bytes, sw, kc_pass, kc_fail, errors;
	uint64_t sw_keycheck, sw_error, sw_gate, sw_replay, sw_sockcap;
	long long ops;
};

static void snap_take(struct snap *s)
{
	s->engine = counter("eip93-engine-messages");
	s->bytes = counter("eip93-engine-bytes");
	s->sw = counter("eip93-software-messages");
	s->kc_pass = counter("eip93-key-checks-passed");
	s->kc_fail = counter("eip93-key-checks-failed");
	s->errors = counter("eip93-engine-errors");
	s->sw_keycheck = counter("eip93-software-messages-key-check");
	s->sw_error = counter("eip93-software-messages-error");
	s->sw_gate = counter("eip93-software-messages-gate");
	s->sw_replay = counter("eip93-software-messages-replay");
	s->sw_sockcap = counter("eip93-software-messages-socket-cap");
	s->ops = knob_get("ops");
}

/* after - before, for every field. */
static struct snap snap_delta(const struct snap *a, const struct snap *b)
{
	struct snap d;

	d.engine = b->engine - a->engine;
	d.bytes = b->bytes - a->bytes;
	d.sw = b->sw - a->sw;
	d.kc_pass = b->kc_pass - a->kc_pass;
	d.kc_fail = b->kc_fail - a->kc_fail;
	d.errors = b->errors - a->errors;
	d.sw_keycheck = b->sw_keycheck - a->sw_keycheck;
	d.sw_error = b->sw_error - a->sw_error;
	d.sw_gate = b->sw_gate - a->sw_gate;
	d.sw_replay = b->sw_replay - a->sw_replay;
	d.sw_sockcap = b->sw_sockcap - a->sw_sockcap;
	d.ops = a->ops >= 0 && b->ops >= 0 ? b->ops - a->ops : -1;
	return d;
}

static void snap_print(const char *what, const struct snap *d)
{
	note("%s: engine messages +%" PRIu64 " (bytes +%" PRIu64 "), software +%" PRIu64
	     " (key-check +%" PRIu64 ", error +%" PRIu64 ", gate +%" PRIu64 ", replay +%" PRIu64
	     ", socket-cap +%" PRIu64 "), key checks passed +%" PRIu64 " failed +%" PRIu64
	     ", engine errors +%" PRIu64 ", driver ops +%lld",
	     what, d->engine, d->bytes, d->sw, d->sw_keycheck, d->sw_error, d->sw_gate,
	     d->sw_replay, d->sw_sockcap, d->kc_pass, d->kc_fail, d->errors, d->ops);
}

static int setup(const char *config)
{
	char gate[512];
	size_t n;

	lib = OSSL_LIB_CTX_new();
	if (lib == NULL)
		return check(0, "OSSL_LIB_CTX_new");
	if (config != NULL && !OSSL_LIB_CTX_load_config(lib, config)) {
		ERR_print_errors_fp(stdout);
		return check(0, "load config %s", config);
	}
	prov_eip93 = OSSL_PROVIDER_load(lib, "eip93");
	prov_default = OSSL_PROVIDER_load(lib, "default");
	if (prov_eip93 == NULL || prov_default == NULL) {
		ERR_print_errors_fp(stdout);
		return check(0, "load the eip93 and default providers (OPENSSL_MODULES=%s)",
			     getenv("OPENSSL_MODULES") != NULL ? getenv("OPENSSL_MODULES")
							       : "unset");
	}
	for (int k = 0; k < NKEYS; k++) {
		c_test[k] = EVP_CIPHER_fetch(lib, cipher_names[k], "provider=eip93");
		c_ref[k] = EVP_CIPHER_fetch(lib, cipher_names[k], "provider=default");
		if (c_test[k] == NULL || c_ref[k] == NULL) {
			ERR_print_errors_fp(stdout);
			return check(0, "fetch %s from eip93 and default", cipher_names[k]);
		}
	}
	gate_text(gate, sizeof(gate));
	if (strncmp(gate, "enabled: ", 9) != 0)
		return check(0, "the gate is open (eip93-gate: %s)", gate);
	n = strcspn(gate + 9, ";");
	if (n >= sizeof(kalg))
		return check(0, "kernel algorithm name fits AF_ALG (%s)", gate);
	memcpy(kalg, gate + 9, n);
	kalg[n] = '\0';
	return 1;
}

static void teardown(void)
{
	for (int k = 0; k < NKEYS; k++) {
		EVP_CIPHER_free(c_test[k]);
		EVP_CIPHER_free(c_ref[k]);
	}
	OSSL_PROVIDER_unload(prov_eip93);
	OSSL_PROVIDER_unload(prov_default);
	OSSL_LIB_CTX_free(lib);
}

/* ---- messages -------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_fill(uint64_t *s, unsigned char *p, size_t n)
{
	while (n > 0) {
		uint64_t v = rng_next(s);
		size_t k = n < sizeof(v) ? n : sizeof(v);

		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
}

/* One message with the default provider's answer. */
struct msg {
	int ks; /* index into cipher_names */
	size_t len;
	unsigned char key[32], iv[IVLEN], aad[AADLEN], tag[TAGLEN];
	unsigned char pt[MSG_MAX], ct[MSG_MAX];
};

/* A new IV and payload (and, with @new_key, a new key of size @ks). */
static int msg_make(struct msg *m, uint64_t *rng, int ks, size_t len, int new_key)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int ok, n = 0;

	if (new_key) {
		m->ks = ks;
		rng_fill(rng, m->key, sizeof(m->key));
	}
	m->len = len;
	rng_fill(rng, m->iv, sizeof(m->iv));
	rng_fill(rng, m->aad, sizeof(m->aad));
	rng_fill(rng, m->pt, len);
	ok = c != NULL && EVP_EncryptInit_ex2(c, c_ref[m->ks], m->key, m->iv, NULL) &&
	     EVP_EncryptUpdate(c, NULL, &n, m->aad, AADLEN) &&
	     EVP_EncryptUpdate(c, m->ct, &n, m->pt, (int)len) && (size_t)n == len &&
	     EVP_EncryptFinal_ex(c, m->ct + len, &n) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, TAGLEN, m->tag) > 0;
	EVP_CIPHER_CTX_free(c);
	return ok;
}

/*
 * Encrypt @m through eip93 (with its key when @with_key, else only a new
 * IV) and compare ciphertext and tag with the default provider's.
 */
static int eng_encrypt(EVP_CIPHER_CTX *c, const struct msg *m, int with_key)
{
	unsigned char out[MSG_MAX + 16], tag[TAGLEN];
	int n = 0, f = 0;

	if (!EVP_EncryptInit_ex2(c, with_key ? c_test[m->ks] : NULL, with_key ? m->key : NULL,
				 m->iv, NULL) ||
	    !EVP_EncryptUpdate(c, NULL, &n, m->aad, AADLEN) ||
	    !EVP_EncryptUpdate(c, out, &n, m->pt, (int)m->len) || (size_t)n != m->len ||
	    !EVP_EncryptFinal_ex(c, out + n, &f) || f != 0 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag) <= 0) {
		ERR_clear_error();
		return 0;
	}
	return memcmp(out, m->ct, m->len) == 0 && memcmp(tag, m->tag, TAGLEN) == 0;
}

/* Decrypt @m's ciphertext (tag set before the data) and compare the plaintext. */
static int eng_decrypt(EVP_CIPHER_CTX *c, const struct msg *m, int with_key)
{
	unsigned char out[MSG_MAX + 16];
	int n = 0, f = 0;

	if (!EVP_DecryptInit_ex2(c, with_key ? c_test[m->ks] : NULL, with_key ? m->key : NULL,
				 m->iv, NULL) ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, TAGLEN, (void *)m->tag) <= 0 ||
	    !EVP_DecryptUpdate(c, NULL, &n, m->aad, AADLEN) ||
	    !EVP_DecryptUpdate(c, out, &n, m->ct, (int)m->len) || (size_t)n != m->len ||
	    !EVP_DecryptFinal_ex(c, out + n, &f) || f != 0) {
		ERR_clear_error();
		return 0;
	}
	return memcmp(out, m->pt, m->len) == 0;
}

/* Encrypt then decrypt @m on one context: two messages. */
static int roundtrip(EVP_CIPHER_CTX *c, const struct msg *m, int with_key)
{
	int a = eng_encrypt(c, m, with_key);
	int b = eng_decrypt(c, m, 0);

	return a && b;
}

/* ---- file descriptors ------------------------------------------------------ */

struct fds {
	int all;			/* open descriptors */
	int alg;			/* of which AF_ALG sockets */
	unsigned long ino[MAX_ALG_FDS]; /* their socket inodes */
	int alg_fd[MAX_ALG_FDS];
};

static void fds_scan(struct fds *f)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	memset(f, 0, sizeof(*f));
	if (d == NULL) {
		f->all = -1;
		return;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int fd, dom = 0;
		socklen_t sl = sizeof(dom);

		if (e->d_name[0] == '.')
			continue;
		fd = atoi(e->d_name);
		if (fd == dirfd(d))
			continue;
		f->all++;
		if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
			continue;
		if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &sl) != 0 || dom != AF_ALG)
			continue;
		if (f->alg < MAX_ALG_FDS) {
			f->ino[f->alg] = (unsigned long)st.st_ino;
			f->alg_fd[f->alg] = fd;
		}
		f->alg++;
	}
	closedir(d);
}

static int fds_has_ino(const struct fds *f, unsigned long ino)
{
	for (int i = 0; i < f->alg && i < MAX_ALG_FDS; i++)
		if (f->ino[i] == ino)
			return 1;
	return 0;
}

/* ---- corrupt --------------------------------------------------------------- */

#define CORRUPT_KEYS 4

static int cmd_corrupt(void)
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
	int check_calls; /* calls of this site in one key check; 0: key open */
};

static const struct fault_site fault_sites[] = {
	{ "socket", 0 },  { "bind", 0 },    { "setkey", 0 }, { "authsize", 0 },	 { "accept", 0 },
	{ "timeout", 0 }, { "sendmsg", 3 }, { "read", 3 },   { "shortread", 2 },
};

static int cmd_faults(void)
{
	static struct msg m;
	const char *env = getenv("EIP93_TEST_FAULT");
	const struct fault_site *site = NULL;
	uint64_t rng = 0xfa017, err_at[FAULT_KEYS];
	struct snap a, b, d;
	struct fds f0, f1;
	char gate[512];
	long nth = 1;
	int good = 1, data_path;

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
	if (site == NULL || nth < 0 || nth > site->check_calls + 1 + (site->check_calls == 0) * 10)
		return check(0, "EIP93_TEST_FAULT=%s is a site this command models", env);
	/* A data site past the key check's calls hits the first data message. */
	data_path = site->check_calls > 0 && nth > site->check_calls;

	fds_scan(&f0);
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
	check(f1.all == f0.all && f1.alg == 0, "%s: no descriptor leaked (%d -> %d, AF_ALG %d)",
	      env, f0.all, f1.all, f1.alg);
	if (nth == 0) {
		check(d.engine == 0, "%s: nothing on the engine (+%" PRIu64 ")", env, d.engine);
		check(d.errors >= 8, "%s: engine errors +%" PRIu64 " (>= 8)", env, d.errors);
		check(err_at[FAULT_KEYS - 1] == err_at[FAULT_KEYS - 3],
		      "%s: after the engine was disabled it is not tried again", env);
		check(strstr(gate, "consecutive AF_ALG errors") != NULL,
		      "%s: eip93-gate says the engine is disabled", env);
		check(d.kc_fail == (site->check_calls > 0 ? d.errors : 0),
		      "%s: key-checks-failed +%" PRIu64 " (%s)", env, d.kc_fail,
		      site->check_calls > 0 ? "one per key tried" : "keys never opened");
	} else {
		uint64_t kc_fail = site->check_calls > 0 && !data_path;
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

/* ---- lifetimes ------------------------------------------------------------- */

static int cmd_lifetimes(long n)
{
	static struct msg m;
	uint64_t rng = 0x11fe;
	struct snap a, b, d;
	struct fds f0, f1;
	long bad = 0;
	EVP_CIPHER_CTX *c;
	double t0, t1;

	/* Warm-up: the first lifetime may allocate lazily (lock, registry, fork handler). */
	c = EVP_CIPHER_CTX_new();
	check(c != NULL && msg_make(&m, &rng, 0, 4096, 1) && eng_encrypt(c, &m, 1),
	      "warm-up lifetime");
	EVP_CIPHER_CTX_free(c);

	fds_scan(&f0);
	snap_take(&a);
	t0 = now_ms();
	for (long i = 0; i < n; i++) {
		c = EVP_CIPHER_CTX_new();
		if (c == NULL || !msg_make(&m, &rng, (int)(i % NKEYS), 4096, 1) ||
		    !eng_encrypt(c, &m, 1))
			bad++;
		EVP_CIPHER_CTX_free(c);
	}
	t1 = now_ms();
	snap_take(&b);
	fds_scan(&f1);
	d = snap_delta(&a, &b);
	snap_print("lifetimes", &d);
	measure("%ld key lifetimes (new context, new key: open + check, one 4096-byte engine "
		"encryption, free) in %.1f s",
		n, (t1 - t0) / 1e3);
	check(bad == 0, "%ld key lifetimes: every output correct (%ld wrong)", n, bad);
	check(f0.all == f1.all, "fd count unchanged after %ld key lifetimes (%d -> %d)", n, f0.all,
	      f1.all);
	check(f1.alg == 0, "no AF_ALG socket left open (%d)", f1.alg);
	check(d.engine == (uint64_t)n && d.kc_pass == (uint64_t)n,
	      "every lifetime ran on the engine with its own verified key "
	      "(engine +%" PRIu64 ", checks +%" PRIu64 ")",
	      d.engine, d.kc_pass);
	check(d.sw_sockcap == 0, "the socket cap was never reached (socket-cap +%" PRIu64 ")",
	      d.sw_sockcap);
	check(d.ops < 0 || d.ops >= (long long)d.engine,
	      "driver ops +%lld >= engine messages +%" PRIu64, d.ops, d.engine);
	return 1;
}

/* ---- fork ------------------------------------------------------------------ */

/*
 * In the child: no inherited AF_ALG socket; the message begun in the parent
 * ends correctly; context A reopens and verifies its own sockets.
 */
static int child_after_fork(EVP_CIPHER_CTX *a, struct msg *ma, EVP_CIPHER_CTX *mid,
			    const struct msg *mb, const struct fds *parent)
{
	unsigned char out[16], tag[TAGLEN];
	uint64_t rng = 0xc41d;
	struct snap s0, s1, d;
	struct fds f;
	int ok, n = 0, foreign = 0;

	line_prefix = "    child: ";
	n_pass = n_fail = 0;
	fds_scan(&f);
	check(f.alg == 0, "right after fork the child holds no AF_ALG socket (%d; the parent %d)",
	      f.alg, parent->alg);

	ok = EVP_EncryptFinal_ex(mid, out, &n) && n == 0 &&
	     EVP_CIPHER_CTX_ctrl(mid, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag) > 0 &&
	     memcmp(tag, mb->tag, TAGLEN) == 0;
	ERR_clear_error();
	check(ok, "an engine message begun in the parent ends in the child with the right tag");

	snap_take(&s0);
	ok = msg_make(ma, &rng, ma->ks, MSG_LEN, 0) && roundtrip(a, ma, 0);
	snap_take(&s1);
	d = snap_delta(&s0, &s1);
	check(ok, "the parent's context gives correct results in the child");
	check(d.engine == 2 && d.kc_pass == 1,
	      "the child opened and verified its own sockets and used the engine "
	      "(engine +%" PRIu64 ", key checks +%" PRIu64 ")",
	      d.engine, d.kc_pass);
	fds_scan(&f);
	for (int i = 0; i < f.alg && i < MAX_ALG_FDS; i++)
		foreign += fds_has_ino(parent, f.ino[i]);
	check(f.alg == 2 && foreign == 0,
	      "the child's AF_ALG sockets (%d) are its own: none is one of the parent's", f.alg);
	printf("%sfork child: %d passed, %d failed\n", line_prefix, n_pass, n_fail);
	fflush(stdout);
	return n_fail == 0 ? 0 : 1;
}

static int cmd_fork(void)
{
	static struct msg ma, mb;
	unsigned char out[MSG_MAX], tag[TAGLEN];
	uint64_t rng = 0xf04c;
	EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new(), *mid = EVP_CIPHER_CTX_new();
	struct snap s0, s1, d;
	struct fds fp, fq;
	int ok, n = 0, same = 1, st = 0;
	pid_t pid;

	if (a == NULL || mid == NULL || !msg_make(&ma, &rng, 2, MSG_LEN, 1) ||
	    !msg_make(&mb, &rng, 1, MSG_LEN, 1))
		return check(0, "setup");
	check(roundtrip(a, &ma, 1), "parent: context A on the engine");
	/* Context B: an engine message under way (data done, final not yet). */
	ok = EVP_EncryptInit_ex2(mid, c_test[mb.ks], mb.key, mb.iv, NULL) &&
	     EVP_EncryptUpdate(mid, NULL, &n, mb.aad, AADLEN) &&
	     EVP_EncryptUpdate(mid, out, &n, mb.pt, (int)mb.len) && (size_t)n == mb.len &&
	     memcmp(out, mb.ct, mb.len) == 0;
	check(ok, "parent: context B has an engine message under way");
	fds_scan(&fp);
	check(fp.alg == 4, "parent holds 4 AF_ALG sockets (2 per key): %d", fp.alg);

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child_after_fork(a, &ma, mid, &mb, &fp));
	if (!check(pid > 0, "fork"))
		return 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child passed its checks (status %#x)",
	      st);

	fds_scan(&fq);
	for (int i = 0; i < fp.alg && i < MAX_ALG_FDS; i++)
		same &= fds_has_ino(&fq, fp.ino[i]);
	check(fq.alg == fp.alg && same, "the parent's AF_ALG sockets are untouched by the child");
	snap_take(&s0);
	ok = msg_make(&ma, &rng, ma.ks, MSG_LEN, 0) && roundtrip(a, &ma, 0);
	check(ok, "parent: context A still correct after the child finished");
	n = 0;
	ok = EVP_EncryptFinal_ex(mid, out, &n) && n == 0 &&
	     EVP_CIPHER_CTX_ctrl(mid, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag) > 0 &&
	     memcmp(tag, mb.tag, TAGLEN) == 0;
	check(ok, "parent: context B's message ends with the right tag");
	snap_take(&s1);
	d = snap_delta(&s0, &s1);
	check(d.engine == 2 && d.kc_pass == 0 && d.errors == 0,
	      "parent: on the engine with its original sockets (engine +%" PRIu64
	      ", key checks +%" PRIu64 ", errors +%" PRIu64 ")",
	      d.engine, d.kc_pass, d.errors);
	EVP_CIPHER_CTX_free(a);
	EVP_CIPHER_CTX_free(mid);
	return 1;
}

/* ---- exec ------------------------------------------------------------------ */

/* The afalg-fds command: runs in a freshly exec'd image, before any OpenSSL setup. */
static int cmd_afalg_fds(int argc, char **argv)
{
	long expect = argc > 0 ? strtol(argv[0], NULL, 10) : 0;
	struct fds f;

	if (argc >= 4) {
		n_pass = (int)strtol(argv[1], NULL, 10);
		n_fail = (int)strtol(argv[2], NULL, 10);
	} else {
		line_prefix = "    exec'd: ";
	}
	fds_scan(&f);
	for (int i = 0; i < f.alg && i < MAX_ALG_FDS; i++)
		note("AF_ALG socket fd %d inode %lu", f.alg_fd[i], f.ino[i]);
	check(f.alg == expect, "after exec: %d AF_ALG sockets open (expected %ld), %d fds in all",
	      f.alg, expect, f.all);
	if (argc >= 4)
		return finish(argv[3]);
	return n_fail == 0 ? 0 : 1;
}

static int wait_status(pid_t pid)
{
	int st = 0;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return st;
}

static int cmd_exec(void)
{
	static struct msg m;
	static char a0[] = "eip93-engine-check", a1[] = "afalg-fds", a2[] = "0";
	char *args[] = { a0, a1, a2, NULL };
	char pass[16], failed[16], *final_args[7];
	uint64_t rng = 0xe8ec;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	struct fds f;
	pid_t pid;
	int st;

	check(c != NULL && msg_make(&m, &rng, 0, MSG_LEN, 1) && roundtrip(c, &m, 1),
	      "a context on the engine");
	fds_scan(&f);
	check(f.alg == 2, "this process holds its 2 AF_ALG sockets (%d)", f.alg);

	/* posix_spawn runs no fork handlers: only close-on-exec can close them. */
	fflush(stdout);
	st = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ);
	if (check(st == 0, "posix_spawn of this program"))
		st = wait_status(pid);
	check(st == 0, "posix_spawn: the new image holds no AF_ALG socket (status %#x)", st);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", args);
		_exit(127);
	}
	st = pid > 0 ? wait_status(pid) : -1;
	check(st == 0, "fork + exec: the new image holds no AF_ALG socket (status %#x)", st);

	/* This very process, with the context still open: the new image finishes. */
	fds_scan(&f);
	check(f.alg == 2, "still 2 AF_ALG sockets open before exec (%d)", f.alg);
	snprintf(pass, sizeof(pass), "%d", n_pass);
	snprintf(failed, sizeof(failed), "%d", n_fail);
	final_args[0] = a0;
	final_args[1] = a1;
	final_args[2] = a2;
	final_args[3] = pass;
	final_args[4] = failed;
	final_args[5] = (char *)"exec";
	final_args[6] = NULL;
	fflush(stdout);
	execv("/proc/self/exe", final_args);
	check(0, "execv: %s", strerror(errno));
	EVP_CIPHER_CTX_free(c);
	return 0;
}

/* ---- threads --------------------------------------------------------------- */

#define NTHREADS 8
#define THREAD_ROUNDS 6 /* encrypt + decrypt each */

struct thread_arg {
	int idx;
	int wrong;
};

static void *thread_main(void *p)
{
	struct thread_arg *t = p;
	struct msg *m = calloc(1, sizeof(*m));
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	uint64_t rng = 0x7a0 + (uint64_t)t->idx;

	if (m == NULL || c == NULL) {
		t->wrong = 2 * THREAD_ROUNDS;
	} else {
		for (int r = 0; r < THREAD_ROUNDS; r++) {
			if (!msg_make(m, &rng, t->idx % NKEYS, MSG_LEN, r == 0)) {
				t->wrong += 2;
				continue;
			}
			t->wrong += !eng_encrypt(c, m, r == 0);
			t->wrong += !eng_decrypt(c, m, 0);
		}
	}
	EVP_CIPHER_CTX_free(c);
	free(m);
	return NULL;
}

static int cmd_threads(void)
{
	struct thread_arg args[NTHREADS];
	pthread_t th[NTHREADS];
	struct snap a, b, d;
	struct fds f0, f1;
	int wrong = 0, started = 0;

	fds_scan(&f0);
	snap_take(&a);
	for (int i = 0; i < NTHREADS; i++) {
		args[i].idx = i;
		args[i].wrong = 0;
		if (pthread_create(&th[i], NULL, thread_main, &args[i]) != 0)
			break;
		started++;
	}
	for (int i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		wrong += args[i].wrong;
	}
	snap_take(&b);
	fds_scan(&f1);
	d = snap_delta(&a, &b);
	snap_print("threads", &d);
	check(started == NTHREADS, "%d threads started", started);
	check(wrong == 0,
	      "%d threads x %d messages with their own contexts: every output correct "
	      "(%d wrong)",
	      NTHREADS, 2 * THREAD_ROUNDS, wrong);
	check(d.engine == (uint64_t)NTHREADS * 2 * THREAD_ROUNDS && d.kc_pass == NTHREADS,
	      "all on the engine (engine +%" PRIu64 ", key checks +%" PRIu64 ")", d.engine,
	      d.kc_pass);
	check(d.ops < 0 || d.ops >= (long long)d.engine, "driver ops +%lld", d.ops);
	check(f1.all == f0.all && f1.alg == 0, "every thread's sockets closed (%d -> %d fds)",
	      f0.all, f1.all);
	return 1;
}

/* ---- timeouts -------------------------------------------------------------- */

static volatile sig_atomic_t alarm_hits;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_hits = 1;
}

/* SIGALRM every @ms without SA_RESTART: a blocked syscall returns EINTR. */
static void guard_arm(unsigned int ms)
{
	struct sigaction sa;
	struct itimerval it;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	it.it_interval = it.it_value; /* repeats until disarmed */
	alarm_hits = 0;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void guard_disarm(void)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
}

static int set_timeouts(int fd, unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (suseconds_t)(ms % 1000) * 1000 };

	return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == 0 &&
	       setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0;
}

/* A bound, keyed AF_ALG aead socket; -1 on error. */
static int raw_tfm(void)
{
	struct sockaddr_alg sa;
	unsigned char key[16] = { 0 };
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	memcpy(sa.salg_type, "aead", 5);
	memcpy(sa.salg_name, kalg, strlen(kalg) + 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    setsockopt(fd, SOL_ALG, ALG_SET_KEY, key, sizeof(key)) != 0 ||
	    setsockopt(fd, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, TAGLEN) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* sendmsg with the operation, IV and AAD length, and MSG_MORE. */
static ssize_t raw_send_first(int op, const void *buf, size_t len)
{
	union {
		char b[CMSG_SPACE(4) + CMSG_SPACE(sizeof(struct af_alg_iv) + IVLEN) +
		       CMSG_SPACE(4)];
		struct cmsghdr align;
	} cb;
	struct msghdr msg;
	struct cmsghdr *c;
	struct af_alg_iv *iv;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	uint32_t v;

	memset(&cb, 0, sizeof(cb));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cb.b;
	msg.msg_controllen = sizeof(cb.b);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(4);
	v = ALG_OP_ENCRYPT;
	memcpy(CMSG_DATA(c), &v, 4);
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + IVLEN);
	iv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	iv->ivlen = IVLEN;
	memset(iv->iv, 0x42, IVLEN);
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(4);
	v = 0;
	memcpy(CMSG_DATA(c), &v, 4);
	return sendmsg(op, &msg, MSG_MORE);
}

static const char *err_name(int e)
{
	switch (e) {
	case EINTR:
		return "EINTR";
	case EAGAIN:
		return "EAGAIN";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EIO:
		return "EIO";
	case EBADMSG:
		return "EBADMSG";
	default:
		return "another error";
	}
}

/* Which socket-layer waits does SO_RCVTIMEO / SO_SNDTIMEO bound?  Measured only. */
static void raw_socket_waits(unsigned int timeout_ms)
{
	static unsigned char buf[65536];
	int tfm = raw_tfm(), op;
	double t0, t1;
	ssize_t n;
	size_t queued = 0;
	int e = 0, guard;

	if (tfm < 0) {
		note("raw AF_ALG socket on %s: %s", kalg, strerror(errno));
		return;
	}
	/* read() before the request is complete (the sender said MSG_MORE). */
	op = accept4(tfm, NULL, NULL, SOCK_CLOEXEC);
	if (op >= 0 && set_timeouts(op, timeout_ms) && raw_send_first(op, buf, 64) == 64) {
		guard_arm(2000);
		t0 = now_ms();
		n = read(op, buf, sizeof(buf));
		e = errno;
		t1 = now_ms();
		guard = alarm_hits;
		guard_disarm();
		measure("raw AF_ALG read() while the request is incomplete (MSG_MORE pending), "
			"SO_RCVTIMEO=%u ms: %s after %.0f ms%s",
			timeout_ms, n >= 0 ? "returned data" : err_name(e), t1 - t0,
			guard ? " (ended by this test's 2 s SIGALRM: the wait ignores SO_RCVTIMEO; "
				"interruptible by signals)"
			      : "");
	}
	if (op >= 0)
		close(op);

	/*
	 * sendmsg() into a full socket buffer (all of it MSG_MORE).  A call that
	 * already queued some bytes returns them when interrupted, so the guard
	 * repeats and the loop ends at the first guard signal.
	 */
	op = accept4(tfm, NULL, NULL, SOCK_CLOEXEC);
	if (op >= 0 && set_timeouts(op, timeout_ms)) {
		double longest = 0;
		ssize_t longest_n = 0;
		int longest_e = 0;

		n = raw_send_first(op, buf, sizeof(buf));
		queued = n > 0 ? (size_t)n : 0;
		guard_arm(2000);
		for (int i = 0; n >= 0 && !alarm_hits && i < 256; i++) {
			t0 = now_ms();
			n = send(op, buf, sizeof(buf), MSG_MORE);
			e = errno;
			t1 = now_ms();
			if (n > 0)
				queued += (size_t)n;
			if (t1 - t0 >= longest) {
				longest = t1 - t0;
				longest_n = n;
				longest_e = e;
			}
		}
		guard = alarm_hits;
		guard_disarm();
		measure("raw AF_ALG sendmsg() once the socket buffer is full (%zu bytes queued "
			"with "
			"MSG_MORE), SO_SNDTIMEO=%u ms: the longest call took %.0f ms and %s%s",
			queued, timeout_ms, longest,
			longest_n >= 0 ? "returned a partial count" : err_name(longest_e),
			guard ? " (ended by this test's 2 s SIGALRM: the wait ignores SO_SNDTIMEO; "
				"interruptible by signals)"
			      : "");
	}
	if (op >= 0)
		close(op);
	close(tfm);
}

/* The configured timeout on one of this process's AF_ALG sockets, or -1. */
static long op_socket_timeout_ms(void)
{
	struct fds f;

	fds_scan(&f);
	for (int i = 0; i < f.alg && i < MAX_ALG_FDS; i++) {
		struct timeval tv;
		socklen_t sl = sizeof(tv);

		if (getsockopt(f.alg_fd[i], SOL_SOCKET, SO_RCVTIMEO, &tv, &sl) == 0 &&
		    (tv.tv_sec != 0 || tv.tv_usec != 0))
			return (long)tv.tv_sec * 1000 + (long)tv.tv_usec / 1000;
	}
	return -1;
}

static int cmd_timeout(unsigned int timeout_ms)
{
	static struct msg m;
	const unsigned int delays[2] = { timeout_ms / 4, timeout_ms * 5 / 2 };
	uint64_t rng = 0x71e0;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	struct snap a, b, d;
	long got;

	check(c != NULL && msg_make(&m, &rng, 2, MSG_LEN, 1) && roundtrip(c, &m, 1),
	      "a context on the engine");
	got = op_socket_timeout_ms();
	check(got == (long)timeout_ms,
	      "the configured timeout-ms is on the operation socket (SO_RCVTIMEO %ld ms)", got);
	EVP_CIPHER_CTX_free(c);

	for (int i = 0; i < 2; i++) {
		unsigned int dl = delays[i];
		double t0, t1, t2;
		int e1, e2;

		c = EVP_CIPHER_CTX_new();
		if (c == NULL || !msg_make(&m, &rng, i, MSG_LEN, 1) || !knob_set("delay_ms", dl)) {
			check(0, "setup for delay_ms=%u", dl);
			knob_set("delay_ms", 0);
			EVP_CIPHER_CTX_free(c);
			continue;
		}
		snap_take(&a);
		t0 = now_ms();
		e1 = eng_encrypt(c, &m, 1);
		t1 = now_ms();
		e2 = eng_decrypt(c, &m, 0);
		t2 = now_ms();
		snap_take(&b);
		knob_set("delay_ms", 0);
		EVP_CIPHER_CTX_free(c);
		d = snap_delta(&a, &b);
		snap_print("delay", &d);
		check(e1 && e2, "delay_ms=%u, timeout-ms=%u: both outputs correct", dl, timeout_ms);
		if (dl < timeout_ms)
			check(d.engine == 2 && d.errors == 0,
			      "delay below the timeout: both messages on the engine, no error "
			      "(engine +%" PRIu64 ", errors +%" PRIu64 ")",
			      d.engine, d.errors);
		measure("delay_ms=%u, timeout-ms=%u: a new key's first message (setkey, 3 check "
			"requests, the message) took %.0f ms, the next message %.0f ms; engine "
			"messages +%" PRIu64 ", engine errors +%" PRIu64 ", driver ops +%lld",
			dl, timeout_ms, t1 - t0, t2 - t1, d.engine, d.errors, d.ops);
	}
	raw_socket_waits(timeout_ms);
	return 1;
}

/* ---- stall ----------------------------------------------------------------- */

#define STALL_RELEASE_MS 2000
#define STALL_KILL_MS 500

static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL || p[1] != ' ')
		return '?';
	return p[2];
}

static int read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n > 0) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		p += r;
		n -= (size_t)r;
	}
	return 1;
}

struct stall_result {
	int warm_ok, ok;
	uint64_t engine;
	double blocked_ms;
};

/* The child: a warm key, then (after "go") one message that the driver holds. */
static void stall_child(int to_parent, int from_parent)
{
	static struct msg m;
	struct stall_result r;
	uint64_t rng = 0x57a1;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	struct snap a, b;
	double t0;
	char go = 0;

	memset(&r, 0, sizeof(r));
	r.warm_ok = c != NULL && msg_make(&m, &rng, 2, MSG_LEN, 1) && roundtrip(c, &m, 1) &&
		    msg_make(&m, &rng, 2, MSG_LEN, 0);
	if (write(to_parent, "r", 1) != 1 || !read_full(from_parent, &go, 1))
		_exit(3);
	snap_take(&a);
	t0 = now_ms();
	r.ok = r.warm_ok && eng_encrypt(c, &m, 0);
	r.blocked_ms = now_ms() - t0;
	snap_take(&b);
	r.engine = b.engine - a.engine;
	if (write(to_parent, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(3);
	_exit(0);
}

/* One round; @kill_it: SIGKILL the blocked child before the release. */
static void stall_round(int kill_it, unsigned int timeout_ms)
{
	int up[2], down[2], st = 0, alive_at_release;
	struct stall_result r;
	long long held = -1;
	double t0, t_held = -1, t_rel, t_end;
	char state_at_release, ready = 0;
	pid_t pid;

	memset(&r, 0, sizeof(r));
	if (pipe2(up, O_CLOEXEC) != 0 || pipe2(down, O_CLOEXEC) != 0) {
		check(0, "pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		stall_child(up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);
	if (!check(pid > 0, "fork") || !read_full(up[0], &ready, 1)) {
		check(0, "the child got its key on the engine");
		if (pid > 0) {
			kill(pid, SIGKILL);
			wait_status(pid);
		}
		close(up[0]);
		close(down[1]);
		return;
	}
	knob_set("stall", 1);
	t0 = now_ms();
	if (write(down[1], "g", 1) != 1)
		note("cannot signal the child");
	/* Guard: whatever happens, the driver is released after STALL_RELEASE_MS. */
	while (now_ms() - t0 < STALL_RELEASE_MS) {
		if (t_held < 0 && (held = knob_get("held")) > 0)
			t_held = now_ms() - t0;
		if (kill_it == 1 && now_ms() - t0 >= STALL_KILL_MS) {
			kill(pid, SIGKILL);
			kill_it = 2;
		}
		sleep_ms(10);
	}
	state_at_release = proc_state(pid);
	alive_at_release = waitpid(pid, &st, WNOHANG) == 0;
	knob_set("stall", 0);
	t_rel = now_ms();
	if (alive_at_release)
		st = wait_status(pid);
	t_end = now_ms();
	close(down[1]);

	if (kill_it) {
		check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		      "the stalled child died of SIGKILL");
		measure("stall=1, SIGKILL at +%d ms: the process was %s at +%d ms (state %c), "
			"and died %.0f ms after stall=0 released the request",
			STALL_KILL_MS, alive_at_release ? "still alive" : "gone", STALL_RELEASE_MS,
			state_at_release, t_end - t_rel);
	} else {
		int got = read_full(up[0], &r, sizeof(r));

		check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && got, "the stalled child finished");
		check(got && r.ok, "the held message's output is correct once released");
		check(got && r.engine == 1, "it completed on the engine (engine +%" PRIu64 ")",
		      r.engine);
		measure("stall=1 (timeout-ms=%u): the request was held by the driver after %.0f ms "
			"(held=%lld); the process was blocked in state %c and still waiting at "
			"+%d ms; stall=0 released it: the call returned after %.0f ms in all, "
			"%.0f ms after the release, on the engine",
			timeout_ms, t_held, held, state_at_release, STALL_RELEASE_MS, r.blocked_ms,
			t_end - t_rel);
		check(alive_at_release, "a stalled request is not ended by the socket timeout "
					"(the call was still waiting when released)");
	}
	close(up[0]);
}

static int cmd_stall(unsigned int timeout_ms)
{
	stall_round(0, timeout_ms);
	stall_round(1, timeout_ms);
	check(knob_get("stall") == 0 && knob_get("held") == 0,
	      "the driver holds nothing afterwards");
	return 1;
}

/* ---- fail ------------------------------------------------------------------ */

#define FAIL_STEPS 12

static int cmd_fail(void)
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

/* ---- main ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f, "usage: eip93-engine-check [--config FILE] [--sysfs DIR] COMMAND [ARGS]\n"
		   "commands: corrupt faults lifetimes [N] fork exec threads fail\n"
		   "          timeout TIMEOUT-MS, stall TIMEOUT-MS (with a --config setting it)\n"
		   "          afalg-fds EXPECT [PASSED FAILED NAME]\n");
}

int main(int argc, char **argv)
{
	const char *config = NULL, *cmd;
	int i = 1, rc;

	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			config = argv[++i];
		} else if (strcmp(argv[i], "--sysfs") == 0 && i + 1 < argc) {
			sysfs_dir = argv[++i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	cmd = argv[i++];
	if (strcmp(cmd, "afalg-fds") == 0)
		return cmd_afalg_fds(argc - i, argv + i);
	if (!setup(config)) {
		teardown();
		return finish(cmd);
	}
	if (strcmp(cmd, "corrupt") == 0) {
		cmd_corrupt();
	} else if (strcmp(cmd, "faults") == 0) {
		cmd_faults();
	} else if (strcmp(cmd, "lifetimes") == 0) {
		cmd_lifetimes(i < argc ? strtol(argv[i], NULL, 10) : 10000);
	} else if (strcmp(cmd, "fork") == 0) {
		cmd_fork();
	} else if (strcmp(cmd, "exec") == 0) {
		cmd_exec();
	} else if (strcmp(cmd, "threads") == 0) {
		cmd_threads();
	} else if (strcmp(cmd, "timeout") == 0 && i < argc) {
		cmd_timeout((unsigned int)strtoul(argv[i], NULL, 10));
	} else if (strcmp(cmd, "stall") == 0 && i < argc) {
		cmd_stall((unsigned int)strtoul(argv[i], NULL, 10));
	} else if (strcmp(cmd, "fail") == 0) {
		cmd_fail();
	} else {
		usage(stderr);
		teardown();
		return 2;
	}
	rc = finish(cmd);
	teardown();
	return rc;
}
