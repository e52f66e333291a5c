// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check, the command stall: a request held by the driver's
 * stall knob in a child process, released after ~2 s (once waited for,
 * once SIGKILLed while held).
 */
#include "engine_check.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

int cmd_stall(unsigned int timeout_ms)
{
	stall_round(0, timeout_ms);
	stall_round(1, timeout_ms);
	check(knob_get("stall") == 0 && knob_get("held") == 0,
	      "the driver holds nothing afterwards");
	return 1;
}
