// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check, the command timeout: the configured socket timeout on
 * the provider's sockets, requests the driver delays below and above it,
 * and which raw socket-layer waits SO_RCVTIMEO / SO_SNDTIMEO bound
 * ("measure:" lines).
 */
#include "engine_check.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/if_alg.h>

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

/* A bound, keyed AF_ALG socket on the gate's algorithm (an skcipher for
 * ctr(aes-eip93), else an aead); -1 on error. */
static int raw_tfm(void)
{
	struct sockaddr_alg sa;
	unsigned char key[16] = { 0 };
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	int ctr = strcmp(kalg, "ctr(aes-eip93)") == 0;

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	memcpy(sa.salg_type, ctr ? "skcipher" : "aead", ctr ? sizeof("skcipher") : sizeof("aead"));
	memcpy(sa.salg_name, kalg, strlen(kalg) + 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    setsockopt(fd, SOL_ALG, ALG_SET_KEY, key, sizeof(key)) != 0 ||
	    (!ctr && setsockopt(fd, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, TAGLEN) != 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* sendmsg with the operation, IV and AAD length, and MSG_MORE. */
static ssize_t raw_send_first(int op, const void *buf, size_t len)
{
	union {
		char b[CMSG_SPACE(4) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16) + CMSG_SPACE(4)];
		struct cmsghdr align;
	} cb;
	struct msghdr msg;
	struct cmsghdr *c;
	struct af_alg_iv *iv;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	uint32_t v;
	/* ctr(aes-eip93) takes the whole 16-byte counter block as its IV. */
	unsigned int ivlen = strcmp(kalg, "ctr(aes-eip93)") == 0 ? 16 : IVLEN;

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
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + ivlen);
	iv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
	iv->ivlen = ivlen;
	memset(iv->iv, 0x42, ivlen);
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(4);
	v = 0;
	memcpy(CMSG_DATA(c), &v, 4);
	msg.msg_controllen = 2 * CMSG_SPACE(4) + CMSG_SPACE(sizeof(struct af_alg_iv) + ivlen);
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

int cmd_timeout(unsigned int timeout_ms)
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
