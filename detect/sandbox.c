// SPDX-License-Identifier: Apache-2.0
/*
 * Is this process under a seccomp filter?  Asked before a key opens its
 * AF_ALG sockets, because a filter may kill on socket(): OpenSSH's pre-auth
 * child does.  prctl(PR_GET_SECCOMP) is not used: that filter kills on prctl
 * too.  Only open, read and close are used, which OpenSSH's filter allows or
 * refuses with EACCES (it never kills on them).  "Seccomp:" in
 * /proc/self/status: 0 none, 2 filter (1, strict mode, cannot reach here:
 * open itself would have killed).  The status is read whole, in pieces, and
 * scanned as it comes: the line may lie anywhere (with many supplementary
 * groups the "Groups:" line before it is several KiB long: 700 put it past 5 KiB).
 * An unreadable status counts as sandboxed (an unknown filter may kill),
 * except when /proc is simply absent (ENOENT: a chroot, as haproxy's and
 * sshd's) and an earlier reading in this process or an ancestor said "no
 * filter": the reading is taken once when the gate opens
 * (eip93_sandbox_prime()), normally before a daemon chroots.
 * A filter is never removed, so a "yes" is remembered for this pid; a "no"
 * is asked again at the next key open (a filter may come later).
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

static const char tag[] = "Seccomp:";

enum {
	S_LINE,	 /* at the start of a line, or matching the tag (matched bytes) */
	S_OTHER, /* in another line: skip to its end */
	S_SPACE, /* after the tag: blanks */
	S_VALUE, /* in the value */
	S_DONE,	 /* the value's line ended: the verdict is known */
};

void eip93_status_init(struct eip93_status_scan *s)
{
	s->state = S_LINE;
	s->matched = 0;
	s->zero = 0;
}

int eip93_status_feed(struct eip93_status_scan *s, const char *buf, size_t n)
{
	for (size_t i = 0; i < n && s->state != S_DONE; i++) {
		char c = buf[i];

		switch (s->state) {
		case S_LINE:
			if (c == tag[s->matched]) {
				if (++s->matched == sizeof(tag) - 1)
					s->state = S_SPACE;
			} else {
				s->state = c == '\n' ? S_LINE : S_OTHER;
				s->matched = 0;
			}
			break;
		case S_OTHER:
			if (c == '\n')
				s->state = S_LINE;
			break;
		case S_SPACE:
			if (c == ' ' || c == '\t')
				break;
			s->state = S_VALUE;
			s->zero = c == '0';
			if (c == '\n')
				s->state = S_DONE;
			break;
		default: /* S_VALUE */
			if (c == '\n')
				s->state = S_DONE;
			else
				s->zero = 0; /* "0" and nothing else means no filter */
			break;
		}
	}
	return s->state == S_DONE;
}

int eip93_status_verdict(const struct eip93_status_scan *s)
{
	return (s->state == S_VALUE || s->state == S_DONE) && s->zero ? 0 : 1;
}

/* 0: no filter, 1: a filter, -errno: the status could not be opened. */
static int read_status(void)
{
	struct eip93_status_scan scan;
	char buf[1024];
	ssize_t n;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -errno;
	eip93_status_init(&scan);
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || eip93_status_feed(&scan, buf, (size_t)n))
			break;
	}
	close(fd);
	return eip93_status_verdict(&scan);
}

static _Atomic int sandboxed_pid;
static _Atomic int clear_seen; /* inherited across fork, like a filter would be */

int eip93_sandboxed(void)
{
	int pid = (int)getpid(), r;

	if (atomic_load_explicit(&sandboxed_pid, memory_order_relaxed) == pid)
		return 1;
	r = read_status();
	if (r == 0)
		atomic_store_explicit(&clear_seen, 1, memory_order_relaxed);
	if (r == 0 || (r == -ENOENT && atomic_load_explicit(&clear_seen, memory_order_relaxed)))
		return 0;
	atomic_store_explicit(&sandboxed_pid, pid, memory_order_relaxed);
	return 1;
}

void eip93_sandbox_prime(void)
{
	(void)eip93_sandboxed();
}
