// SPDX-License-Identifier: Apache-2.0
/*
 * provider/prov.c owns the OpenSSL boundary: OSSL_provider_init, reading
 * the configuration once at load (the request built from
 * eip93_config_table), the gate decided at first need, the errors raised to
 * the application, and the capability-gated cipher table (its rows:
 * algs.c).  The provider's own parameters (name, version, build info,
 * status, gate and counters) are params.c's.
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
#include "prov.h"

#ifndef EIP93_VERSION
#error "EIP93_VERSION must be defined by the build"
#endif

#define EIP93_NAME "eip93"
/* The provider's name: the SoC rows' title (one row today). */
#define EIP93_LONG_NAME "eip93 AES-GCM offload for %s"

static OSSL_FUNC_provider_teardown_fn eip93_teardown;
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

	if (g->enabled && n < cap) /* each mode's window, AES-CTR/CBC where they bound */
		n = eip93_gate_window_text(g, p->env.skc_kalg[0][0], p->env.skc_kalg[1][0], t, cap);
	if (g->ghash[0] != '\0' && n < cap)
		n += (size_t)snprintf(t + n, cap - n, "; %s", g->ghash);
	if (g->calib[0] != '\0' && n < cap)
		snprintf(t + n, cap - n, "; calibration: %s", g->calib);
	if (g->enabled && g->min_size <= g->max_size)
		snprintf(p->window_text, sizeof(p->window_text), "%zu-%zu", g->min_size,
			 g->max_size);
	else
		snprintf(p->window_text, sizeof(p->window_text), "none");
}

/* engine-backend as configured (eip93-engine-backend: what eip93-doctor probes). */
const char *eip93_prov_backend_text(int backend)
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

#ifdef EIP93_TEST_HOOKS
/*
 * Test builds: EIP93_TEST_CPU=ARCH[+aes] (aarch64, arm, mips, riscv64,
 * other) stands in for the CPU; +aes gives it that architecture's AES
 * instructions.  Unknown values leave the real CPU.
 */
static void test_cpu(struct eip93_gate_input *in, const char *v)
{
	char arch[16];
	const char *plus;
	int a, aes;

	if (v == NULL)
		return;
	plus = strchr(v, '+');
	snprintf(arch, sizeof(arch), "%.*s", plus != NULL ? (int)(plus - v) : (int)strlen(v), v);
	a = eip93_arch_parse(arch);
	if (a < 0)
		return;
	aes = plus != NULL && strcmp(plus, "+aes") == 0;
	in->cpu_override = 1;
	in->cpu_arch = a;
	in->hwcap = !aes ? 0 : a == EIP93_ARCH_AARCH64 ? EIP93_HWCAP_AES : EIP93_HWCAP2_ARM_AES;
	in->cpu_isa_aes = aes;
}
#endif

/* Decide the gate once per provider instance, at first need. */
const struct eip93_gate *eip93_prov_gate(struct eip93_prov *p)
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
			test_cpu(&in, getenv("EIP93_TEST_CPU"));
		}
#endif
		eip93_gate_decide(&in, &p->gate);
		if (p->gate.enabled) {
			/* The row that bound serves the keys. */
			p->env.engine = p->gate.row->ops;
			snprintf(p->env.kalg, sizeof(p->env.kalg), "%s", p->gate.kalg);
			/* The calibration's window, when it applies (before any cipher is offered). */
			eip93_gate_limits(&p->gate, p->env.limits);
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
	/*
	 * The AF_ALG line is what scripts know, ending with the composition;
	 * /dev/crypto names itself in the same place.  It stays so whatever
	 * cipher's key comes first (AES-CTR and AES-CBC: eip93-status).
	 */
	fprintf(stderr, "eip93: %s AES-GCM hybrid backend enabled (%s %s + CPU GHASH) via %s\n",
		p->gate.soc->short_name, p->gate.row->road,
		eip93_engine_kalg_mode(env->kalg) == EIP93_EMODE_ECB ? "ECB" : "CTR", env->kalg);
}

static const OSSL_ALGORITHM *eip93_query(void *provctx, int operation_id, int *no_cache)
{
	struct eip93_prov *p = provctx;

	*no_cache = 0;
	if (operation_id != OSSL_OP_CIPHER)
		return NULL;
	return eip93_prov_gate(p)->enabled ? p->ciphers : NULL;
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
	eip93_afalg_pool_flush();   /* idle transforms kept for the next key (engine/afalg.c) */
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
	p->env.ahead = p->cfg.ahead;
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
