// SPDX-License-Identifier: Apache-2.0
/*
 * provider/params.c: the provider's own parameters (OSSL_PROV_PARAM_*,
 * eip93-gate, -status, -window, -calibration, the counters; docs/contract.md
 * "What an operator sees").
 */
#include <stdio.h>

#include <openssl/core_names.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#include "prov.h"

#ifndef EIP93_VERSION
#error "EIP93_VERSION must be defined by the build"
#endif

#define COUNTER_PREFIX "eip93-software-messages-"

static const OSSL_PARAM eip93_param_types[] = {
	OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-gate", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN("eip93-backend", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN("eip93-engine-backend", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN("eip93-kernel-algorithm", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN("eip93-status", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN("eip93-calibration", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN("eip93-window", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN("eip93-engine-messages", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-engine-bytes", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-software-messages", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-key-checks-passed", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-key-checks-failed", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-engine-errors", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-engine-faults", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "gate", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "key", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "iv", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "tls", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "size", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "nonce", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "tag", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "aad", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "overlap", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "key-check", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "error", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "replay", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "socket-cap", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "fault", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	/* adaptive routing (alg/adapt.h) */
	OSSL_PARAM_DEFN(COUNTER_PREFIX "adaptive", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-adaptive-explore-engine", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-adaptive-explore-software", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-routing", OSSL_PARAM_UTF8_PTR, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "seccomp", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN(COUNTER_PREFIX "tag-refused", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	/* keystream ahead (alg/gcm/ahead.h) */
	OSSL_PARAM_DEFN("eip93-keystream-ahead-used", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_DEFN("eip93-keystream-ahead-dropped", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	/* AF_ALG transforms kept for the next key (engine/afalg.c) */
	OSSL_PARAM_DEFN("eip93-afalg-pooled-sockets", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
	OSSL_PARAM_END
};

/*
 * The gate text once the engine was switched off by errors: written once into
 * the provider's own buffer (a returned UTF-8 pointer must outlive the call).
 */
static const char *disabled_status(struct eip93_prov *p)
{
	if (atomic_load_explicit(&p->disabled_text_ready, memory_order_acquire))
		return p->disabled_text;
	if (!CRYPTO_THREAD_write_lock(p->gate_lock))
		return p->gate.status;
	if (!atomic_load_explicit(&p->disabled_text_ready, memory_order_relaxed)) {
		snprintf(p->disabled_text, sizeof(p->disabled_text), "%s; %s", p->gate.status,
			 p->env.disabled_reason);
		snprintf(p->disabled_status_text, sizeof(p->disabled_status_text), "%s; %s",
			 p->status_text, p->env.disabled_reason);
		atomic_store_explicit(&p->disabled_text_ready, 1, memory_order_release);
	}
	CRYPTO_THREAD_unlock(p->gate_lock);
	return p->disabled_text;
}

const OSSL_PARAM *eip93_gettable_params(void *provctx)
{
	(void)provctx;
	return eip93_param_types;
}

static int set_u64(OSSL_PARAM params[], const char *key, _Atomic uint64_t *c)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	return p == NULL || OSSL_PARAM_set_uint64(p, eip93_stat_get(c));
}

static int set_str(OSSL_PARAM params[], const char *key, const char *v)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	return p == NULL || OSSL_PARAM_set_utf8_ptr(p, v);
}

int eip93_get_params(void *provctx, OSSL_PARAM params[])
{
	struct eip93_prov *p = provctx;
	struct eip93_stats *st = &p->stats;
	OSSL_PARAM *q;
	char key[64];

	const char *gate_text, *status_text;

	eip93_prov_gate(p);
	gate_text = p->gate.status;
	status_text = p->status_text;

	if (atomic_load_explicit(&p->env.engine_disabled, memory_order_acquire)) {
		gate_text = disabled_status(p);
		if (atomic_load_explicit(&p->disabled_text_ready, memory_order_acquire))
			status_text = p->disabled_status_text;
	}

	if (!set_str(params, OSSL_PROV_PARAM_NAME, p->name) ||
	    !set_str(params, OSSL_PROV_PARAM_VERSION, EIP93_VERSION) ||
	    !set_str(params, OSSL_PROV_PARAM_BUILDINFO,
		     "eip93 " EIP93_VERSION " (" EIP93_HOOKS_TEXT
		     ", built with " OPENSSL_VERSION_TEXT ")") ||
	    !set_str(params, "eip93-gate", gate_text) ||
	    !set_str(params, "eip93-backend", p->gate.enabled ? p->env.engine->name : "") ||
	    !set_str(params, "eip93-engine-backend", eip93_prov_backend_text(p->cfg.backend)) ||
	    !set_str(params, "eip93-kernel-algorithm", p->cfg.kalg) ||
	    !set_str(params, "eip93-status", status_text) ||
	    !set_str(params, "eip93-calibration", p->gate.calib) ||
	    !set_str(params, "eip93-window", p->window_text))
		return 0;
	q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
	if (q != NULL && !OSSL_PARAM_set_int(q, 1))
		return 0;
	if (!set_u64(params, "eip93-engine-messages", &st->engine_messages) ||
	    !set_u64(params, "eip93-engine-bytes", &st->engine_bytes) ||
	    !set_u64(params, "eip93-key-checks-passed", &st->key_checks_passed) ||
	    !set_u64(params, "eip93-key-checks-failed", &st->key_checks_failed) ||
	    !set_u64(params, "eip93-engine-errors", &st->engine_errors) ||
	    !set_u64(params, "eip93-engine-faults", &st->engine_faults))
		return 0;
	q = OSSL_PARAM_locate(params, "eip93-software-messages");
	if (q != NULL) {
		uint64_t total = 0;

		for (int r = EIP93_SW_GATE; r < EIP93_SW_NREASONS; r++)
			total += eip93_stat_get(&st->sw_by_reason[r]);
		if (!OSSL_PARAM_set_uint64(q, total))
			return 0;
	}
	for (int r = EIP93_SW_GATE; r < EIP93_SW_NREASONS; r++) {
		snprintf(key, sizeof(key), COUNTER_PREFIX "%s", eip93_sw_reason_name(r));
		if (!set_u64(params, key, &st->sw_by_reason[r]))
			return 0;
	}
	/* adaptive routing (alg/adapt.h) */
	if (!set_u64(params, "eip93-adaptive-explore-engine", &st->adapt_explore_engine) ||
	    !set_u64(params, "eip93-adaptive-explore-software", &st->adapt_explore_sw) ||
	    !set_str(params, "eip93-routing", p->env.adapt != NULL ? "adaptive" : "fixed") ||
	    !set_u64(params, "eip93-keystream-ahead-used", &st->ahead_used) ||
	    !set_u64(params, "eip93-keystream-ahead-dropped", &st->ahead_dropped))
		return 0;
	q = OSSL_PARAM_locate(params, "eip93-afalg-pooled-sockets");
	if (q != NULL && !OSSL_PARAM_set_uint(q, eip93_afalg_pool_sockets()))
		return 0;
	return 1;
}
