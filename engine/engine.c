// SPDX-License-Identifier: Apache-2.0
/*
 * The roads to the engine as rows, in engine-backend = auto's order, made
 * from EIP93_ENGINE_ROWS (engine/engine.h): the gate, calibration, the
 * config's accepted values and eip93-doctor loop over them.
 */
#include "engine.h"

#define EIP93_ROW(i, nm, file, rd, vi, o, w)                                                       \
	[EIP93_BACKEND_##i - 1] = { .id = EIP93_BACKEND_##i,                                       \
				    .name = nm,                                                    \
				    .road = rd,                                                    \
				    .via = vi,                                                     \
				    .ops = &o,                                                     \
				    .probe = w##_probe,                                            \
				    .dead = w##_dead,                                              \
				    .tried = w##_tried,                                            \
				    .why = w##_why },
const struct eip93_engine_row eip93_engine_rows[EIP93_NENGINES] = { EIP93_ENGINE_ROWS(EIP93_ROW) };
#undef EIP93_ROW
