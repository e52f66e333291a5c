// SPDX-License-Identifier: Apache-2.0
/*
 * provider/prov.h: the provider instance (the context OpenSSL hands back to
 * every dispatch function) as prov.c and params.c share it.
 */
#ifndef EIP93_PROV_H
#define EIP93_PROV_H

#include <stdatomic.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>

#include "../alg/env.h"
#include "algs.h"
#include "calib.h"
#include "config.h"
#include "gate.h"

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
	char cfg_error[1024]; /* empty when the config is valid */
	char sw_error[400];   /* empty when the delegate resolved */
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

/* The gate, decided once per instance at first need (prov.c). */
const struct eip93_gate *eip93_prov_gate(struct eip93_prov *p);
/* engine-backend as configured, in words (prov.c). */
const char *eip93_prov_backend_text(int backend);
/* The provider's own parameters: name, version, status, gate, counters (params.c). */
OSSL_FUNC_provider_gettable_params_fn eip93_gettable_params;
OSSL_FUNC_provider_get_params_fn eip93_get_params;

#endif /* EIP93_PROV_H */
