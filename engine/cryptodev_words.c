// SPDX-License-Identifier: Apache-2.0
/*
 * /dev/crypto's row words: how a failed session reads, when the device
 * itself is what failed, and what a set of failed sessions means (the
 * gate's status and eip93-doctor's "cdev meaning" line).  Pure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../detect/detect.h"
#include "engine.h"

/* A device-level failure: no composition can open a session, so stop trying. */
int eip93_cryptodev_dead(int err)
{
	return err == ENOENT || err == ENXIO || err == EACCES || err == EPERM;
}

void eip93_cryptodev_tried(char *buf, size_t n, const char *kalg, int err, const char *driver)
{
	char e[96];

	snprintf(e, sizeof(e), "%s %d (%s)", eip93_errno_name(err), err, strerror(err));
	if (err == ENODEV && driver != NULL && driver[0] != '\0')
		snprintf(buf, n, "kernel: /dev/crypto session %s: served by %s, not the engine",
			 kalg, driver);
	else if (eip93_cryptodev_dead(err))
		snprintf(buf, n, "kernel: /dev/crypto: %s", e);
	else
		snprintf(buf, n, "kernel: /dev/crypto session %s: %s", kalg, e);
}

const char *eip93_cryptodev_why(const struct eip93_engine_tries *t, char *buf, size_t n)
{
	int any_nodev = 0;

	for (int i = 0; i < EIP93_NCOMP_KINDS; i++) {
		const char *why = NULL;

		if (t->err[i] == ENOENT || t->err[i] == ENXIO)
			why = "/dev/crypto: no such device (the cryptodev module is not loaded: "
			      "modprobe cryptodev)";
		else if (t->err[i] == EACCES)
			why = "/dev/crypto: not readable and writable by this process's user (see "
			      "its owner and mode)";
		else if (t->err[i] == EPERM)
			why = "/dev/crypto: never opened under a seccomp filter";
		if (why != NULL) {
			snprintf(buf, n, "%s", why);
			return buf;
		}
		any_nodev |= t->err[i] == ENODEV;
	}
	if (any_nodev)
		snprintf(buf, n,
			 "/dev/crypto: the kernel serves these with another driver, not the engine "
			 "(is %s loaded?)",
			 t->driver);
	else
		snprintf(buf, n, "/dev/crypto: no composition over %s opens a session",
			 t->driver_ctr);
	return buf;
}
