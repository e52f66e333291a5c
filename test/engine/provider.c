// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check: the eip93 and default providers in their own library
 * context, the ciphers fetched from both, the gate text, and snapshots of
 * the provider's counters (and the driver's op count).
 */
#include "engine_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

/* ---- providers ------------------------------------------------------------ */

static const char *const cipher_names[NKEYS] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };

static OSSL_LIB_CTX *lib;
static OSSL_PROVIDER *prov_eip93, *prov_default;
EVP_CIPHER *c_test[NKEYS], *c_ref[NKEYS];
char kalg[64]; /* the kernel algorithm the gate bound */

uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_uint64(name, &v);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov_eip93, p) || !OSSL_PARAM_modified(&p[0])) {
		note("cannot read provider parameter %s", name);
		ERR_clear_error();
		return 0;
	}
	return v;
}

/* The gate text, copied at once. */
void gate_text(char *buf, size_t n)
{
	const char *s = NULL;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&s, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov_eip93, p) || s == NULL) {
		ERR_clear_error();
		snprintf(buf, n, "(unreadable)");
		return;
	}
	snprintf(buf, n, "%s", s);
}

/* Overwrite a stretch of the stack below the caller's frame. */
static __attribute__((noinline)) void stack_scribble(void)
{
	volatile unsigned char junk[8192];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0x5a;
}

/*
 * Is the eip93-gate text still the same once the call has returned and the
 * stack below it was reused?  A UTF8 pointer parameter must point to memory
 * that outlives the call (OpenSSL copies nothing).
 */
int gate_text_outlives_call(char *first, size_t n)
{
	const char *s = NULL;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&s, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov_eip93, p) || s == NULL) {
		ERR_clear_error();
		return 0;
	}
	snprintf(first, n, "%s", s);
	stack_scribble();
	return strncmp(first, s, n) == 0;
}

void snap_take(struct snap *s)
{
	s->engine = counter("eip93-engine-messages");
	s->bytes = counter("eip93-engine-bytes");
	s->sw = counter("eip93-software-messages");
	s->kc_pass = counter("eip93-key-checks-passed");
	s->kc_fail = counter("eip93-key-checks-failed");
	s->errors = counter("eip93-engine-errors");
	s->sw_keycheck = counter("eip93-software-messages-key-check");
	s->sw_error = counter("eip93-software-messages-error");
	s->sw_gate = counter("eip93-software-messages-gate");
	s->sw_replay = counter("eip93-software-messages-replay");
	s->sw_sockcap = counter("eip93-software-messages-socket-cap");
	s->ops = knob_get("ops");
}

/* after - before, for every field. */
struct snap snap_delta(const struct snap *a, const struct snap *b)
{
	struct snap d;

	d.engine = b->engine - a->engine;
	d.bytes = b->bytes - a->bytes;
	d.sw = b->sw - a->sw;
	d.kc_pass = b->kc_pass - a->kc_pass;
	d.kc_fail = b->kc_fail - a->kc_fail;
	d.errors = b->errors - a->errors;
	d.sw_keycheck = b->sw_keycheck - a->sw_keycheck;
	d.sw_error = b->sw_error - a->sw_error;
	d.sw_gate = b->sw_gate - a->sw_gate;
	d.sw_replay = b->sw_replay - a->sw_replay;
	d.sw_sockcap = b->sw_sockcap - a->sw_sockcap;
	d.ops = a->ops >= 0 && b->ops >= 0 ? b->ops - a->ops : -1;
	return d;
}

void snap_print(const char *what, const struct snap *d)
{
	note("%s: engine messages +%" PRIu64 " (bytes +%" PRIu64 "), software +%" PRIu64
	     " (key-check +%" PRIu64 ", error +%" PRIu64 ", gate +%" PRIu64 ", replay +%" PRIu64
	     ", socket-cap +%" PRIu64 "), key checks passed +%" PRIu64 " failed +%" PRIu64
	     ", engine errors +%" PRIu64 ", driver ops +%lld",
	     what, d->engine, d->bytes, d->sw, d->sw_keycheck, d->sw_error, d->sw_gate,
	     d->sw_replay, d->sw_sockcap, d->kc_pass, d->kc_fail, d->errors, d->ops);
}

int setup(const char *config)
{
	char gate[512];
	size_t n;

	lib = OSSL_LIB_CTX_new();
	if (lib == NULL)
		return check(0, "OSSL_LIB_CTX_new");
	if (config != NULL && !OSSL_LIB_CTX_load_config(lib, config)) {
		ERR_print_errors_fp(stdout);
		return check(0, "load config %s", config);
	}
	prov_eip93 = OSSL_PROVIDER_load(lib, "eip93");
	prov_default = OSSL_PROVIDER_load(lib, "default");
	if (prov_eip93 == NULL || prov_default == NULL) {
		ERR_print_errors_fp(stdout);
		return check(0, "load the eip93 and default providers (OPENSSL_MODULES=%s)",
			     getenv("OPENSSL_MODULES") != NULL ? getenv("OPENSSL_MODULES")
							       : "unset");
	}
	for (int k = 0; k < NKEYS; k++) {
		c_test[k] = EVP_CIPHER_fetch(lib, cipher_names[k], "provider=eip93");
		c_ref[k] = EVP_CIPHER_fetch(lib, cipher_names[k], "provider=default");
		if (c_test[k] == NULL || c_ref[k] == NULL) {
			ERR_print_errors_fp(stdout);
			return check(0, "fetch %s from eip93 and default", cipher_names[k]);
		}
	}
	gate_text(gate, sizeof(gate));
	if (strncmp(gate, "enabled: ", 9) != 0)
		return check(0, "the gate is open (eip93-gate: %s)", gate);
	n = strcspn(gate + 9, ";");
	if (n >= sizeof(kalg))
		return check(0, "kernel algorithm name fits AF_ALG (%s)", gate);
	memcpy(kalg, gate + 9, n);
	kalg[n] = '\0';
	return 1;
}

void teardown(void)
{
	for (int k = 0; k < NKEYS; k++) {
		EVP_CIPHER_free(c_test[k]);
		EVP_CIPHER_free(c_ref[k]);
	}
	OSSL_PROVIDER_unload(prov_eip93);
	OSSL_PROVIDER_unload(prov_default);
	OSSL_LIB_CTX_free(lib);
}
