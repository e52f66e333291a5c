// SPDX-License-Identifier: Apache-2.0
/*
 * Is this process under a seccomp filter?  Asked before a key opens its
 * AF_ALG sockets (alg/key.c), answered from /proc/self/status alone
 * (docs/design.md, "Sandboxes").  The scanner is pure (bytes in, verdict
 * out) so that unit tests can feed it any status, in any pieces.
 */
#ifndef EIP93_SANDBOX_H
#define EIP93_SANDBOX_H

#include <stddef.h>

/* A scan of /proc/self/status for its "Seccomp:" line, fed piece by piece. */
struct eip93_status_scan {
	unsigned int state; /* where in a line the scan is (sandbox.c) */
	size_t matched;	    /* bytes of "Seccomp:" matched at the start of this line */
	int zero;	    /* the value read so far is "0" */
};

/* eip93_status_init() - a scan at the start of the status. */
void eip93_status_init(struct eip93_status_scan *s);

/* eip93_status_feed() - the next @n bytes; returns 1 once the verdict is known. */
int eip93_status_feed(struct eip93_status_scan *s, const char *buf, size_t n);

/**
 * eip93_status_verdict() - what the bytes fed so far say.
 *
 * Return: 0 when a line "Seccomp:" holds 0 (no filter), 1 otherwise (a
 * filter, strict mode, another value, or no such line: an unknown filter
 * may kill on socket(), so it counts as one).
 */
int eip93_status_verdict(const struct eip93_status_scan *s);

/**
 * eip93_sandboxed() - does this process run under a seccomp filter?
 *
 * Return: 1 (sandboxed, or its status unreadable other than /proc being
 * absent after an earlier "no"), 0 (no filter).
 */
int eip93_sandboxed(void);

/*
 * eip93_sandbox_prime() - read the process's seccomp state now (the gate calls
 * it when it opens, normally before a daemon chroots away from /proc).
 */
void eip93_sandbox_prime(void);

#endif /* EIP93_SANDBOX_H */
