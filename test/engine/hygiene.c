// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check, the commands lifetimes, fork, exec (with afalg-fds, run
 * in the exec'd image) and threads: AF_ALG descriptors over key lifetimes,
 * across fork and exec, and with threads.
 */
#include "engine_check.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/err.h>

extern char **environ;

/* ---- lifetimes ------------------------------------------------------------- */

int cmd_lifetimes(long n)
{
	static struct msg m;
	uint64_t rng = 0x11fe;
	struct snap a, b, d;
	struct fds f0, f1;
	long bad = 0;
	EVP_CIPHER_CTX *c;
	double t0, t1;
	int pooled0, pooled;

	/* Warm-up: the first lifetime may allocate lazily (lock, registry, fork handler). */
	c = EVP_CIPHER_CTX_new();
	check(c != NULL && msg_make(&m, &rng, 0, 4096, 1) && eng_encrypt(c, &m, 1),
	      "warm-up lifetime");
	EVP_CIPHER_CTX_free(c);

	fds_scan(&f0);
	pooled0 = (int)counter("eip93-afalg-pooled-sockets");
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
	pooled = (int)counter("eip93-afalg-pooled-sockets");
	check(f1.all == f0.all - pooled0 + pooled,
	      "fd count unchanged after %ld key lifetimes but for the pool (%d -> %d, pooled %d -> "
	      "%d)",
	      n, f0.all, f1.all, pooled0, pooled);
	check(f1.alg == pooled && pooled <= 4 * 3,
	      "no AF_ALG socket left open but the pool's, at most 4 keys' (%d, pooled %d)", f1.alg,
	      pooled);
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

int cmd_fork(void)
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
int cmd_afalg_fds(int argc, char **argv)
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

int wait_status(pid_t pid)
{
	int st = 0;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return st;
}

int cmd_exec(void)
{
	static struct msg m;
	static char a0[] = "eip93-engine-check", a1[] = "afalg-fds", a2[] = "0";
	char *args[] = { a0, a1, a2, NULL };
	char pass[16], failed[16], *final_args[7];
	uint64_t rng = 0xe8ec;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	struct fds f;
	int pooled;
	pid_t pid;
	int st;

	check(c != NULL && msg_make(&m, &rng, 0, MSG_LEN, 1) && roundtrip(c, &m, 1),
	      "a context on the engine");
	fds_scan(&f);
	pooled = (int)counter("eip93-afalg-pooled-sockets");
	check(f.alg == 2 + pooled, "this process holds its 2 AF_ALG sockets, and %d pooled (%d)",
	      pooled, f.alg);

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
	check(f.alg == 2 + pooled, "still 2 AF_ALG sockets (and %d pooled) open before exec (%d)",
	      pooled, f.alg);
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

int cmd_threads(void)
{
	struct thread_arg args[NTHREADS];
	pthread_t th[NTHREADS];
	struct snap a, b, d;
	struct fds f0, f1;
	int pooled0, pooled;
	int wrong = 0, started = 0;

	fds_scan(&f0);
	pooled0 = (int)counter("eip93-afalg-pooled-sockets");
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
	pooled = (int)counter("eip93-afalg-pooled-sockets");
	check(f1.all - pooled == f0.all - pooled0 && f1.alg == pooled,
	      "every thread's sockets closed or pooled (%d -> %d fds, %d pooled)", f0.all, f1.all,
	      pooled);
	return 1;
}
