// SPDX-License-Identifier: Apache-2.0
/*
 * Test builds only: the AF_ALG backend's fault injection at each of its
 * syscalls (EIP93_TEST_FAULT=<site>[:<n>], the nth call at that site fails:
 * docs/testing.md).  Included by engine/afalg.c (the sites of opening a key)
 * and engine/afalg_req.c (those of a request), each with its own state, as
 * no site is in both; FAULT(site) is the
 * errno to inject there, or 0 (always 0 in the product).
 */
#ifndef EIP93_AFALG_FAULT_H
#define EIP93_AFALG_FAULT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef EIP93_TEST_HOOKS
enum fault_site {
	F_SOCKET,
	F_BIND,
	F_SETKEY,
	F_AUTHSIZE,
	F_ACCEPT,
	F_TIMEOUT,
	F_SENDMSG,
	F_READ,
	F_SHORTREAD,
	F_NSITES
};
static const char *const fault_names[F_NSITES] = { "socket",   "bind",	 "setkey",
						   "authsize", "accept", "timeout",
						   "sendmsg",  "read",	 "shortread" };
static int fault_site = -1;
static long fault_nth;
static atomic_long fault_calls;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;

static void fault_read_env(void)
{
	const char *v = getenv("EIP93_TEST_FAULT");

	if (v == NULL)
		return;
	for (int i = 0; i < F_NSITES; i++) {
		size_t n = strlen(fault_names[i]);

		if (strncmp(v, fault_names[i], n) == 0 && (v[n] == '\0' || v[n] == ':')) {
			fault_site = i;
			fault_nth = v[n] == ':' ? strtol(v + n + 1, NULL, 10) : 1;
		}
	}
}

/* Should this call at @site fail?  Errno to inject, or 0. */
static int fault(enum fault_site site)
{
	long call;

	pthread_once(&fault_once, fault_read_env);
	if (fault_site != (int)site)
		return 0;
	call = atomic_fetch_add(&fault_calls, 1) + 1;
	if (fault_nth == 0 || call == fault_nth)
		return site == F_TIMEOUT ? EAGAIN : EIO;
	return 0;
}
#define FAULT(site) fault(site)
/*
 * Does EIP93_TEST_FAULT name a site of opening a key?  The pool is off then:
 * those sites model a key opening its own sockets.
 */
static inline int fault_opening(void)
{
	pthread_once(&fault_once, fault_read_env);
	return fault_site >= F_SOCKET && fault_site <= F_TIMEOUT;
}
#define FAULT_OPENING() fault_opening()
#else
#define FAULT(site) 0
#define FAULT_OPENING() 0
#endif

#endif /* EIP93_AFALG_FAULT_H */
