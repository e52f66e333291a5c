// SPDX-License-Identifier: Apache-2.0
/*
 * provider/gate_board.c: the gate's facts of the box (device tree to SoC
 * row, the row's CPU rule, FIPS), before any kernel probe.  Private to the
 * gate (gate.c).
 */
#ifndef EIP93_GATE_BOARD_H
#define EIP93_GATE_BOARD_H

#include "gate.h"

/* eip93_gate_off() - @g off, its status "disabled: " and @fmt (gate.c). */
void eip93_gate_off(struct eip93_gate *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* eip93_gate_errno_text() - "ENOENT 2 (No such file or directory)" for @err. */
void eip93_gate_errno_text(int err, char *buf, size_t len);

/*
 * eip93_gate_board() - is this board one of the SoC rows (g->soc), its CPU
 * the row's without AES instructions, and not in FIPS mode?  1; else @g off
 * with the reason, 0.
 */
int eip93_gate_board(const struct eip93_gate_input *in, struct eip93_gate *g);

#endif /* EIP93_GATE_BOARD_H */
