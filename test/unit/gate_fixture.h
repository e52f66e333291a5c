// SPDX-License-Identifier: Apache-2.0
/*
 * test_gate's fixture, shared by test_gate.c (which defines it) and
 * gate_backends.c: a device-tree file, the config, and the scripted probes
 * of two engine rows (AF_ALG: capitals in probe_log; /dev/crypto: lower case).
 */
#ifndef EIP93_TEST_GATE_FIXTURE_H
#define EIP93_TEST_GATE_FIXTURE_H

#include <stddef.h>
#include <string.h>

#include "../../provider/gate.h"

/* The compositions, spelled once: in the AN7581's SoC row, in its order. */
#define KALG_CTR_ONLY eip93_socs[0]->comps[0].kalg
#define KALG_NEON eip93_socs[0]->comps[1].kalg
#define KALG_GENERIC eip93_socs[0]->comps[2].kalg
#define KALG_LIB eip93_socs[0]->comps[3].kalg

#define HAS(g, text) CHECK(strstr((g).status, (text)) != NULL)
#define STARTS(g, text) CHECK(strncmp((g).status, (text), strlen(text)) == 0)

extern char dir[];
extern struct eip93_config cfg;
extern int probe_err[EIP93_NKALG]; /* AF_ALG: per eip93_kalg_names index, 0 binds or errno */
extern int cdev_err[EIP93_NKALG];  /* /dev/crypto: the same */
extern const char *cdev_drv[EIP93_NKALG];
extern int ctr_unusable;  /* the CTR-only composition's libcrypto self-test fails */
extern int use_cdev;	  /* decide_k() offers the /dev/crypto row */
extern int force_backend; /* decide_k()'s in.backend (the test builds' force) */
extern char probe_log[256];
extern const struct eip93_engine_row gate_test_rows[2]; /* decide_k()'s: AF_ALG, /dev/crypto */

/* dt_file() - a compatible property file of @len bytes in the test's directory. */
const char *dt_file(const char *name, const void *bytes, size_t len);
/* decide_k() - the verdict on an AN7581 with the scripted rows, kernel release @kernel. */
struct eip93_gate decide_k(const struct eip93_calib_load *cl, const char *kernel);
/* calib_loaded() - a current calibration of @kalg: the engine's window, or off. */
void calib_loaded(struct eip93_calib_load *cl, const char *kalg, int engine);

/* test_gate_backends() - gate_backends.c's cases; adds its checks to @n, its failures to @failed. */
void test_gate_backends(int *n, int *failed);

#endif /* EIP93_TEST_GATE_FIXTURE_H */
