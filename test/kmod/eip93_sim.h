/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eip93_sim - simulated EIP93 "ctr(aes)" engine.  TEST-ONLY.
 *
 * What the module's two files share: eip93_sim_core.c (the algorithm, the
 * queue, the timing model, the other knobs) and eip93_sim_fault.c (the
 * keystream faults: the fault* parameters described in eip93_sim_core.c's
 * header).
 */
#ifndef EIP93_SIM_H
#define EIP93_SIM_H

#include <crypto/internal/skcipher.h>
#include <linux/moduleparam.h>
#include <linux/types.h>

#define SIM_BLK 16

/* The "ops"-style counter parameter: an atomic64_t, writable to reset. */
extern const struct kernel_param_ops sim_counter_ops;

/*
 * One request's fault, decided before the engine computes (what the
 * destination held, or the input, may have to be kept first) and applied
 * after it computed successfully.
 */
struct sim_fault_state {
	unsigned int kind;     /* the fault parameter's value when it was decided; 0: none */
	unsigned int pre;      /* bytes before the payload (0 or the tag-mask block) */
	u8 *saved;	       /* the request's input (fault 2, 3) */
	unsigned int skip_off; /* fault 8: the bytes left as they were */
	unsigned int skip_len;
	u8 skip_old[SIM_BLK]; /* fault 8: what the destination held there */
};

/*
 * Decide @req's fault (@armed: the registration's self-tests are over) and
 * keep what applying it needs; st->kind stays 0 when the request is not
 * faulted.  Only the ordered worker calls it (it counts fault_after down).
 */
void sim_fault_decide(struct skcipher_request *req, bool armed, struct sim_fault_state *st);
/* Apply the fault to @req's computed result (only when it computed). */
void sim_fault_apply(struct skcipher_request *req, struct sim_fault_state *st);
/* Free what sim_fault_decide() kept. */
void sim_fault_done(struct sim_fault_state *st);

#endif
