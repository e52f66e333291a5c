// SPDX-License-Identifier: Apache-2.0
/*
 * The user-space /dev/crypto's fault plans (EIP93_TEST_CDEV_FAULT, documented
 * in cdev_shim.c): their syntax and the wrong results they make.
 */
#ifndef EIP93_CDEV_FAULT_H
#define EIP93_CDEV_FAULT_H

#include <stddef.h>

#include "engine/cryptodev_abi.h"

enum req { R_OPEN, R_GSESSION, R_FSESSION, R_SESSINFO, R_CRYPT, R_AUTHCRYPT, R_N };
extern const char *const cdev_req_names[R_N];
enum kind { K_ERRNO, K_FLIP, K_FLIPLAST, K_SHORT, K_DRIVER, K_SRCPAGE, K_DSTPAGE, K_SKIP };

struct plan {
	unsigned long nth;
	enum req req;
	enum kind kind;
	int err;
	int every;
	long arg; /* srcpage, dstpage: K; skip: B */
	char driver[EIP93_CDEV_NAME_MAX];
};

/* cdev_die() - a bad plan: say so and exit 2. */
void cdev_die(const char *what, const char *v);
/* cdev_plan_parse() - one REQ:KIND:NTH[:every] into @p (exits on a bad one). */
void cdev_plan_parse(char *s, struct plan *p);
/*
 * cdev_damage() - @out (@len bytes) as the plan makes it from the correct
 * result in @tmp; @src and @n: the request's source and its payload bytes.
 */
void cdev_damage(const struct plan *p, const unsigned char *tmp, unsigned char *out, size_t len,
		 const unsigned char *src, size_t n);

#endif /* EIP93_CDEV_FAULT_H */
