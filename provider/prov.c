// SPDX-License-Identifier: Apache-2.0
/*
 * provider/prov.c owns the OpenSSL boundary: OSSL_provider_init, the
 * provider parameters (name, version, build info, status, gate and
 * counters), reading the configuration once at load (the request built
 * from eip93_config_table), the errors raised to the application, and the
 * capability-gated cipher table (its rows: algs.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#include "../alg/env.h"
#include "../alg/gcm/gcm.h"
#include "../detect/detect.h"
#include "../detect/sandbox.h"
#include "algs.h"
#include "calib.h"
#include "config.h"
#include "errors.h"
#include "gate.h"

#ifndef EIP93_VERSION
#error "EIP93_VERSION must be defined by the build"
#endif

#define EIP93_NAME "eip93"
/* The provider's name: the SoC rows' title (one row today). */
#define EIP93_LONG_NAME "eip93 AES-GCM offload for %s"

#ifdef EIP93_TEST_HOOKS
#define EIP93_HOOKS_TEXT "test hooks compiled in"
#else
#define EIP93_HOOKS_TEXT "release"
#endif

/* What the core gave OSSL_provider_init: its handle and the functions used. */
struct eip93_core {
	const OSSL_CORE_HANDLE *handle;
	OSSL_FUNC_core_get_params_fn *get_params;
	OSSL_FUNC_core_get_libctx_fn *get_libctx;
	OSSL_FUNC_core_new_error_fn *new_error;
	OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
	OSSL_FUNC_core_vset_error_fn *vset_error;
};

struct eip93_prov {
	struct eip93_alg_env env; /* must stay first: alg/ reads it from provctx */
	struct eip93_core core;

	struct eip93_config cfg;
	char cfg_error[256]; /* empty when the config is valid */
	char sw_error[400];  /* empty when the delegate resolved */
	struct eip93_sw_lib sw;
	struct eip93_stats stats;

	CRYPTO_RWLOCK *gate_lock;
	atomic_int gate_done;
	struct eip93_gate gate;
	struct eip93_calib_load calib;	     /* the calibration file as read at the gate */
	int test_backend;		     /* test builds: EIP93_TEST_ENGINE's EIP93_BACKEND_* */
	const struct eip93_engine_row *rows; /* the engine rows the gate may bind on */
	size_t nrows;
	char status_text[3072]; /* eip93-status: verdict, window, GHASH, calibration */
	char window_text[48];	/* eip93-window */
	char name[sizeof(((struct eip93_gate *)0)->status) + 64];
	char disabled_text[sizeof(((struct eip93_gate *)0)->status) + 200];
	char disabled_status_text[3072 + 200];
	atomic_int disabled_text_ready;
	OSSL_ALGORITHM ciphers[EIP93_ALGS_MAX + 1];
};

static OSSL_FUNC_provider_teardown_fn eip93_teardown;
static OSSL_FUNC_provider_gettable_params_fn eip93_gettable_params;
static OSSL_FUNC_provider_get_params_fn eip93_get_params;
static OSSL_FUNC_provider_query_operation_fn eip93_query;
static OSSL_FUNC_provider_get_reason_strings_fn eip93_reason_strings_fn;

/*
 * raise_error() - put @reason on the application's error queue, with the
 * file, line and function of the caller (not of this helper), as
 * ERR_raise_data() does inside libcrypto.
 */
#define raise_error(core, reason, ...)                                                             \
	raise_error_at(core, __FILE__, __LINE__, __func__, reason, __VA_ARGS__)

static void raise_error_at(const struct eip93_core *core, const char *file, int line,
			   const char *func, int reason, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void raise_error_at(const struct eip93_core *core, const char *file, int line,
			   const char *func, int reason, const char *fmt, ...)
{
	va_list ap;

	if (core->new_error == NULL || core->vset_error == NULL)
		return;
	core->new_error(core->handle);
	if (core->set_error_debug != NULL)
		core->set_error_debug(core->handle, file, line, func);
	va_start(ap, fmt);
	core->vset_error(core->handle, reason, fmt, ap);
	va_end(ap);
}

/*
 * Read the provider's openssl.cnf section; the first bad value is kept.  One
 * request per row of eip93_config_table, then the provider's own name.
 */
static void read_config(struct eip93_prov *p, char *self, size_t selflen)
{
	OSSL_PARAM req[EIP93_CONFIG_NKEYS + 2]; /* the keys, the provider's name, the end */
	const char *vals[EIP93_CONFIG_NKEYS] = { NULL };
	const char *name = NULL;
	size_t n = 0, k;

	eip93_config_defaults(&p->cfg);
	snprintf(self, selflen, "%s", EIP93_NAME);
	if (p->core.get_params == NULL)
		return;
	for (k = 0; k < EIP93_CONFIG_NKEYS; k++)
		req[n++] = OSSL_PARAM_construct_utf8_ptr(eip93_config_table[k].name,
							 (char **)&vals[k], 0);
	req[n++] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_CORE_PROV_NAME, (char **)&name, 0);
	req[n] = OSSL_PARAM_construct_end();
	if (!p->core.get_params(p->core.handle, req))
		return;
	if (name != NULL)
		snprintf(self, selflen, "%s", name);

	for (k = 0; k < EIP93_CONFIG_NKEYS; k++) {
		if (vals[k] == NULL)
			continue;
		if (eip93_config_set(&p->cfg, eip93_config_table[k].name, vals[k], p->cfg_error,
				     sizeof(p->cfg_error)) < 0)
			break;
	}
	if (p->cfg_error[0] == '\0')
		eip93_config_check(&p->cfg, p->cfg_error, sizeof(p->cfg_error));
	if (p->cfg_error[0] != '\0') {
		raise_error(&p->core, EIP93_R_INVALID_CONFIG, "%s", p->cfg_error);
		eip93_config_defaults(&p->cfg); /* never half-applied */
	}
}

static void build_cipher_table(struct eip93_prov *p)
{
	/*
	 * eip93.offload=yes lets a configuration prefer eip93 even when an
	 * application's own query names "provider" (stunnel asks for
	 * "provider!=fips", which replaces a "?provider=eip93" default).
	 */
	(void)eip93_algs_build(p->ciphers, &p->sw, &p->env,
			       "provider=" EIP93_NAME ",fips=no,eip93.offload=yes");
}

static int openssl_wants_fips(struct eip93_prov *p)
{
	OSSL_LIB_CTX *app;

	if (p->core.get_libctx == NULL)
		return 0;
	/* For a module loaded by the libcrypto it links, the core context is the OSSL_LIB_CTX. */
	app = (OSSL_LIB_CTX *)p->core.get_libctx(p->core.handle);
	return app != NULL && EVP_default_properties_is_fips_enabled(app);
}

/*
 * eip93-status: the verdict (eip93-gate, which scripts parse as "enabled:
 * <kalg>"), then the window, what its GHASH means and the calibration's state.
 */
static void gate_texts(struct eip93_prov *p)
{
	const struct eip93_gate *g = &p->gate;
	char *t = p->status_text;
	size_t cap = sizeof(p->status_text), n = (size_t)snprintf(t, cap, "%s", g->status);

	if (g->enabled && n < cap)
		n += (size_t)snprintf(t + n, cap - n, "; window %zu-%zu bytes (%s)", g->min_size,
				      g->max_size, g->window_calibrated ? "calibration" : "config");
	if (g->ghash[0] != '\0' && n < cap)
		n += (size_t)snprintf(t + n, cap - n, "; %s", g->ghash);
	if (g->calib[0] != '\0' && n < cap)
		snprintf(t + n, cap - n, "; calibration: %s", g->calib);
	if (g->enabled)
		snprintf(p->window_text, sizeof(p->window_text), "%zu-%zu", g->min_size,
			 g->max_size);
	else
		snprintf(p->window_text, sizeof(p->window_text), "none");
}

/* engine-backend as configured (eip93-engine-backend: what eip93-doctor probes). */
static const char *engine_backend_text(int backend)
{
	const struct eip93_cfg_key *k = &eip93_config_table[EIP93_CFG_ENGINE_BACKEND];

	for (size_t i = 0; i < k->nnames; i++)
		if (k->values[i] == backend)
			return k->names[i];
	return "auto";
}

/*
 * The gate opened on a road: which of the SoC driver's skcipher modes
 * (AES-CTR, AES-CBC) bind there too.  Their ciphers are offered only then
 * (alg/skc/params.c); the same gate, backend and switches as AES-GCM's.
 */
static void bind_modes(struct eip93_prov *p)
{
	static const enum eip93_soc_mode modes[2] = { EIP93_MODE_CTR, EIP93_MODE_CBC };

	for (size_t i = 0; i < 2; i++) {
		const char *kalg = p->gate.soc->mode[modes[i]];

		p->env.skc_kalg[i][0] = '\0';
		if (kalg != NULL && p->gate.row->probe(kalg, NULL, 0) == 0)
			snprintf(p->env.skc_kalg[i], sizeof(p->env.skc_kalg[i]), "%s", kalg);
	}
	if (p->sw_error[0] == '\0')
		build_cipher_table(p);
}

/* Decide the gate once per provider instance, at first need. */
static const struct eip93_gate *gate_get(struct eip93_prov *p)
{
	struct eip93_gate_input in;
	char kernel[128];

	if (atomic_load_explicit(&p->gate_done, memory_order_acquire))
		return &p->gate;
	if (!CRYPTO_THREAD_write_lock(p->gate_lock))
		return &p->gate; /* still "disabled: not evaluated" */
	if (!atomic_load_explicit(&p->gate_done, memory_order_relaxed)) {
		memset(&in, 0, sizeof(in));
		in.env_switch = getenv("EIP93_PROVIDER");
		in.cfg = &p->cfg;
		in.cfg_error = p->cfg_error[0] != '\0' ? p->cfg_error : NULL;
		in.sw_error = p->sw_error[0] != '\0' ? p->sw_error : NULL;
		in.openssl_fips = openssl_wants_fips(p);
		in.backend = p->test_backend;
		in.rows = p->rows;
		in.nrows = p->nrows;
		in.ctr_usable = eip93_compose_selftest;
		eip93_calib_load(p->cfg.calib_file, &p->calib);
		in.calib = &p->calib;
		in.facts.kernel = eip93_kernel_release(kernel, sizeof(kernel)) == 0 ? kernel : NULL;
		in.facts.openssl = OpenSSL_version(OPENSSL_VERSION_STRING);
		in.facts.provider = EIP93_VERSION;
#ifdef EIP93_TEST_HOOKS
		{
			const char *hw = getenv("EIP93_TEST_HWCAP");

			in.dt_path_override = getenv("EIP93_TEST_DT_PATH");
			if (hw != NULL) {
				in.hwcap_override = 1;
				in.hwcap = strtoul(hw, NULL, 0);
			}
		}
#endif
		eip93_gate_decide(&in, &p->gate);
		if (p->gate.enabled) {
			/* The row that bound serves the keys. */
			p->env.engine = p->gate.row->ops;
			snprintf(p->env.kalg, sizeof(p->env.kalg), "%s", p->gate.kalg);
			/* The calibration's window, when it applies (before any cipher is offered). */
			for (int i = 0; i < EIP93_EMODES; i++) {
				p->env.limits[i].min_size = p->gate.min_size;
				p->env.limits[i].max_size = p->gate.max_size;
			}
			bind_modes(p);
		}
		gate_texts(p);
		/* `openssl list -providers` prints the name: let it carry the verdict. */
		snprintf(p->name, sizeof(p->name), EIP93_LONG_NAME " (%s)",
			 p->gate.soc != NULL ? p->gate.soc->title : eip93_socs[0]->title,
			 p->gate.status);
		atomic_store(&p->env.engine_available, p->gate.enabled);
		if (p->gate.enabled)
			eip93_sandbox_prime();
		atomic_store_explicit(&p->gate_done, 1, memory_order_release);
	}
	CRYPTO_THREAD_unlock(p->gate_lock);
	return &p->gate;
}

/*
 * The one activation line, once per process (docs/contract.md "What an
 * operator sees"), at the first key that passes its check.  The only thing
 * this library ever writes to stderr.
 */
static atomic_int notice_printed;

static void activation_notice(struct eip93_alg_env *env)
{
	struct eip93_prov *p = (struct eip93_prov *)env; /* env is the first member */

	if (!p->cfg.notice || atomic_exchange(&notice_printed, 1))
		return;
	/* The AF_ALG line is what scripts know; /dev/crypto names itself in the same place. */
	fprintf(stderr, "eip93: %s AES-GCM hybrid backend enabled (%s CTR + CPU GHASH) via %s\n",
		p->gate.soc->short_name, p->gate.row->road, env->kalg);
}

static const OSSL_ALGORITHM *eip93_query(void *provctx, int operation_id, int *no_cache)
{
	struct eip93_prov *p = provctx;

	*no_cache = 0;
	if (operation_id != OSSL_OP_CIPHER)
		return NULL;
	return gate_get(p)->enabled ? p->ciphers : NULL;
}

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

static const OSSL_PARAM *eip93_gettable_params(void *provctx)
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

static int eip93_get_params(void *provctx, OSSL_PARAM params[])
{
	struct eip93_prov *p = provctx;
	struct eip93_stats *st = &p->stats;
	OSSL_PARAM *q;
	char key[64];

	const char *gate_text, *status_text;

	gate_get(p);
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
	    !set_str(params, "eip93-engine-backend", engine_backend_text(p->cfg.backend)) ||
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
	    !set_str(params, "eip93-routing", p->env.adapt != NULL ? "adaptive" : "fixed"))
		return 0;
	return 1;
}

static const OSSL_ITEM *eip93_reason_strings_fn(void *provctx)
{
	(void)provctx;
	return eip93_reason_strings;
}

static void eip93_teardown(void *provctx)
{
	struct eip93_prov *p = provctx;

	if (p == NULL)
		return;
	eip93_alg_env_free(&p->env);
	OPENSSL_free(p->env.adapt); /* adaptive routing: estimates only, no secrets */
	if (p->sw.libctx != NULL)
		eip93_sw_close(&p->sw);
	CRYPTO_THREAD_lock_free(p->gate_lock);
	OPENSSL_clear_free(p, sizeof(*p));
}

static const OSSL_DISPATCH eip93_dispatch[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))eip93_teardown },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))eip93_gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))eip93_get_params },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))eip93_query },
	{ OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))eip93_reason_strings_fn },
	{ 0, NULL }
};

/* The one exported symbol (everything else is hidden; see eip93.map). */
__attribute__((visibility("default"))) OSSL_provider_init_fn OSSL_provider_init;

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
		       const OSSL_DISPATCH **out, void **provctx)
{
	struct eip93_core core = { .handle = handle };
	struct eip93_prov *p;
	char self[64];
	int r;

	for (; in != NULL && in->function_id != 0; in++) {
		switch (in->function_id) {
		case OSSL_FUNC_CORE_GET_PARAMS:
			core.get_params = OSSL_FUNC_core_get_params(in);
			break;
		case OSSL_FUNC_CORE_GET_LIBCTX:
			core.get_libctx = OSSL_FUNC_core_get_libctx(in);
			break;
		case OSSL_FUNC_CORE_NEW_ERROR:
			core.new_error = OSSL_FUNC_core_new_error(in);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			core.set_error_debug = OSSL_FUNC_core_set_error_debug(in);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			core.vset_error = OSSL_FUNC_core_vset_error(in);
			break;
		default:
			break;
		}
	}
	p = OPENSSL_zalloc(sizeof(*p));
	if (p == NULL) {
		raise_error(&core, EIP93_R_INIT_FAILED, "cannot allocate the provider context");
		return 0;
	}
	p->core = core;
	p->gate_lock = CRYPTO_THREAD_lock_new();
	if (p->gate_lock == NULL) {
		raise_error(&core, EIP93_R_INIT_FAILED, "cannot create the gate lock");
		OPENSSL_free(p);
		return 0;
	}
	snprintf(p->gate.status, sizeof(p->gate.status), "disabled: not evaluated yet");
	snprintf(p->status_text, sizeof(p->status_text), "%s", p->gate.status);
	snprintf(p->window_text, sizeof(p->window_text), "none");
	snprintf(p->name, sizeof(p->name), EIP93_LONG_NAME, eip93_socs[0]->title);

	read_config(p, self, sizeof(self));
	r = eip93_algs_sw_open(&p->sw, p->cfg.fallback_propq, self);
	if (r < 0) {
		snprintf(p->sw_error, sizeof(p->sw_error),
			 "software delegate: no AES-GCM for fallback-properties \"%s\" (%s)",
			 p->cfg.fallback_propq,
			 r == -EINVAL	? "it resolves to an eip93 provider or does not parse"
			 : r == -ENOSYS ? "implementation incomplete"
					: "not found");
		raise_error(&p->core, EIP93_R_NO_DELEGATE, "%s", p->sw_error);
	} else {
		build_cipher_table(p);
	}

	p->env.sw = p->sw.impl;
	p->env.libctx = p->sw.libctx;
	p->rows = eip93_engine_rows;
	p->nrows = EIP93_NENGINES;
	p->env.engine = p->rows[0].ops;
	p->env.verify = 1;
#ifdef EIP93_TEST_HOOKS
	{
		/* Test builds: EIP93_TEST_ENGINE=fake computes "engine" messages in user space. */
		const char *e = getenv("EIP93_TEST_ENGINE");

		/* It stands in for AF_ALG: engine-backend = cryptodev then finds no backend. */
		if (e != NULL && strcmp(e, "fake") == 0) {
			p->rows = &eip93_engine_row_fake;
			p->nrows = 1;
			p->env.engine = p->rows[0].ops;
		}
		/* EIP93_TEST_ENGINE=cryptodev: the /dev/crypto backend (engine/cryptodev.c), whatever
		 * engine-backend says. */
		if (e != NULL && strcmp(e, "cryptodev") == 0)
			p->test_backend = EIP93_BACKEND_CRYPTODEV;
		/* The benchmark's unchecked instance: what the integrity check costs. */
		e = getenv("EIP93_TEST_VERIFY");
		if (e != NULL && strcmp(e, "off") == 0)
			p->env.verify = 0;
	}
#endif
	for (int i = 0; i < EIP93_EMODES; i++) {
		p->env.limits[i].min_size = p->cfg.min_size;
		p->env.limits[i].max_size = p->cfg.max_size;
	}
	p->env.stats = &p->stats;
	p->env.max_sockets = p->cfg.max_sockets;
	p->env.timeout_ms = p->cfg.timeout_ms;
	p->env.max_faults = EIP93_ENGINE_MAX_FAULTS;
	p->env.tag_check = p->cfg.tag_check;
	p->env.on_first_engine = activation_notice;
	/* adaptive routing (alg/adapt.h); if it cannot be allocated, routing stays fixed */
	if (p->cfg.routing == EIP93_ROUTING_ADAPTIVE) {
		p->env.adapt = OPENSSL_malloc(sizeof(*p->env.adapt));
		if (p->env.adapt != NULL)
			eip93_adapt_init(p->env.adapt, p->cfg.explore, p->cfg.weight);
	}
	*out = eip93_dispatch;
	*provctx = p;
	return 1;
}
