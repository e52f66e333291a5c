// SPDX-License-Identifier: Apache-2.0
/*
 * tools/backend_advice.c owns eip93-doctor's advice on the two roads to the
 * engine, AF_ALG and /dev/crypto (docs/operations.md "Two roads to the
 * engine"): pure functions over the facts the kernel section read.
 */
#include "backend_advice.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../engine/engine.h"
#include "../provider/soc.h"

int backend_afalg_refuses(const struct backend_facts *f)
{
	int major = 0, minor = 0;

	if (f->restrict_val > 0)
		return 1;
	if (f->release == NULL || sscanf(f->release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major > 7 || (major == 7 && minor >= 2);
}

const char *backend_in_use(const struct backend_facts *f)
{
	if (f->afalg_bound && f->configured != EIP93_BACKEND_CRYPTODEV)
		return "AF_ALG";
	if (f->cdev_bound && f->configured != EIP93_BACKEND_AFALG)
		return "/dev/crypto";
	return "none";
}

/* Why AF_ALG is refused here, for the advice's first words. */
static void refusal(const struct backend_facts *f, char *buf, size_t len)
{
	if (f->restrict_val > 0)
		snprintf(buf, len, "af_alg_restrict = %d refuses the engine through AF_ALG",
			 f->restrict_val);
	else
		snprintf(buf, len,
			 "Linux %s refuses the engine through AF_ALG (from 7.2 it "
			 "refuses asynchronous, driver-only algorithms such as %s)",
			 f->release != NULL ? f->release : "7.2+",
			 f->driver_ctr != NULL ? f->driver_ctr
					       : eip93_socs[0]->mode[EIP93_MODE_CTR]);
}

/* How to get the cryptodev module on this system. */
static const char *module_howto(const struct backend_facts *f)
{
	return f->openwrt ? "install and load the cryptodev module: apk add kmod-cryptodev (or "
			    "opkg install kmod-cryptodev)"
			  : "load the cryptodev module (modprobe cryptodev); Debian does not "
			    "package it: build it against this kernel's headers, with DKMS or by "
			    "hand (docs/operations.md \"/dev/crypto on Debian\")";
}

static const char perms[] = "/dev/crypto must then be readable and writable by the service's "
			    "user (docs/operations.md \"Who may open /dev/crypto\")";

int backend_advice(const struct backend_facts *f, char *out, size_t len)
{
	char why[256];
	int refused = backend_afalg_refuses(f) && !f->afalg_bound;
	int cdev_missing =
		f->cdev_open == ENOENT || f->cdev_open == ENXIO || f->cdev_open == ENODEV;
	const char *drv = f->cdev_driver != NULL ? f->cdev_driver : "";

	out[0] = '\0';
	/* Forced onto a backend that cannot bind while the other would. */
	if (f->configured == EIP93_BACKEND_AFALG && !f->afalg_bound && f->cdev_bound) {
		snprintf(out, len,
			 "engine-backend = afalg, but AF_ALG does not bind here and "
			 "/dev/crypto would reach the engine: set engine-backend = auto (or "
			 "cryptodev)");
		return 1;
	}
	if (f->configured == EIP93_BACKEND_CRYPTODEV && !f->cdev_bound && f->afalg_bound) {
		snprintf(out, len,
			 "engine-backend = cryptodev, but /dev/crypto does not reach the "
			 "engine here and AF_ALG would: set engine-backend = auto (or afalg)");
		return 1;
	}
	if (f->afalg_bound || f->cdev_bound)
		return 0;
	if (refused) {
		refusal(f, why, sizeof(why));
		if (f->configured == EIP93_BACKEND_AFALG)
			snprintf(out, len,
				 "%s, and engine-backend = afalg forbids the other road: "
				 "set engine-backend = auto, then %s; %s",
				 why, module_howto(f), perms);
		else if (!f->cdev_tried || cdev_missing)
			snprintf(out, len,
				 "%s: use /dev/crypto instead: %s; %s. Until then the "
				 "provider stays in software, correctly",
				 why, module_howto(f), perms);
		else if (f->cdev_open == EACCES || f->cdev_open == EPERM)
			snprintf(out, len,
				 "%s; /dev/crypto is there but this user cannot read and "
				 "write it: give it to the service's group (docs/operations.md "
				 "\"Who "
				 "may open /dev/crypto\") or run as a user that can",
				 why);
		else if (drv[0] != '\0')
			snprintf(out, len,
				 "%s; /dev/crypto opens, but the kernel serves its "
				 "session with %s, not the engine: load the EIP93 driver "
				 "(OpenWrt: kmod-crypto-hw-eip93)",
				 why, drv);
		else
			snprintf(out, len,
				 "%s; /dev/crypto opens, but no composition reaches the "
				 "engine through it: is the EIP93 driver loaded?",
				 why);
		return 1;
	}
	if (f->afalg_socket != 0 && (!f->cdev_tried || cdev_missing)) {
		snprintf(out, len,
			 "neither AF_ALG nor /dev/crypto is usable on this kernel: "
			 "install one road to the engine: AF_ALG's modules af_alg, algif_skcipher "
			 "and algif_aead (%s), which reach the engine on kernels before 7.2, or "
			 "the cryptodev module, on any kernel (%s)",
			 f->openwrt ? "OpenWrt: kmod-crypto-user"
				    : "modprobe algif_skcipher "
				      "algif_aead",
			 f->openwrt ? "OpenWrt: kmod-cryptodev"
				    : "Debian: build it, docs/operations.md \"/dev/crypto on "
				      "Debian\"");
		return 1;
	}
	if (f->cdev_tried && (f->cdev_open == EACCES || f->cdev_open == EPERM) && f->driver == 1) {
		snprintf(out, len,
			 "/dev/crypto is there but this user cannot read and write it "
			 "(%s): give it to the service's group (docs/operations.md \"Who may "
			 "open /dev/crypto\")",
			 f->cdev_open == EACCES ? "EACCES" : "EPERM");
		return 1;
	}
	return 0;
}
