// SPDX-License-Identifier: Apache-2.0
/*
 * How `eip93-doctor calibrate` times one contender and summarises its
 * rounds (tools/calib_time.c): the clocks, the rounding to the printed
 * precision, and the median with the slowest and fastest round.  Shared by
 * the AES-GCM rounds (calibrate.c) and the AES-CTR/CBC rounds (calib_modes.c).
 */
#ifndef EIP93_TOOLS_CALIB_TIME_H
#define EIP93_TOOLS_CALIB_TIME_H

#include <time.h>

#include "../provider/calib_decide.h"

#define CALIB_MAX_ROUNDS 100 /* calib_parse_opts() refuses more */

/* calib_now() - @id's clock in seconds. */
double calib_now(clockid_t id);

/* calib_round3() - @mbs rounded to three decimals: decided on what is printed. */
double calib_round3(double mbs);

/*
 * calib_store() - the median, slowest and fastest of @n (3..CALIB_MAX_ROUNDS)
 * values @v into @st, and the median of their CPU figures @cpu into @stcpu.
 */
void calib_store(struct eip93_calib_stat *st, double *stcpu, const double *v, const double *cpu,
		 unsigned int n);

#endif /* EIP93_TOOLS_CALIB_TIME_H */
