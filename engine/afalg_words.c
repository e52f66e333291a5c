// SPDX-License-Identifier: Apache-2.0
/*
 * AF_ALG's row words: its probe as a row calls it, how a failed bind reads,
 * and what a set of failed binds means on this kernel (the gate's status and
 * eip93-doctor's "meaning" line).  No sockets here: the facts come from
 * detect/ (docs/operations.md "Why it did not switch on").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../detect/detect.h"
#include "engine.h"

int eip93_afalg_probe(const char *kalg, char *driver, size_t n)
{
	(void)driver;
	(void)n;
	return eip93_kprobe_alg(kalg);
}

int eip93_afalg_dead(int err)
{
	(void)err;
	return 0; /* one algorithm's bind says nothing of the next */
}

void eip93_afalg_tried(char *buf, size_t n, const char *kalg, int err, const char *driver)
{
	(void)driver;
	snprintf(buf, n, "kernel: AF_ALG bind %s: %s %d (%s)", kalg, eip93_errno_name(err), err,
		 strerror(err));
}

/* Major and minor of a kernel release ("7.2.13+deb14-amd64" -> 7, 2); 0 when unknown. */
static int release_version(const char *release, int *major, int *minor)
{
	*major = *minor = 0;
	return release != NULL && sscanf(release, "%d.%d", major, minor) == 2;
}

const char *eip93_afalg_why_facts(const struct eip93_engine_tries *t, int restrict_val,
				  int driver_state, char *buf, size_t n)
{
	const int *err = t->err;
	const char *d = t->driver_ctr;
	int ctr_only_refused = err[EIP93_COMP_CTR] == ENOTSUP || err[EIP93_COMP_ECB] == ENOTSUP;
	int major, minor, v72, all_afns = 1, all_noent = 1, tried = 0;

	/* Only the kinds tried speak (0: not tried, as none bound); a composed one refused. */
	for (int i = 0; i < EIP93_NCOMP_KINDS; i++)
		if (i != EIP93_COMP_CTR && i != EIP93_COMP_ECB && err[i] != 0 && err[i] != ENOENT)
			ctr_only_refused = 0;
	if (ctr_only_refused) {
		snprintf(buf, n,
			 "this libcrypto's GCM128 code failed the composition's self-test (its "
			 "route does not give GCM128's own results), so %s cannot be composed, "
			 "and no kernel GCM over it binds",
			 d);
		return buf;
	}
	for (int i = 0; i < EIP93_NCOMP_KINDS; i++) {
		all_afns &= err[i] == 0 || err[i] == EAFNOSUPPORT;
		all_noent &= err[i] == 0 || err[i] == ENOENT;
		tried |= err[i] != 0;
	}
	if (!tried) {
		snprintf(buf, n, "no composition of %s was tried", d);
		return buf;
	}
	v72 = release_version(t->release, &major, &minor) &&
	      (major > 7 || (major == 7 && minor >= 2));
	if (all_afns)
		snprintf(buf, n, "%s",
			 restrict_val == 2
				 ? "af_alg_restrict = 2 forbids AF_ALG sockets "
				   "(socket: EAFNOSUPPORT)"
				 : "this kernel offers no AF_ALG sockets (af_alg/algif_aead "
				   "not loaded or not built)");
	else if (restrict_val == 1 && all_noent)
		snprintf(buf, n,
			 "af_alg_restrict = 1 (the Linux 7.3 default) refuses gcm and "
			 "hardware drivers: AEAD binds are limited to ccm(aes)");
	else if (driver_state == 0)
		snprintf(buf, n, "%s is not loaded (no %s in /proc/crypto)%s", t->driver, d,
			 v72 ? "; AF_ALG refuses hardware drivers from Linux 7.2 anyway" : "");
	else if (v72 && err[EIP93_COMP_GCM_LIB] == ENOENT)
		snprintf(buf, n,
			 "AF_ALG refuses hardware drivers from Linux 7.2 (%s is async and "
			 "driver-only); ghash-lib is the right name but the driver cannot be bound",
			 d);
	else if (major >= 7 && minor >= 1 && err[EIP93_COMP_GCM_LIB] != 0)
		snprintf(buf, n,
			 "Linux 7.1+: only ghash-lib is a valid GHASH name, and it does not bind");
	else if (err[EIP93_COMP_CTR] == 0 && err[EIP93_COMP_ECB] != 0 &&
		 err[EIP93_COMP_ECB] != ENOTSUP) /* an engine without AES-CTR: its ECB alone */
		snprintf(buf, n, "%s does not bind as an skcipher (algif_skcipher missing?)", d);
	else if (err[EIP93_COMP_CTR] != 0 && err[EIP93_COMP_CTR] != ENOTSUP &&
		 err[EIP93_COMP_GCM_GENERIC] == ENOENT && err[EIP93_COMP_GCM_LIB] == ENOENT)
		snprintf(buf, n,
			 "%s does not bind as an skcipher (algif_skcipher missing?) and no GCM "
			 "composition over it binds (gcm template, GHASH or algif_aead missing)",
			 d);
	else
		snprintf(buf, n, "no composition over %s binds", d);
	return buf;
}

const char *eip93_afalg_why(const struct eip93_engine_tries *t, char *buf, size_t n)
{
	return eip93_afalg_why_facts(t, eip93_kprobe_restrict(), eip93_kprobe_driver(t->driver_ctr),
				     buf, n);
}
